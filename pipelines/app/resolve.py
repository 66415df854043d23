"""Resolving a worklist item from the worklist page: the form's fields handed to the one
path `pmsw reconcile resolve` takes (`pipelines.recon.resolve_item`: append-only, who,
when, note; it waits for the writer like every writer, then publishes the read copy)."""

from __future__ import annotations

from pathlib import Path

from .errors import PageError
from .reads import reading

FIELDS = ("property", "item", "state", "note", "by")


def resolve(warehouse: Path, form: dict[str, str]) -> str:
    """Record the resolution the form asks for; return the property's code. A missing field,
    an unknown property, item or state is a PageError (400/404) and writes nothing."""
    from pipelines.recon import ReconInputError, resolve_item  # the writer's side: on a resolve

    for name in FIELDS:
        if not form.get(name, "").strip():
            raise PageError(400, f"{name} is empty: a resolution needs the property, the item, "
                                 "the state, a note and who resolves it")
    with reading(warehouse, form["property"]) as reader:  # the property, as the pages know it
        code = reader.prop.code
    try:
        resolve_item(warehouse, form["item"], form["state"].strip(), note=form["note"],
                     resolved_by=form["by"], property_code=code)
    except ReconInputError as error:
        raise PageError(400, str(error)) from None
    return code
