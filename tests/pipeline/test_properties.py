"""The properties file (pipelines.properties, docs/ingestion.md): a mistake is one line naming
the file and the key; `--property` finds a property by its PMS code, case aside."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.properties import PropertyConfigError, find_property, load_properties

GOOD = "  - {code: ROMA01, base_url: 'http://127.0.0.1:9/v1', api_key_env: KEY_ROMA}\n"


@pytest.mark.parametrize(("entries", "message"), [
    ("  - {code: ROMA01, base_url: 'ftp://x', api_key_env: K}\n",
     "properties[0].base_url: String should match pattern"),
    (GOOD + "  - {code: FIRE01, base_url: 'http://x/v1', api_key_env: 'sbx key'}\n",
     "properties[1].api_key_env: String should match pattern"),
    (GOOD + "  - {code: FIRE01, base_url: 'http://x/v1', api_key_env: K, rate: 5}\n",
     "properties[1].rate: Extra inputs are not permitted"),
    ("  - {code: ROMA01, base_url: 'http://x/v1', api_key_env: K, burst: 0}\n",
     "properties[0].burst: Input should be greater than 0"),
    (GOOD + GOOD, "properties: Value error, property code ROMA01 appears twice"),
    ("  []\n", "properties: List should have at least 1 item"),
])
def test_a_bad_file_names_the_key(tmp_path: Path, entries: str, message: str) -> None:
    path = tmp_path / "properties.yaml"
    path.write_text("properties:\n" + entries, encoding="utf-8")
    with pytest.raises(PropertyConfigError) as raised:
        load_properties(path)
    assert str(raised.value).startswith(f"{path}: {message}")
    assert "\n" not in str(raised.value)


def test_a_file_that_cannot_be_read_is_one_line(tmp_path: Path) -> None:
    """Not UTF-8, not YAML, not a file: one line naming the file and what is wrong
    (issue 47, item 7: a Latin-1 file printed a 36-line traceback)."""
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(("properties:\n" + GOOD.replace("ROMA01", "ROMA\u00c701")).encode(
        "latin-1"))
    broken = tmp_path / "broken.yaml"
    broken.write_text("properties:\n  - {code: ROMA01, base_url: [\n", encoding="utf-8")
    for path, message in ((latin, "not UTF-8 text (byte 0xc7 at offset"),
                          (broken, "not valid YAML: "), (tmp_path, "cannot be read: ")):
        with pytest.raises(PropertyConfigError) as raised:
            load_properties(path)
        assert str(raised.value).startswith(f"{path}: {message}"), raised.value
        assert "\n" not in str(raised.value)
    with pytest.raises(PropertyConfigError, match=r"at line 3, column 1"):
        load_properties(broken)


def test_a_property_is_found_by_its_pms_code(tmp_path: Path) -> None:
    path = tmp_path / "properties.yaml"
    path.write_text("properties:\n" + GOOD, encoding="utf-8")
    properties = load_properties(path)
    assert find_property(properties, "roma01").code == "ROMA01"
    assert find_property(properties, None).code == "ROMA01"
    with pytest.raises(PropertyConfigError, match="unknown property 'PARIS01': known ROMA01"):
        find_property(properties, "PARIS01")
    endpoint = properties[0].endpoint({"KEY_ROMA": "secret"})
    assert (endpoint.base_url, endpoint.rate_per_minute, endpoint.burst) == (
        "http://127.0.0.1:9/v1", 600, 120)
    assert "secret" not in repr(endpoint)
