-- Issue 51: no write in proportion to the warehouse's size. The two core tables 0045 left keyed
-- were rewritten whole by each day's append (DuckDB extends a keyed table's last row group and
-- rewrites it at the checkpoint): core.guests and core.reservation_room_versions (3 / 6 / 10
-- blocks at 60 / 365 / 730 days). Both are now written through the writing path's difference
-- (pipelines/warehouse/difference.py: the stay guests' merge and the versions' close / open /
-- replace, pipelines/ingest/store/reservations.py), which refuses rows holding a key twice or
-- the key of a stored row they do not replace; as 0045 did, each is recreated without its
-- PRIMARY KEY, its columns, types, NOT NULLs and comments kept.
-- core.guests: key (property_id, guest_id), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE core.guests_0047 (
    "property_id" BIGINT NOT NULL,
    "guest_id" BIGINT NOT NULL,
    "kind" VARCHAR,
    "display_name" VARCHAR NOT NULL,
    "first_name" VARCHAR,
    "last_name" VARCHAR,
    "company_name" VARCHAR,
    "gender" VARCHAR,
    "birth_date" DATE,
    "nationality" VARCHAR,
    "country_code" VARCHAR,
    "city" VARCHAR,
    "email" VARCHAR,
    "language" VARCHAR,
    "last_seen_run" VARCHAR NOT NULL,
    "fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL
);
INSERT INTO core.guests_0047 SELECT * FROM core.guests;
DROP TABLE core.guests;
ALTER TABLE core.guests_0047 RENAME TO guests;
COMMENT ON TABLE core.guests IS 'Guests seen on stays of the property (never a bulk copy of the shared archive). Filled from stay guests; an archive record (GET /guests/{id}) adds the other columns. Identity documents and tax codes are not copied.';
COMMENT ON COLUMN core.guests."property_id" IS 'Property on whose stays the guest was seen.';
COMMENT ON COLUMN core.guests."guest_id" IS 'Guest id in the archive.';
COMMENT ON COLUMN core.guests."kind" IS 'private, company or agency; NULL until the archive record is landed.';
COMMENT ON COLUMN core.guests."display_name" IS 'Display name.';
COMMENT ON COLUMN core.guests."first_name" IS 'First name; NULL when unknown.';
COMMENT ON COLUMN core.guests."last_name" IS 'Last name; NULL when unknown.';
COMMENT ON COLUMN core.guests."company_name" IS 'Company name; NULL when unknown.';
COMMENT ON COLUMN core.guests."gender" IS 'M or F; NULL when unknown.';
COMMENT ON COLUMN core.guests."birth_date" IS 'Birth date; NULL when unknown.';
COMMENT ON COLUMN core.guests."nationality" IS 'Nationality, ISO 3166-1 alpha-2; NULL when unknown.';
COMMENT ON COLUMN core.guests."country_code" IS 'Country of residence, ISO 3166-1 alpha-2; NULL when unknown.';
COMMENT ON COLUMN core.guests."city" IS 'City of residence; NULL when unknown.';
COMMENT ON COLUMN core.guests."email" IS 'E-mail; NULL when unknown.';
COMMENT ON COLUMN core.guests."language" IS 'Preferred language; NULL when unknown.';
COMMENT ON COLUMN core.guests."last_seen_run" IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.guests."fetched_at" IS 'Server time (HTTP Date) of the fetch that last changed the row.';

