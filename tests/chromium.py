"""Debian's headless Chromium for the tests that load a page as a browser would (the Dagster
UI, the web app): installed by apt when missing and we are root (the CI's case)."""

from __future__ import annotations

import fcntl
import json
import os
import select
import subprocess
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def find_chromium() -> Path:
    """/usr/bin/chromium, installed by `apt-get install chromium` when missing."""
    if not CHROMIUM.exists():
        if os.geteuid() != 0:
            pytest.fail("/usr/bin/chromium is missing: `apt-get install -y chromium` as root")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, timeout=600,
                       capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=True, env=env,
                       timeout=900, capture_output=True)
    return CHROMIUM


def _above_4(*fds: int) -> tuple[int, ...]:
    """The same pipe ends on fds above 4 (the originals closed)."""
    moved = tuple(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in fds)
    for fd in fds:
        os.close(fd)
    return moved


class Browser:
    """One headless Chromium for many pages: driven over the DevTools protocol on a pipe
    (`--remote-debugging-pipe`: JSON messages, each ended by a NUL byte, read by the browser
    on its fd 3 and written on its fd 4), so a test loads page after page with one browser
    start and no library beyond Python's own. Use `browser()` to start and stop it."""

    def __init__(self, profile: Path, width: int = 1400, height: int = 2400) -> None:
        to_browser, self._browser_in = _above_4(*os.pipe())
        self._browser_out, from_browser = _above_4(*os.pipe())
        # bash puts the browser's ends of the two pipes on fds 3 and 4, then execs it (from
        # fds above 4: neither redirection overwrites the other's source; dash's redirections
        # take one digit only).
        self._process = subprocess.Popen(
            ["/bin/bash", "-c", f'exec "$0" "$@" 3<&{to_browser} 4>&{from_browser}',
             str(find_chromium()), *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
             f"--window-size={width},{height}", "--remote-debugging-pipe", "about:blank"],
            pass_fds=(to_browser, from_browser), stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser)
        self._pending = b""
        self._last_id = 0
        self._session = ""
        try:
            target = self._call("Target.createTarget", {"url": "about:blank"})["targetId"]
            self._session = self._call("Target.attachToTarget",
                                       {"targetId": target, "flatten": True})["sessionId"]
            self._call("Page.enable", session=True)
        except BaseException:
            self.close()
            raise

    def _send(self, method: str, params: dict[str, Any], session: bool) -> int:
        self._last_id += 1
        message: dict[str, Any] = {"id": self._last_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self._session
        os.write(self._browser_in, json.dumps(message).encode() + b"\0")
        return self._last_id

    def _receive(self) -> dict[str, Any]:
        while b"\0" not in self._pending:
            ready, _, _ = select.select([self._browser_out], [], [], 120)
            assert ready, "Chromium said nothing for 120 s"
            chunk = os.read(self._browser_out, 1 << 16)
            assert chunk, f"Chromium closed its pipe (exit {self._process.poll()})"
            self._pending += chunk
        message, self._pending = self._pending.split(b"\0", 1)
        found: dict[str, Any] = json.loads(message)
        return found

    def _call(self, method: str, params: dict[str, Any] | None = None,
              session: bool = False) -> dict[str, Any]:
        sent = self._send(method, params or {}, session)
        while True:
            message = self._receive()
            if message.get("id") == sent:
                assert "error" not in message, (method, message["error"])
                result: dict[str, Any] = message["result"]
                return result

    def _evaluate(self, expression: str) -> Any:
        return self._call("Runtime.evaluate", {"expression": expression,
                                               "returnByValue": True},
                          session=True)["result"].get("value")

    def dom(self, url: str, ready: str = "true") -> str:
        """The rendered DOM of `url` once it has loaded and the JavaScript condition `ready`
        holds (checked up to 300 times, 0.1 s apart; the DOM is returned either way)."""
        navigated = self._call("Page.navigate", {"url": url}, session=True)
        assert "errorText" not in navigated, (url, navigated["errorText"])
        while True:
            message = self._receive()
            if message.get("method") == "Page.loadEventFired" \
                    and message.get("sessionId") == self._session:
                break
        for _ in range(300):
            if self._evaluate(ready) is True:
                break
            time.sleep(0.1)
        html: str = self._evaluate("document.documentElement.outerHTML")
        return html

    def close(self) -> None:
        try:
            self._send("Browser.close", {}, session=False)
            self._process.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):  # the pipe broken, or no answer
            self._process.kill()
            self._process.wait()
        finally:
            os.close(self._browser_in)
            os.close(self._browser_out)


@contextmanager
def browser(profile: Path) -> Iterator[Browser]:
    """A headless Chromium (Browser) for the block, stopped after it."""
    with closing(Browser(profile)) as started:
        yield started
