"""A report table as a one-sheet XLSX workbook, and the cells of such a sheet read back,
with the standard library only (zipfile + ElementTree; Office Open XML, ECMA-376).

Written: the title in A1, the header in row 3, the rows below and the total last; numbers
as numbers, dates as ISO text, every other value as an inline string."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Sequence
from datetime import date, timedelta
from decimal import Decimal
from typing import Any
from xml.etree import ElementTree
from xml.sax.saxutils import escape

from .reports import Table

_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_PARTS = {
    "[Content_Types].xml": (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'),
    "_rels/.rels": (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships '
        f'xmlns="{_PKG_REL}"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
        'officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
        '</Relationships>'),
    "xl/_rels/workbook.xml.rels": (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships '
        f'xmlns="{_PKG_REL}"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
        'officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
        '</Relationships>'),
}


def _column(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _cell(ref: str, value: Any) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, bool):
        return f'<c r="{ref}" t="b"><v>{int(value)}</v></c>'
    if isinstance(value, int | float | Decimal):
        return f'<c r="{ref}"><v>{value}</v></c>'
    text = value.isoformat() if isinstance(value, date) else str(value)
    return f'<c r="{ref}" t="inlineStr"><is><t xml:space="preserve">{escape(text)}</t></is></c>'


def workbook(rows: Sequence[Sequence[Any]], sheet: str = "report") -> bytes:
    """An XLSX file of one sheet holding `rows` from A1."""
    body = "".join(
        f'<row r="{r + 1}">' + "".join(_cell(f"{_column(c)}{r + 1}", v)
                                      for c, v in enumerate(row)) + "</row>"
        for r, row in enumerate(rows))
    parts = dict(_PARTS)
    parts["xl/workbook.xml"] = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="{_MAIN}" '
        f'xmlns:r="{_REL}"><sheets><sheet name="{escape(sheet[:31])}" sheetId="1" '
        'r:id="rId1"/></sheets></workbook>')
    parts["xl/worksheets/sheet1.xml"] = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="{_MAIN}">'
        f"<sheetData>{body}</sheetData></worksheet>")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
    return out.getvalue()


def render_xlsx(table: Table) -> bytes:
    rows: list[Sequence[Any]] = [[table.title], [], list(table.columns), *table.rows]
    if table.total is not None:
        rows.append(table.total)
    return workbook(rows)


class XlsxError(ValueError):
    """The file is not a workbook this reader understands."""


_REF = re.compile(r"^([A-Z]+)(\d+)$")
EXCEL_EPOCH = date(1899, 12, 30)


def excel_date(serial: float) -> date:
    """The date of an Excel serial day number (1900 date system)."""
    return EXCEL_EPOCH + timedelta(days=int(serial))


def read_first_sheet(data: bytes) -> list[list[str]]:
    """The cells of the workbook's first sheet as text, row by row (missing cells empty)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise XlsxError("not an XLSX file (not a zip archive)") from None
    names = set(archive.namelist())
    ns = {"m": _MAIN}
    try:
        book = ElementTree.fromstring(archive.read("xl/workbook.xml"))
        first = book.find("m:sheets/m:sheet", ns)
        rel_id = None if first is None else first.get(f"{{{_REL}}}id")
        rels = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
        target = next(r.get("Target", "") for r in rels if r.get("Id") == rel_id)
        path = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
        shared: list[str] = []
        if "xl/sharedStrings.xml" in names:
            strings = ElementTree.fromstring(archive.read("xl/sharedStrings.xml"))
            shared = ["".join(t.text or "" for t in si.iter(f"{{{_MAIN}}}t"))
                      for si in strings.findall("m:si", ns)]
        sheet = ElementTree.fromstring(archive.read(path))
    except (KeyError, StopIteration, ElementTree.ParseError):
        raise XlsxError("not an XLSX workbook (no readable first sheet)") from None
    table: dict[int, dict[int, str]] = {}
    for cell in sheet.iter(f"{{{_MAIN}}}c"):
        match = _REF.match(cell.get("r", ""))
        if match is None:
            continue
        column = 0
        for letter in match.group(1):
            column = column * 26 + ord(letter) - 64
        kind, value = cell.get("t"), cell.find("m:v", ns)
        if kind == "inlineStr":
            text = "".join(t.text or "" for t in cell.iter(f"{{{_MAIN}}}t"))
        elif value is None or value.text is None:
            text = ""
        elif kind == "s":
            text = shared[int(value.text)]
        else:
            text = value.text
        table.setdefault(int(match.group(2)), {})[column - 1] = text
    if not table:
        return []
    width = max(max(cells) for cells in table.values()) + 1
    return [[table.get(r, {}).get(c, "") for c in range(width)]
            for r in range(1, max(table) + 1)]
