-- Issue 51: no write in proportion to the warehouse's size. DuckDB extends a keyed table's last
-- row group on append and rewrites it whole at the checkpoint, where a table without a key
-- takes the append into a new row group; the core tables below each sat in one row group, so
-- each day's change rewrote them whole (docs/scaling.md, "The floor"). As 0044 did for five
-- tables, each core table written through the writing path's difference
-- (pipelines/warehouse/difference.py, which refuses rows holding a key twice or the key of a
-- stored row it does not replace) is recreated without its PRIMARY KEY, its columns, types,
-- NOT NULLs and comments kept. Kept keyed: core.guests (the stay guests' upsert, ON CONFLICT
-- (property_id, guest_id), needs it) and core.reservation_room_versions (written by its own
-- UPDATE / DELETE / INSERT, not by difference: its key is still DuckDB's to keep).
-- core.reservations: key (property_id, reservation_id), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE core.reservations_0045 (
    "property_id" BIGINT NOT NULL,
    "reservation_id" BIGINT NOT NULL,
    "arrival" DATE NOT NULL,
    "departure" DATE NOT NULL,
    "nights" INTEGER NOT NULL,
    "status" VARCHAR NOT NULL,
    "reservation_type" VARCHAR NOT NULL,
    "booker_id" BIGINT,
    "booker_kind" VARCHAR,
    "booker_name" VARCHAR,
    "booker_email" VARCHAR,
    "booker_phone" VARCHAR,
    "billing_party_id" BIGINT,
    "billing_party_kind" VARCHAR,
    "billing_party_name" VARCHAR,
    "booker_reference" VARCHAR,
    "booking_code" VARCHAR,
    "external_ref" VARCHAR,
    "channel" VARCHAR,
    "source" VARCHAR,
    "market" VARCHAR,
    "group_name" VARCHAR,
    "notes" VARCHAR,
    "voucher" VARCHAR,
    "option_expires_on" DATE,
    "rooms_count" INTEGER NOT NULL,
    "total" DECIMAL(12,2) NOT NULL,
    "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
    "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
    "last_seen_run" VARCHAR NOT NULL,
    "fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL
);
INSERT INTO core.reservations_0045 SELECT * FROM core.reservations;
DROP TABLE core.reservations;
ALTER TABLE core.reservations_0045 RENAME TO reservations;
COMMENT ON TABLE core.reservations IS 'Reservation heads, current state (GET /reservations), booker and billing party flattened. A row is replaced only by a state with an updated_at at least as recent.';
COMMENT ON COLUMN core.reservations."property_id" IS 'Property id.';
COMMENT ON COLUMN core.reservations."reservation_id" IS 'Reservation id.';
COMMENT ON COLUMN core.reservations."arrival" IS 'First arrival among the rooms.';
COMMENT ON COLUMN core.reservations."departure" IS 'Last departure among the rooms (exclusive: the morning the guests leave).';
COMMENT ON COLUMN core.reservations."nights" IS 'departure - arrival, in nights.';
COMMENT ON COLUMN core.reservations."status" IS 'option, confirmed, checked_in, checked_out or cancelled: the least advanced status among the rooms not cancelled.';
COMMENT ON COLUMN core.reservations."reservation_type" IS 'individual, group or allotment (API field type).';
COMMENT ON COLUMN core.reservations."booker_id" IS 'Party (guest archive id) who booked; NULL when none.';
COMMENT ON COLUMN core.reservations."booker_kind" IS 'private, company or agency.';
COMMENT ON COLUMN core.reservations."booker_name" IS 'Name of the booker.';
COMMENT ON COLUMN core.reservations."booker_email" IS 'E-mail of the booker.';
COMMENT ON COLUMN core.reservations."booker_phone" IS 'Phone of the booker.';
COMMENT ON COLUMN core.reservations."billing_party_id" IS 'Party the reservation is billed to; NULL when none.';
COMMENT ON COLUMN core.reservations."billing_party_kind" IS 'private, company or agency.';
COMMENT ON COLUMN core.reservations."billing_party_name" IS 'Name of the billing party.';
COMMENT ON COLUMN core.reservations."booker_reference" IS 'Booker''s own reference.';
COMMENT ON COLUMN core.reservations."booking_code" IS 'Code of the booking on the channel.';
COMMENT ON COLUMN core.reservations."external_ref" IS 'Client''s own id, unique for the property (empty when none).';
COMMENT ON COLUMN core.reservations."channel" IS 'Channel: where the booking was made (value of core.classifications).';
COMMENT ON COLUMN core.reservations."source" IS 'Source: which relationship brought the booking.';
COMMENT ON COLUMN core.reservations."market" IS 'Market segment: why the guest travels.';
COMMENT ON COLUMN core.reservations."group_name" IS 'Group name (empty when none).';
COMMENT ON COLUMN core.reservations."notes" IS 'Free notes.';
COMMENT ON COLUMN core.reservations."voucher" IS 'Voucher number.';
COMMENT ON COLUMN core.reservations."option_expires_on" IS 'Date an option lapses; NULL when not an option.';
COMMENT ON COLUMN core.reservations."rooms_count" IS 'Room entries of the reservation, cancelled ones included.';
COMMENT ON COLUMN core.reservations."total" IS 'Total of the reservation, VAT included.';
COMMENT ON COLUMN core.reservations."created_at" IS 'When the reservation was made (server time).';
COMMENT ON COLUMN core.reservations."updated_at" IS 'Latest change of the head or any room (server time); the reservations cursor is the largest value landed.';
COMMENT ON COLUMN core.reservations."last_seen_run" IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.reservations."fetched_at" IS 'Server time (HTTP Date) of the fetch that last changed the row.';

-- core.reservation_rooms: key (property_id, reservation_room_id), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE core.reservation_rooms_0045 (
    "property_id" BIGINT NOT NULL,
    "reservation_room_id" BIGINT NOT NULL,
    "reservation_id" BIGINT NOT NULL,
    "status" VARCHAR NOT NULL,
    "arrival" DATE NOT NULL,
    "departure" DATE NOT NULL,
    "nights" INTEGER NOT NULL,
    "arrival_time" VARCHAR,
    "adults" INTEGER NOT NULL,
    "brackets" JSON NOT NULL,
    "children" INTEGER NOT NULL,
    "room_type_id" BIGINT NOT NULL,
    "room_type_code" VARCHAR NOT NULL,
    "room_id" BIGINT,
    "room_code" VARCHAR,
    "rate_plan_id" BIGINT,
    "rate_plan_code" VARCHAR,
    "rate_plan_name" VARCHAR,
    "offer_id" BIGINT,
    "discount_pct" DECIMAL(7,4) NOT NULL,
    "price_override" DECIMAL(12,2),
    "option_expires_on" DATE,
    "cancelled_by" VARCHAR,
    "checked_in_at" TIMESTAMP WITH TIME ZONE,
    "checked_out_at" TIMESTAMP WITH TIME ZONE,
    "notes" VARCHAR,
    "total" DECIMAL(12,2) NOT NULL,
    "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
    "reservation_type" VARCHAR NOT NULL,
    "channel" VARCHAR,
    "source" VARCHAR,
    "market" VARCHAR,
    "group_name" VARCHAR,
    "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
    "last_seen_run" VARCHAR NOT NULL,
    "fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL
);
INSERT INTO core.reservation_rooms_0045 SELECT * FROM core.reservation_rooms;
DROP TABLE core.reservation_rooms;
ALTER TABLE core.reservation_rooms_0045 RENAME TO reservation_rooms;
COMMENT ON TABLE core.reservation_rooms IS 'Room entries of reservations (stays), current state, one row per rooms[].id, with the head''s type, channel, source, market, group and created_at copied in. Replaced together with their head.';
COMMENT ON COLUMN core.reservation_rooms."property_id" IS 'Property id.';
COMMENT ON COLUMN core.reservation_rooms."reservation_room_id" IS 'Room entry id (rooms[].id of the reservation), not the physical room.';
COMMENT ON COLUMN core.reservation_rooms."reservation_id" IS 'Reservation (core.reservations) the entry belongs to.';
COMMENT ON COLUMN core.reservation_rooms."status" IS 'option, confirmed, checked_in, checked_out or cancelled.';
COMMENT ON COLUMN core.reservation_rooms."arrival" IS 'Arrival date (first night).';
COMMENT ON COLUMN core.reservation_rooms."departure" IS 'Departure date, exclusive (last night is departure - 1).';
COMMENT ON COLUMN core.reservation_rooms."nights" IS 'departure - arrival.';
COMMENT ON COLUMN core.reservation_rooms."arrival_time" IS 'Expected arrival time HH:MM (empty when not given).';
COMMENT ON COLUMN core.reservation_rooms."adults" IS 'Adults in the room.';
COMMENT ON COLUMN core.reservation_rooms."brackets" IS 'Children by age bracket: JSON object from age_bracket_id (as a string key, ascending) to count, e.g. {"2":1}. {} when none.';
COMMENT ON COLUMN core.reservation_rooms."children" IS 'Children in the room, all brackets (sum of brackets). Persons = adults + children of brackets whose counts_as_person is true (core.age_brackets).';
COMMENT ON COLUMN core.reservation_rooms."room_type_id" IS 'Room type booked (the requested type).';
COMMENT ON COLUMN core.reservation_rooms."room_type_code" IS 'Code of the room type booked.';
COMMENT ON COLUMN core.reservation_rooms."room_id" IS 'Physical room assigned; NULL until assigned.';
COMMENT ON COLUMN core.reservation_rooms."room_code" IS 'Number of the room assigned; NULL until assigned.';
COMMENT ON COLUMN core.reservation_rooms."rate_plan_id" IS 'Rate plan; NULL when none.';
COMMENT ON COLUMN core.reservation_rooms."rate_plan_code" IS 'Code of the rate plan.';
COMMENT ON COLUMN core.reservation_rooms."rate_plan_name" IS 'Name of the rate plan.';
COMMENT ON COLUMN core.reservation_rooms."offer_id" IS 'Offer applied; NULL when none.';
COMMENT ON COLUMN core.reservation_rooms."discount_pct" IS 'Discount on the price, percent.';
COMMENT ON COLUMN core.reservation_rooms."price_override" IS 'Fixed nightly price replacing the grid; NULL when none.';
COMMENT ON COLUMN core.reservation_rooms."option_expires_on" IS 'Date the option lapses; NULL when not an option.';
COMMENT ON COLUMN core.reservation_rooms."cancelled_by" IS 'guest or hotel once cancelled; NULL otherwise.';
COMMENT ON COLUMN core.reservation_rooms."checked_in_at" IS 'When the room was checked in; NULL before.';
COMMENT ON COLUMN core.reservation_rooms."checked_out_at" IS 'When the room was checked out; NULL before.';
COMMENT ON COLUMN core.reservation_rooms."notes" IS 'Free notes of the room entry.';
COMMENT ON COLUMN core.reservation_rooms."total" IS 'Total of the stay, VAT included.';
COMMENT ON COLUMN core.reservation_rooms."updated_at" IS 'Latest change of the room entry (server time).';
COMMENT ON COLUMN core.reservation_rooms."reservation_type" IS 'Type of the reservation: individual, group or allotment.';
COMMENT ON COLUMN core.reservation_rooms."channel" IS 'Channel of the reservation.';
COMMENT ON COLUMN core.reservation_rooms."source" IS 'Source of the reservation.';
COMMENT ON COLUMN core.reservation_rooms."market" IS 'Market segment of the reservation.';
COMMENT ON COLUMN core.reservation_rooms."group_name" IS 'Group name of the reservation.';
COMMENT ON COLUMN core.reservation_rooms."created_at" IS 'When the reservation was made (server time); lead time = arrival - created_at.';
COMMENT ON COLUMN core.reservation_rooms."last_seen_run" IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.reservation_rooms."fetched_at" IS 'Server time (HTTP Date) of the fetch that last changed the row.';

-- core.stay_guests: key (property_id, stay_guest_id), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE core.stay_guests_0045 (
    "property_id" BIGINT NOT NULL,
    "stay_guest_id" BIGINT NOT NULL,
    "reservation_room_id" BIGINT NOT NULL,
    "reservation_id" BIGINT NOT NULL,
    "guest_id" BIGINT NOT NULL,
    "is_main" BOOLEAN NOT NULL,
    "name" VARCHAR NOT NULL,
    "first_name" VARCHAR,
    "last_name" VARCHAR,
    "email" VARCHAR,
    "nationality" VARCHAR,
    "birth_date" DATE,
    "last_seen_run" VARCHAR NOT NULL,
    "fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL
);
INSERT INTO core.stay_guests_0045 SELECT * FROM core.stay_guests;
DROP TABLE core.stay_guests;
ALTER TABLE core.stay_guests_0045 RENAME TO stay_guests;
COMMENT ON TABLE core.stay_guests IS 'Guests placed in room entries (GET /reservations/{id}: rooms[].guests), current state. The guests of a room are replaced whenever a state carrying them is landed; list answers without guests leave them alone.';
COMMENT ON COLUMN core.stay_guests."property_id" IS 'Property id.';
COMMENT ON COLUMN core.stay_guests."stay_guest_id" IS 'Placement id (StayGuest id): the guest in this room entry.';
COMMENT ON COLUMN core.stay_guests."reservation_room_id" IS 'Room entry the guest is placed in.';
COMMENT ON COLUMN core.stay_guests."reservation_id" IS 'Reservation of the room entry.';
COMMENT ON COLUMN core.stay_guests."guest_id" IS 'Guest in the archive (core.guests).';
COMMENT ON COLUMN core.stay_guests."is_main" IS 'True for the main guest of the room.';
COMMENT ON COLUMN core.stay_guests."name" IS 'Display name of the guest.';
COMMENT ON COLUMN core.stay_guests."first_name" IS 'First name; NULL when unknown.';
COMMENT ON COLUMN core.stay_guests."last_name" IS 'Last name; NULL when unknown.';
COMMENT ON COLUMN core.stay_guests."email" IS 'E-mail; NULL when unknown.';
COMMENT ON COLUMN core.stay_guests."nationality" IS 'Nationality, ISO 3166-1 alpha-2; NULL when unknown.';
COMMENT ON COLUMN core.stay_guests."birth_date" IS 'Birth date; NULL when unknown.';
COMMENT ON COLUMN core.stay_guests."last_seen_run" IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.stay_guests."fetched_at" IS 'Server time (HTTP Date) of the fetch that last changed the row.';

-- core.folios: key (property_id, folio_id), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE core.folios_0045 (
    "property_id" BIGINT NOT NULL,
    "folio_id" BIGINT NOT NULL,
    "reservation_id" BIGINT,
    "guest_id" BIGINT,
    "guest_name" VARCHAR,
    "description" VARCHAR,
    "status" VARCHAR NOT NULL,
    "document" VARCHAR,
    "issue_date" DATE,
    "prices_include_vat" BOOLEAN NOT NULL,
    "charges" DECIMAL(12,2) NOT NULL,
    "payments" DECIMAL(12,2) NOT NULL,
    "balance" DECIMAL(12,2) NOT NULL,
    "last_seen_run" VARCHAR NOT NULL,
    "fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL
);
INSERT INTO core.folios_0045 SELECT * FROM core.folios;
DROP TABLE core.folios;
ALTER TABLE core.folios_0045 RENAME TO folios;
COMMENT ON TABLE core.folios IS 'Folios (guest accounts) of reservations, current state (GET /reservations/{id}/folios, GET /folios/{id}). A folio and its lines are replaced together by every fetch of it; a closed folio is final.';
COMMENT ON COLUMN core.folios."property_id" IS 'Property id.';
COMMENT ON COLUMN core.folios."folio_id" IS 'Folio id.';
COMMENT ON COLUMN core.folios."reservation_id" IS 'Reservation of the folio; NULL for a folio without one.';
COMMENT ON COLUMN core.folios."guest_id" IS 'Holder of the folio (guest archive id); NULL when none.';
COMMENT ON COLUMN core.folios."guest_name" IS 'Name of the holder.';
COMMENT ON COLUMN core.folios."description" IS 'Description of the folio.';
COMMENT ON COLUMN core.folios."status" IS 'open, suspended or closed.';
COMMENT ON COLUMN core.folios."document" IS 'Number of the fiscal document issued at closing; NULL while not closed.';
COMMENT ON COLUMN core.folios."issue_date" IS 'Date the document was issued; NULL while not closed.';
COMMENT ON COLUMN core.folios."prices_include_vat" IS 'True when line totals include VAT (the usual case); decides how folio_lines amount_net and amount_gross are derived.';
COMMENT ON COLUMN core.folios."charges" IS 'Sum of the lines that are not payments.';
COMMENT ON COLUMN core.folios."payments" IS 'Sum of the payment lines.';
COMMENT ON COLUMN core.folios."balance" IS 'charges - payments.';
COMMENT ON COLUMN core.folios."last_seen_run" IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.folios."fetched_at" IS 'Server time (HTTP Date) of the fetch that last changed the row.';

-- core.availability: key (property_id, snapshot_date, stay_date, room_type_id), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE core.availability_0045 (
    "property_id" BIGINT NOT NULL,
    "snapshot_date" DATE NOT NULL,
    "stay_date" DATE NOT NULL,
    "room_type_id" BIGINT NOT NULL,
    "room_type_code" VARCHAR NOT NULL,
    "total" INTEGER NOT NULL,
    "occupied" INTEGER NOT NULL,
    "out_of_order" INTEGER NOT NULL,
    "available" INTEGER NOT NULL,
    "run_id" VARCHAR NOT NULL,
    "fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL
);
INSERT INTO core.availability_0045 SELECT * FROM core.availability;
DROP TABLE core.availability;
ALTER TABLE core.availability_0045 RENAME TO availability;
COMMENT ON TABLE core.availability IS 'Availability by room type and night (GET /availability) as read on each business date. A later read on the same business date replaces the earlier one for the nights it covers.';
COMMENT ON COLUMN core.availability."property_id" IS 'Property id.';
COMMENT ON COLUMN core.availability."snapshot_date" IS 'Business date of the property when the availability was read.';
COMMENT ON COLUMN core.availability."stay_date" IS 'Night the figures are for.';
COMMENT ON COLUMN core.availability."room_type_id" IS 'Room type.';
COMMENT ON COLUMN core.availability."room_type_code" IS 'Code of the room type.';
COMMENT ON COLUMN core.availability."total" IS 'Rooms of the type on sale.';
COMMENT ON COLUMN core.availability."occupied" IS 'Stays on the night (counted on the type of the assigned room, or the requested type when none is assigned).';
COMMENT ON COLUMN core.availability."out_of_order" IS 'Rooms of the type out of order on the night.';
COMMENT ON COLUMN core.availability."available" IS 'total - occupied - out_of_order as the API computes it (negative when overbooked).';
COMMENT ON COLUMN core.availability."run_id" IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.availability."fetched_at" IS 'Server time (HTTP Date) of the fetch that last changed the row.';

-- core.property: key (property_id), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE core.property_0045 (
    "property_id" BIGINT NOT NULL,
    "code" VARCHAR NOT NULL,
    "name" VARCHAR NOT NULL,
    "legal_name" VARCHAR,
    "activity" VARCHAR,
    "address" VARCHAR,
    "zip" VARCHAR,
    "city" VARCHAR,
    "province" VARCHAR,
    "country" VARCHAR,
    "phone" VARCHAR,
    "email" VARCHAR,
    "website" VARCHAR,
    "star_rating" VARCHAR,
    "latitude" DECIMAL(10,7),
    "longitude" DECIMAL(10,7),
    "currency" VARCHAR NOT NULL,
    "timezone" VARCHAR NOT NULL,
    "check_in_time" VARCHAR,
    "check_out_time" VARCHAR,
    "business_date" DATE NOT NULL,
    "last_seen_run" VARCHAR NOT NULL,
    "fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL
);
INSERT INTO core.property_0045 SELECT * FROM core.property;
DROP TABLE core.property;
ALTER TABLE core.property_0045 RENAME TO property;
COMMENT ON TABLE core.property IS 'The property (GET /property), one row per property, replaced every sync.';
COMMENT ON COLUMN core.property."property_id" IS 'Property id.';
COMMENT ON COLUMN core.property."code" IS 'Short code of the property.';
COMMENT ON COLUMN core.property."name" IS 'Commercial name.';
COMMENT ON COLUMN core.property."legal_name" IS 'Legal name of the company running it.';
COMMENT ON COLUMN core.property."activity" IS 'Free text kind of activity (hotel, b&b, apartments).';
COMMENT ON COLUMN core.property."address" IS 'Street address.';
COMMENT ON COLUMN core.property."zip" IS 'Postal code.';
COMMENT ON COLUMN core.property."city" IS 'City.';
COMMENT ON COLUMN core.property."province" IS 'Province or region code.';
COMMENT ON COLUMN core.property."country" IS 'Country, ISO 3166-1 alpha-2.';
COMMENT ON COLUMN core.property."phone" IS 'Phone number.';
COMMENT ON COLUMN core.property."email" IS 'Contact e-mail.';
COMMENT ON COLUMN core.property."website" IS 'Web site.';
COMMENT ON COLUMN core.property."star_rating" IS 'Star rating as text (city tax rates depend on it).';
COMMENT ON COLUMN core.property."latitude" IS 'Latitude in degrees; NULL when unknown.';
COMMENT ON COLUMN core.property."longitude" IS 'Longitude in degrees; NULL when unknown.';
COMMENT ON COLUMN core.property."currency" IS 'Currency code of every amount of the property.';
COMMENT ON COLUMN core.property."timezone" IS 'Time zone name of the property (IANA).';
COMMENT ON COLUMN core.property."check_in_time" IS 'Standard check-in time, HH:MM local.';
COMMENT ON COLUMN core.property."check_out_time" IS 'Standard check-out time, HH:MM local.';
COMMENT ON COLUMN core.property."business_date" IS 'Working date of the front desk when fetched: the day after the last night audit. The pipeline''s notion of today.';
COMMENT ON COLUMN core.property."last_seen_run" IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.property."fetched_at" IS 'Server time (HTTP Date) of the fetch that last changed the row.';

-- core.room_types: key (property_id, room_type_id), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE core.room_types_0045 (
    "property_id" BIGINT NOT NULL,
    "room_type_id" BIGINT NOT NULL,
    "code" VARCHAR NOT NULL,
    "name" VARCHAR NOT NULL,
    "channel_code" VARCHAR,
    "max_pax" INTEGER NOT NULL,
    "rooms" INTEGER NOT NULL,
    "last_seen_run" VARCHAR NOT NULL,
    "fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL
);
INSERT INTO core.room_types_0045 SELECT * FROM core.room_types;
DROP TABLE core.room_types;
ALTER TABLE core.room_types_0045 RENAME TO room_types;
COMMENT ON TABLE core.room_types IS 'Room types on sale (GET /room-types; virtual types are not listed by the API), replaced per property every sync.';
COMMENT ON COLUMN core.room_types."property_id" IS 'Property id.';
COMMENT ON COLUMN core.room_types."room_type_id" IS 'Room type id.';
COMMENT ON COLUMN core.room_types."code" IS 'Room type code (STD, SUP, ...).';
COMMENT ON COLUMN core.room_types."name" IS 'Room type name.';
COMMENT ON COLUMN core.room_types."channel_code" IS 'Code of the type on sales channels.';
COMMENT ON COLUMN core.room_types."max_pax" IS 'Maximum persons in a room of the type.';
COMMENT ON COLUMN core.room_types."rooms" IS 'Rooms of the type on sale.';
COMMENT ON COLUMN core.room_types."last_seen_run" IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.room_types."fetched_at" IS 'Server time (HTTP Date) of the fetch that last changed the row.';

-- core.rooms: key (property_id, room_id), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE core.rooms_0045 (
    "property_id" BIGINT NOT NULL,
    "room_id" BIGINT NOT NULL,
    "code" VARCHAR NOT NULL,
    "name" VARCHAR,
    "room_type_id" BIGINT NOT NULL,
    "floor" VARCHAR,
    "extra_beds" INTEGER NOT NULL,
    "housekeeping" VARCHAR NOT NULL,
    "sellable" BOOLEAN NOT NULL,
    "last_seen_run" VARCHAR NOT NULL,
    "fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL
);
INSERT INTO core.rooms_0045 SELECT * FROM core.rooms;
DROP TABLE core.rooms;
ALTER TABLE core.rooms_0045 RENAME TO rooms;
COMMENT ON TABLE core.rooms IS 'Physical rooms (GET /rooms), replaced per property every sync.';
COMMENT ON COLUMN core.rooms."property_id" IS 'Property id.';
COMMENT ON COLUMN core.rooms."room_id" IS 'Room id (the physical room).';
COMMENT ON COLUMN core.rooms."code" IS 'Room number as shown to guests; folio lines and the POS ledger refer to rooms by it.';
COMMENT ON COLUMN core.rooms."name" IS 'Room name.';
COMMENT ON COLUMN core.rooms."room_type_id" IS 'Room type of the room (core.room_types).';
COMMENT ON COLUMN core.rooms."floor" IS 'Floor; NULL when unknown.';
COMMENT ON COLUMN core.rooms."extra_beds" IS 'Extra beds the room can take.';
COMMENT ON COLUMN core.rooms."housekeeping" IS 'Housekeeping state when fetched: clean, dirty or inspected.';
COMMENT ON COLUMN core.rooms."sellable" IS 'False when the room is kept out of availability.';
COMMENT ON COLUMN core.rooms."last_seen_run" IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.rooms."fetched_at" IS 'Server time (HTTP Date) of the fetch that last changed the row.';

-- core.rate_plans: key (property_id, rate_plan_id), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE core.rate_plans_0045 (
    "property_id" BIGINT NOT NULL,
    "rate_plan_id" BIGINT NOT NULL,
    "code" VARCHAR NOT NULL,
    "name" VARCHAR NOT NULL,
    "discount_pct" DECIMAL(7,4) NOT NULL,
    "is_default" BOOLEAN NOT NULL,
    "per_person" BOOLEAN NOT NULL,
    "cadence" VARCHAR NOT NULL,
    "last_seen_run" VARCHAR NOT NULL,
    "fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL
);
INSERT INTO core.rate_plans_0045 SELECT * FROM core.rate_plans;
DROP TABLE core.rate_plans;
ALTER TABLE core.rate_plans_0045 RENAME TO rate_plans;
COMMENT ON TABLE core.rate_plans IS 'Active rate plans (GET /rate-plans; negotiated contract plans are not listed by the API, so stays may refer to plans absent here), replaced per property every sync.';
COMMENT ON COLUMN core.rate_plans."property_id" IS 'Property id.';
COMMENT ON COLUMN core.rate_plans."rate_plan_id" IS 'Rate plan id.';
COMMENT ON COLUMN core.rate_plans."code" IS 'Rate plan code.';
COMMENT ON COLUMN core.rate_plans."name" IS 'Rate plan name.';
COMMENT ON COLUMN core.rate_plans."discount_pct" IS 'Discount of the plan on the price grid, percent.';
COMMENT ON COLUMN core.rate_plans."is_default" IS 'True for the plan used when a booking names none.';
COMMENT ON COLUMN core.rate_plans."per_person" IS 'True when the plan prices per person.';
COMMENT ON COLUMN core.rate_plans."cadence" IS 'How the room charge is posted: daily, weekly, monthly or month_start.';
COMMENT ON COLUMN core.rate_plans."last_seen_run" IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.rate_plans."fetched_at" IS 'Server time (HTTP Date) of the fetch that last changed the row.';

-- core.age_brackets: key (property_id, age_bracket_id), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE core.age_brackets_0045 (
    "property_id" BIGINT NOT NULL,
    "age_bracket_id" BIGINT NOT NULL,
    "code" VARCHAR NOT NULL,
    "name" VARCHAR NOT NULL,
    "age_from" INTEGER,
    "age_to" INTEGER,
    "counts_as_person" BOOLEAN NOT NULL,
    "last_seen_run" VARCHAR NOT NULL,
    "fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL
);
INSERT INTO core.age_brackets_0045 SELECT * FROM core.age_brackets;
DROP TABLE core.age_brackets;
ALTER TABLE core.age_brackets_0045 RENAME TO age_brackets;
COMMENT ON TABLE core.age_brackets IS 'Age brackets of children (GET /age-brackets); the keys of the brackets maps of stays. Replaced per property every sync.';
COMMENT ON COLUMN core.age_brackets."property_id" IS 'Property id.';
COMMENT ON COLUMN core.age_brackets."age_bracket_id" IS 'Age bracket id (key of reservation_rooms.brackets).';
COMMENT ON COLUMN core.age_brackets."code" IS 'Bracket code.';
COMMENT ON COLUMN core.age_brackets."name" IS 'Bracket name.';
COMMENT ON COLUMN core.age_brackets."age_from" IS 'Lowest age in the bracket, inclusive; NULL when open.';
COMMENT ON COLUMN core.age_brackets."age_to" IS 'Highest age in the bracket, inclusive; NULL when open.';
COMMENT ON COLUMN core.age_brackets."counts_as_person" IS 'True when a child of the bracket counts as a person (persons = adults + children of such brackets).';
COMMENT ON COLUMN core.age_brackets."last_seen_run" IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.age_brackets."fetched_at" IS 'Server time (HTTP Date) of the fetch that last changed the row.';

-- core.items: key (property_id, item_id), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE core.items_0045 (
    "property_id" BIGINT NOT NULL,
    "item_id" BIGINT NOT NULL,
    "code" VARCHAR NOT NULL,
    "name" VARCHAR NOT NULL,
    "department" VARCHAR NOT NULL,
    "kind" VARCHAR NOT NULL,
    "price" DECIMAL(12,2) NOT NULL,
    "tax_pct" DECIMAL(7,4) NOT NULL,
    "last_seen_run" VARCHAR NOT NULL,
    "fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL
);
INSERT INTO core.items_0045 SELECT * FROM core.items;
DROP TABLE core.items;
ALTER TABLE core.items_0045 RENAME TO items;
COMMENT ON TABLE core.items IS 'Chargeable items (GET /items): the service_item_id of folio lines and the item_code of the POS ledger. Replaced per property every sync.';
COMMENT ON COLUMN core.items."property_id" IS 'Property id.';
COMMENT ON COLUMN core.items."item_id" IS 'Item id (folio_lines.service_item_id).';
COMMENT ON COLUMN core.items."code" IS 'Item code (pos_ledger.item_code).';
COMMENT ON COLUMN core.items."name" IS 'Item name.';
COMMENT ON COLUMN core.items."department" IS 'Department the item belongs to (accommodation, food and beverage, ...).';
COMMENT ON COLUMN core.items."kind" IS 'Kind of item as the PMS names it.';
COMMENT ON COLUMN core.items."price" IS 'List price, VAT included unless the folio says otherwise.';
COMMENT ON COLUMN core.items."tax_pct" IS 'VAT rate, percent (0 for city tax, outside VAT).';
COMMENT ON COLUMN core.items."last_seen_run" IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.items."fetched_at" IS 'Server time (HTTP Date) of the fetch that last changed the row.';

-- core.classifications: key (property_id, kind, value), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE core.classifications_0045 (
    "property_id" BIGINT NOT NULL,
    "kind" VARCHAR NOT NULL,
    "value" VARCHAR NOT NULL,
    "required" BOOLEAN NOT NULL,
    "last_seen_run" VARCHAR NOT NULL,
    "fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL
);
INSERT INTO core.classifications_0045 SELECT * FROM core.classifications;
DROP TABLE core.classifications;
ALTER TABLE core.classifications_0045 RENAME TO classifications;
COMMENT ON TABLE core.classifications IS 'Allowed reservation classifications (GET /classifications), one row per kind and value. Replaced per property every sync.';
COMMENT ON COLUMN core.classifications."property_id" IS 'Property id.';
COMMENT ON COLUMN core.classifications."kind" IS 'source, channel or market.';
COMMENT ON COLUMN core.classifications."value" IS 'An allowed value of the kind.';
COMMENT ON COLUMN core.classifications."required" IS 'True when the property makes this kind mandatory on reservations (same for every value of the kind).';
COMMENT ON COLUMN core.classifications."last_seen_run" IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.classifications."fetched_at" IS 'Server time (HTTP Date) of the fetch that last changed the row.';
