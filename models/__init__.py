"""Pydantic v2 models of the PMS public API v1: the contract of the sandbox and the pipeline."""

from .availability import (
    Availability,
    AvailabilityDay,
    Brackets,
    Quote,
    QuoteNight,
    QuoteRequest,
    TypeAvailability,
)
from .common import (
    STATUS_ORDER,
    Cadence,
    CancelledBy,
    FolioStatus,
    Housekeeping,
    Input,
    ListOf,
    Num,
    Page,
    Party,
    PartyKind,
    RatePlanRef,
    ReservationStatus,
    ReservationType,
    Resource,
    RoomRef,
    Scope,
    Timestamp,
    format_timestamp,
)
from .errors import (
    ErrorBody,
    ErrorCode,
    ErrorDetail,
    NightsToChargeDetail,
    RoomNightsToCharge,
)
from .events import Event, EventBatch, EventType, WebhookPayload
from .folios import ChargeInput, Folio, FolioLine
from .guests import Guest, GuestInput, StayGuestAdd
from .property import (
    AccountInfo,
    AgeBracket,
    Classifications,
    Item,
    KeyInfo,
    Me,
    Property,
    PropertyRef,
    RatePlan,
    RequiredClassifications,
    Room,
    RoomType,
)
from .reservations import (
    AssignRoomInput,
    AssignRoomsInput,
    CancelInput,
    CheckInInput,
    CheckOutOptions,
    FolioRef,
    NewParty,
    OperationResult,
    Reservation,
    ReservationCreate,
    ReservationCreated,
    ReservationPage,
    ReservationPatch,
    ReservationRoom,
    RoomRequest,
    SkippedRoom,
    StayGuest,
    StayPatch,
    Unit,
    UnitGuest,
)
from .webhooks import (
    Webhook,
    WebhookCreated,
    WebhookDelivery,
    WebhookInput,
    WebhookList,
    WebhookPatch,
)

__all__ = [
    "STATUS_ORDER", "AccountInfo", "AgeBracket", "AssignRoomInput", "AssignRoomsInput",
    "Availability", "AvailabilityDay", "Brackets", "Cadence", "CancelInput", "CancelledBy",
    "ChargeInput", "CheckInInput", "CheckOutOptions", "Classifications", "ErrorBody",
    "ErrorCode", "ErrorDetail", "Event", "EventBatch", "EventType", "Folio", "FolioLine",
    "FolioRef", "FolioStatus", "Guest", "GuestInput", "Housekeeping", "Input", "Item",
    "KeyInfo", "ListOf", "Me", "NewParty", "NightsToChargeDetail", "Num", "OperationResult",
    "Page", "Party", "PartyKind", "Property", "PropertyRef", "Quote", "QuoteNight",
    "QuoteRequest", "RatePlan", "RatePlanRef", "RequiredClassifications", "Reservation",
    "ReservationCreate", "ReservationCreated", "ReservationPage", "ReservationPatch",
    "ReservationRoom", "ReservationStatus", "ReservationType", "Resource", "Room",
    "RoomNightsToCharge", "RoomRef", "RoomRequest", "RoomType", "Scope", "SkippedRoom",
    "StayGuest", "StayGuestAdd", "StayPatch", "Timestamp", "TypeAvailability", "Unit",
    "UnitGuest", "Webhook", "WebhookCreated", "WebhookDelivery", "WebhookInput",
    "WebhookList", "WebhookPatch", "WebhookPayload", "format_timestamp",
]
