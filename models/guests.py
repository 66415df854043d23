"""The guest archive: Guest records and GuestInput."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from .common import PartyKind, Resource

CountryCode = Annotated[str, Field(pattern=r"^[A-Z]{2}$")]
"""ISO 3166-1 alpha-2, upper case."""


class Guest(Resource):
    model_config = ConfigDict(extra="allow")  # spec: "Extra fields may be present."

    id: int
    kind: PartyKind
    display_name: str
    first_name: str | None = None
    last_name: str | None = None
    company_name: str | None = None
    gender: str | None = None
    birth_date: date | None = None
    birth_place: str | None = None
    birth_country: str | None = None
    nationality: str | None = None
    address: str | None = None
    zip: str | None = None
    city: str | None = None
    province: str | None = None
    country_code: str | None = None
    email: str | None = None
    phone: str | None = None
    mobile: str | None = None
    language: str | None = None
    doc_type: str | None = None
    doc_number: str | None = None
    doc_issued_by: str | None = None
    doc_issued_on: date | None = None
    doc_expires_on: date | None = None
    tax_code: str | None = None
    vat_number: str | None = None
    notes: str | None = None


class GuestInput(BaseModel):
    """Create and update body. Every field optional; extra fields accepted (spec, GuestInput)."""

    model_config = ConfigDict(extra="allow")

    kind: PartyKind | None = None
    title: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    company_name: str | None = None
    gender: Literal["M", "F"] | None = None
    birth_date: date | None = None
    birth_place: str | None = None
    birth_country: CountryCode | None = None
    nationality: CountryCode | None = None
    address: str | None = None
    zip: str | None = None
    city: str | None = None
    province: str | None = None
    country_code: CountryCode | None = None
    email: str | None = None
    phone: str | None = None
    mobile: str | None = None
    pec: str | None = None
    language: str | None = None
    doc_type: str | None = None
    doc_number: str | None = None
    doc_issued_by: str | None = None
    doc_issued_on: date | None = None
    doc_expires_on: date | None = None
    doc_issue_country: CountryCode | None = None
    tax_code: str | None = None
    vat_number: str | None = None
    sdi_code: str | None = None
    vat_chargeability: Literal["I", "D", "S"] | None = None
    notes: str | None = None


class StayGuestAdd(BaseModel):
    """Body of POST /reservations/{id}/rooms/{rid}/guests: an archive guest or a new one."""

    # Exactly one of the two (the document says so; the route refuses anything else with 400).
    model_config = ConfigDict(extra="forbid", json_schema_extra={"oneOf": [
        {"required": ["guest_id"], "properties": {"guest_id": {"type": "integer"}}},
        {"required": ["guest"], "properties": {"guest": {"type": "object"}}}]})

    guest_id: int | None = None
    guest: GuestInput | None = None
    is_main: bool = False