-- core.reservation_room_versions: key (property_id, reservation_room_id, valid_from), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE core.reservation_room_versions_0047 (
    "property_id" BIGINT NOT NULL,
    "reservation_room_id" BIGINT NOT NULL,
    "reservation_id" BIGINT NOT NULL,
    "valid_from" TIMESTAMP WITH TIME ZONE NOT NULL,
    "valid_to" TIMESTAMP WITH TIME ZONE,
    "version_hash" VARCHAR NOT NULL,
    "status" VARCHAR NOT NULL,
    "arrival" DATE NOT NULL,
    "departure" DATE NOT NULL,
    "nights" INTEGER NOT NULL,
    "adults" INTEGER NOT NULL,
    "brackets" JSON NOT NULL,
    "children" INTEGER NOT NULL,
    "room_type_id" BIGINT NOT NULL,
    "room_type_code" VARCHAR NOT NULL,
    "room_id" BIGINT,
    "room_code" VARCHAR,
    "rate_plan_id" BIGINT,
    "rate_plan_code" VARCHAR,
    "total" DECIMAL(12,2) NOT NULL,
    "reservation_type" VARCHAR NOT NULL,
    "channel" VARCHAR,
    "source" VARCHAR,
    "market" VARCHAR,
    "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
    "first_seen_run" VARCHAR NOT NULL
);
INSERT INTO core.reservation_room_versions_0047 SELECT * FROM core.reservation_room_versions;
DROP TABLE core.reservation_room_versions;
ALTER TABLE core.reservation_room_versions_0047 RENAME TO reservation_room_versions;
COMMENT ON TABLE core.reservation_room_versions IS 'Every distinct state ever seen of every room entry (SCD type 2), for on-the-books and pickup as of any past moment. A re-fetch of an unchanged state adds nothing; a change closes the current version and opens a new one. Versions of a room never overlap; the current one has valid_to NULL. The first version starts at the first state seen, not at creation: created_at tells when the booking existed before that.';
COMMENT ON COLUMN core.reservation_room_versions."property_id" IS 'Property id.';
COMMENT ON COLUMN core.reservation_room_versions."reservation_room_id" IS 'Room entry id (core.reservation_rooms).';
COMMENT ON COLUMN core.reservation_room_versions."reservation_id" IS 'Reservation of the room entry.';
COMMENT ON COLUMN core.reservation_room_versions."valid_from" IS 'Start of the version, inclusive: the room''s updated_at of the state (the head''s updated_at when only a head field tracked here changed).';
COMMENT ON COLUMN core.reservation_room_versions."valid_to" IS 'End of the version, exclusive: valid_from of the next version; NULL while current.';
COMMENT ON COLUMN core.reservation_room_versions."version_hash" IS 'SHA-256 (hex) of the tracked fields (status, dates, nights, adults, brackets, room type, room, rate plan, total, type, channel, source, market): equal hashes mean the same state.';
COMMENT ON COLUMN core.reservation_room_versions."status" IS 'Status of the room in this version.';
COMMENT ON COLUMN core.reservation_room_versions."arrival" IS 'Arrival date in this version.';
COMMENT ON COLUMN core.reservation_room_versions."departure" IS 'Departure date (exclusive) in this version.';
COMMENT ON COLUMN core.reservation_room_versions."nights" IS 'Nights in this version.';
COMMENT ON COLUMN core.reservation_room_versions."adults" IS 'Adults in this version.';
COMMENT ON COLUMN core.reservation_room_versions."brackets" IS 'Children by age bracket in this version (same JSON form as core.reservation_rooms.brackets).';
COMMENT ON COLUMN core.reservation_room_versions."children" IS 'Children in this version, all brackets.';
COMMENT ON COLUMN core.reservation_room_versions."room_type_id" IS 'Room type booked in this version.';
COMMENT ON COLUMN core.reservation_room_versions."room_type_code" IS 'Code of the room type booked.';
COMMENT ON COLUMN core.reservation_room_versions."room_id" IS 'Physical room assigned in this version; NULL when none.';
COMMENT ON COLUMN core.reservation_room_versions."room_code" IS 'Number of the room assigned; NULL when none.';
COMMENT ON COLUMN core.reservation_room_versions."rate_plan_id" IS 'Rate plan in this version; NULL when none.';
COMMENT ON COLUMN core.reservation_room_versions."rate_plan_code" IS 'Code of the rate plan.';
COMMENT ON COLUMN core.reservation_room_versions."total" IS 'Total of the stay in this version, VAT included.';
COMMENT ON COLUMN core.reservation_room_versions."reservation_type" IS 'Type of the reservation in this version.';
COMMENT ON COLUMN core.reservation_room_versions."channel" IS 'Channel of the reservation in this version.';
COMMENT ON COLUMN core.reservation_room_versions."source" IS 'Source of the reservation in this version.';
COMMENT ON COLUMN core.reservation_room_versions."market" IS 'Market segment of the reservation in this version.';
COMMENT ON COLUMN core.reservation_room_versions."created_at" IS 'When the reservation was made (server time); never changes.';
COMMENT ON COLUMN core.reservation_room_versions."first_seen_run" IS 'Run that landed this version.';
