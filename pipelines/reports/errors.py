"""The one error a report raises: its message is the one line the user sees."""


class ReportError(Exception):
    """Something the user can fix (a missing warehouse, an unknown property, a bad date...)."""
