"""The one error a page raises: its HTTP status and the one line the page shows."""

from __future__ import annotations


class PageError(Exception):
    """Something the user can fix in the address (400), a property or page that is not there
    (404), or a warehouse that cannot be read (503). Nothing is written on any of them."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
