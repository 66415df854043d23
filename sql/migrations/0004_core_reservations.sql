-- Reservations: current state of heads and room entries, the history of room entries, stay guests.
CREATE TABLE core.reservations (
    property_id BIGINT NOT NULL,
    reservation_id BIGINT NOT NULL,
    arrival DATE NOT NULL,
    departure DATE NOT NULL,
    nights INTEGER NOT NULL,
    status VARCHAR NOT NULL,
    reservation_type VARCHAR NOT NULL,
    booker_id BIGINT,
    booker_kind VARCHAR,
    booker_name VARCHAR,
    booker_email VARCHAR,
    booker_phone VARCHAR,
    billing_party_id BIGINT,
    billing_party_kind VARCHAR,
    billing_party_name VARCHAR,
    booker_reference VARCHAR,
    booking_code VARCHAR,
    external_ref VARCHAR,
    channel VARCHAR,
    source VARCHAR,
    market VARCHAR,
    group_name VARCHAR,
    notes VARCHAR,
    voucher VARCHAR,
    option_expires_on DATE,
    rooms_count INTEGER NOT NULL,
    total DECIMAL(12,2) NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    last_seen_run VARCHAR NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (property_id, reservation_id)
);
COMMENT ON TABLE core.reservations IS 'Reservation heads, current state (GET /reservations), booker and billing party flattened. A row is replaced only by a state with an updated_at at least as recent.';
COMMENT ON COLUMN core.reservations.property_id IS 'Property id.';
COMMENT ON COLUMN core.reservations.reservation_id IS 'Reservation id.';
COMMENT ON COLUMN core.reservations.arrival IS 'First arrival among the rooms.';
COMMENT ON COLUMN core.reservations.departure IS 'Last departure among the rooms (exclusive: the morning the guests leave).';
COMMENT ON COLUMN core.reservations.nights IS 'departure - arrival, in nights.';
COMMENT ON COLUMN core.reservations.status IS 'option, confirmed, checked_in, checked_out or cancelled: the least advanced status among the rooms not cancelled.';
COMMENT ON COLUMN core.reservations.reservation_type IS 'individual, group or allotment (API field type).';
COMMENT ON COLUMN core.reservations.booker_id IS 'Party (guest archive id) who booked; NULL when none.';
COMMENT ON COLUMN core.reservations.booker_kind IS 'private, company or agency.';
COMMENT ON COLUMN core.reservations.booker_name IS 'Name of the booker.';
COMMENT ON COLUMN core.reservations.booker_email IS 'E-mail of the booker.';
COMMENT ON COLUMN core.reservations.booker_phone IS 'Phone of the booker.';
COMMENT ON COLUMN core.reservations.billing_party_id IS 'Party the reservation is billed to; NULL when none.';
COMMENT ON COLUMN core.reservations.billing_party_kind IS 'private, company or agency.';
COMMENT ON COLUMN core.reservations.billing_party_name IS 'Name of the billing party.';
COMMENT ON COLUMN core.reservations.booker_reference IS 'Booker''s own reference.';
COMMENT ON COLUMN core.reservations.booking_code IS 'Code of the booking on the channel.';
COMMENT ON COLUMN core.reservations.external_ref IS 'Client''s own id, unique for the property (empty when none).';
COMMENT ON COLUMN core.reservations.channel IS 'Channel: where the booking was made (value of core.classifications).';
COMMENT ON COLUMN core.reservations.source IS 'Source: which relationship brought the booking.';
COMMENT ON COLUMN core.reservations.market IS 'Market segment: why the guest travels.';
COMMENT ON COLUMN core.reservations.group_name IS 'Group name (empty when none).';
COMMENT ON COLUMN core.reservations.notes IS 'Free notes.';
COMMENT ON COLUMN core.reservations.voucher IS 'Voucher number.';
COMMENT ON COLUMN core.reservations.option_expires_on IS 'Date an option lapses; NULL when not an option.';
COMMENT ON COLUMN core.reservations.rooms_count IS 'Room entries of the reservation, cancelled ones included.';
COMMENT ON COLUMN core.reservations.total IS 'Total of the reservation, VAT included.';
COMMENT ON COLUMN core.reservations.created_at IS 'When the reservation was made (server time).';
COMMENT ON COLUMN core.reservations.updated_at IS 'Latest change of the head or any room (server time); the reservations cursor is the largest value landed.';
COMMENT ON COLUMN core.reservations.last_seen_run IS 'Run that last landed the row.';
COMMENT ON COLUMN core.reservations.fetched_at IS 'Server time (HTTP Date) of the fetch that landed the row.';

CREATE TABLE core.reservation_rooms (
    property_id BIGINT NOT NULL,
    reservation_room_id BIGINT NOT NULL,
    reservation_id BIGINT NOT NULL,
    status VARCHAR NOT NULL,
    arrival DATE NOT NULL,
    departure DATE NOT NULL,
    nights INTEGER NOT NULL,
    arrival_time VARCHAR,
    adults INTEGER NOT NULL,
    brackets JSON NOT NULL,
    children INTEGER NOT NULL,
    room_type_id BIGINT NOT NULL,
    room_type_code VARCHAR NOT NULL,
    room_id BIGINT,
    room_code VARCHAR,
    rate_plan_id BIGINT,
    rate_plan_code VARCHAR,
    rate_plan_name VARCHAR,
    offer_id BIGINT,
    discount_pct DECIMAL(7,4) NOT NULL,
    price_override DECIMAL(12,2),
    option_expires_on DATE,
    cancelled_by VARCHAR,
    checked_in_at TIMESTAMPTZ,
    checked_out_at TIMESTAMPTZ,
    notes VARCHAR,
    total DECIMAL(12,2) NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    reservation_type VARCHAR NOT NULL,
    channel VARCHAR,
    source VARCHAR,
    market VARCHAR,
    group_name VARCHAR,
    created_at TIMESTAMPTZ NOT NULL,
    last_seen_run VARCHAR NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (property_id, reservation_room_id)
);
COMMENT ON TABLE core.reservation_rooms IS 'Room entries of reservations (stays), current state, one row per rooms[].id, with the head''s type, channel, source, market, group and created_at copied in. Replaced together with their head.';
COMMENT ON COLUMN core.reservation_rooms.property_id IS 'Property id.';
COMMENT ON COLUMN core.reservation_rooms.reservation_room_id IS 'Room entry id (rooms[].id of the reservation), not the physical room.';
COMMENT ON COLUMN core.reservation_rooms.reservation_id IS 'Reservation (core.reservations) the entry belongs to.';
COMMENT ON COLUMN core.reservation_rooms.status IS 'option, confirmed, checked_in, checked_out or cancelled.';
COMMENT ON COLUMN core.reservation_rooms.arrival IS 'Arrival date (first night).';
COMMENT ON COLUMN core.reservation_rooms.departure IS 'Departure date, exclusive (last night is departure - 1).';
COMMENT ON COLUMN core.reservation_rooms.nights IS 'departure - arrival.';
COMMENT ON COLUMN core.reservation_rooms.arrival_time IS 'Expected arrival time HH:MM (empty when not given).';
COMMENT ON COLUMN core.reservation_rooms.adults IS 'Adults in the room.';
COMMENT ON COLUMN core.reservation_rooms.brackets IS 'Children by age bracket: JSON object from age_bracket_id (as a string key, ascending) to count, e.g. {"2":1}. {} when none.';
COMMENT ON COLUMN core.reservation_rooms.children IS 'Children in the room, all brackets (sum of brackets). Persons = adults + children of brackets whose counts_as_person is true (core.age_brackets).';
COMMENT ON COLUMN core.reservation_rooms.room_type_id IS 'Room type booked (the requested type).';
COMMENT ON COLUMN core.reservation_rooms.room_type_code IS 'Code of the room type booked.';
COMMENT ON COLUMN core.reservation_rooms.room_id IS 'Physical room assigned; NULL until assigned.';
COMMENT ON COLUMN core.reservation_rooms.room_code IS 'Number of the room assigned; NULL until assigned.';
COMMENT ON COLUMN core.reservation_rooms.rate_plan_id IS 'Rate plan; NULL when none.';
COMMENT ON COLUMN core.reservation_rooms.rate_plan_code IS 'Code of the rate plan.';
COMMENT ON COLUMN core.reservation_rooms.rate_plan_name IS 'Name of the rate plan.';
COMMENT ON COLUMN core.reservation_rooms.offer_id IS 'Offer applied; NULL when none.';
COMMENT ON COLUMN core.reservation_rooms.discount_pct IS 'Discount on the price, percent.';
COMMENT ON COLUMN core.reservation_rooms.price_override IS 'Fixed nightly price replacing the grid; NULL when none.';
COMMENT ON COLUMN core.reservation_rooms.option_expires_on IS 'Date the option lapses; NULL when not an option.';
COMMENT ON COLUMN core.reservation_rooms.cancelled_by IS 'guest or hotel once cancelled; NULL otherwise.';
COMMENT ON COLUMN core.reservation_rooms.checked_in_at IS 'When the room was checked in; NULL before.';
COMMENT ON COLUMN core.reservation_rooms.checked_out_at IS 'When the room was checked out; NULL before.';
COMMENT ON COLUMN core.reservation_rooms.notes IS 'Free notes of the room entry.';
COMMENT ON COLUMN core.reservation_rooms.total IS 'Total of the stay, VAT included.';
COMMENT ON COLUMN core.reservation_rooms.updated_at IS 'Latest change of the room entry (server time).';
COMMENT ON COLUMN core.reservation_rooms.reservation_type IS 'Type of the reservation: individual, group or allotment.';
COMMENT ON COLUMN core.reservation_rooms.channel IS 'Channel of the reservation.';
COMMENT ON COLUMN core.reservation_rooms.source IS 'Source of the reservation.';
COMMENT ON COLUMN core.reservation_rooms.market IS 'Market segment of the reservation.';
COMMENT ON COLUMN core.reservation_rooms.group_name IS 'Group name of the reservation.';
COMMENT ON COLUMN core.reservation_rooms.created_at IS 'When the reservation was made (server time); lead time = arrival - created_at.';
COMMENT ON COLUMN core.reservation_rooms.last_seen_run IS 'Run that last landed the row.';
COMMENT ON COLUMN core.reservation_rooms.fetched_at IS 'Server time (HTTP Date) of the fetch that landed the row.';

CREATE TABLE core.reservation_room_versions (
    property_id BIGINT NOT NULL,
    reservation_room_id BIGINT NOT NULL,
    reservation_id BIGINT NOT NULL,
    valid_from TIMESTAMPTZ NOT NULL,
    valid_to TIMESTAMPTZ,
    version_hash VARCHAR NOT NULL,
    status VARCHAR NOT NULL,
    arrival DATE NOT NULL,
    departure DATE NOT NULL,
    nights INTEGER NOT NULL,
    adults INTEGER NOT NULL,
    brackets JSON NOT NULL,
    children INTEGER NOT NULL,
    room_type_id BIGINT NOT NULL,
    room_type_code VARCHAR NOT NULL,
    room_id BIGINT,
    room_code VARCHAR,
    rate_plan_id BIGINT,
    rate_plan_code VARCHAR,
    total DECIMAL(12,2) NOT NULL,
    reservation_type VARCHAR NOT NULL,
    channel VARCHAR,
    source VARCHAR,
    market VARCHAR,
    created_at TIMESTAMPTZ NOT NULL,
    first_seen_run VARCHAR NOT NULL,
    PRIMARY KEY (property_id, reservation_room_id, valid_from)
);
COMMENT ON TABLE core.reservation_room_versions IS 'Every distinct state ever seen of every room entry (SCD type 2), for on-the-books and pickup as of any past moment. A re-fetch of an unchanged state adds nothing; a change closes the current version and opens a new one. Versions of a room never overlap; the current one has valid_to NULL. The first version starts at the first state seen, not at creation: created_at tells when the booking existed before that.';
COMMENT ON COLUMN core.reservation_room_versions.property_id IS 'Property id.';
COMMENT ON COLUMN core.reservation_room_versions.reservation_room_id IS 'Room entry id (core.reservation_rooms).';
COMMENT ON COLUMN core.reservation_room_versions.reservation_id IS 'Reservation of the room entry.';
COMMENT ON COLUMN core.reservation_room_versions.valid_from IS 'Start of the version, inclusive: the room''s updated_at of the state (the head''s updated_at when only a head field tracked here changed).';
COMMENT ON COLUMN core.reservation_room_versions.valid_to IS 'End of the version, exclusive: valid_from of the next version; NULL while current.';
COMMENT ON COLUMN core.reservation_room_versions.version_hash IS 'SHA-256 (hex) of the tracked fields (status, dates, nights, adults, brackets, room type, room, rate plan, total, type, channel, source, market): equal hashes mean the same state.';
COMMENT ON COLUMN core.reservation_room_versions.status IS 'Status of the room in this version.';
COMMENT ON COLUMN core.reservation_room_versions.arrival IS 'Arrival date in this version.';
COMMENT ON COLUMN core.reservation_room_versions.departure IS 'Departure date (exclusive) in this version.';
COMMENT ON COLUMN core.reservation_room_versions.nights IS 'Nights in this version.';
COMMENT ON COLUMN core.reservation_room_versions.adults IS 'Adults in this version.';
COMMENT ON COLUMN core.reservation_room_versions.brackets IS 'Children by age bracket in this version (same JSON form as core.reservation_rooms.brackets).';
COMMENT ON COLUMN core.reservation_room_versions.children IS 'Children in this version, all brackets.';
COMMENT ON COLUMN core.reservation_room_versions.room_type_id IS 'Room type booked in this version.';
COMMENT ON COLUMN core.reservation_room_versions.room_type_code IS 'Code of the room type booked.';
COMMENT ON COLUMN core.reservation_room_versions.room_id IS 'Physical room assigned in this version; NULL when none.';
COMMENT ON COLUMN core.reservation_room_versions.room_code IS 'Number of the room assigned; NULL when none.';
COMMENT ON COLUMN core.reservation_room_versions.rate_plan_id IS 'Rate plan in this version; NULL when none.';
COMMENT ON COLUMN core.reservation_room_versions.rate_plan_code IS 'Code of the rate plan.';
COMMENT ON COLUMN core.reservation_room_versions.total IS 'Total of the stay in this version, VAT included.';
COMMENT ON COLUMN core.reservation_room_versions.reservation_type IS 'Type of the reservation in this version.';
COMMENT ON COLUMN core.reservation_room_versions.channel IS 'Channel of the reservation in this version.';
COMMENT ON COLUMN core.reservation_room_versions.source IS 'Source of the reservation in this version.';
COMMENT ON COLUMN core.reservation_room_versions.market IS 'Market segment of the reservation in this version.';
COMMENT ON COLUMN core.reservation_room_versions.created_at IS 'When the reservation was made (server time); never changes.';
COMMENT ON COLUMN core.reservation_room_versions.first_seen_run IS 'Run that landed this version.';

CREATE TABLE core.stay_guests (
    property_id BIGINT NOT NULL,
    stay_guest_id BIGINT NOT NULL,
    reservation_room_id BIGINT NOT NULL,
    reservation_id BIGINT NOT NULL,
    guest_id BIGINT NOT NULL,
    is_main BOOLEAN NOT NULL,
    name VARCHAR NOT NULL,
    first_name VARCHAR,
    last_name VARCHAR,
    email VARCHAR,
    nationality VARCHAR,
    birth_date DATE,
    last_seen_run VARCHAR NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (property_id, stay_guest_id)
);
COMMENT ON TABLE core.stay_guests IS 'Guests placed in room entries (GET /reservations/{id}: rooms[].guests), current state. The guests of a room are replaced whenever a state carrying them is landed; list answers without guests leave them alone.';
COMMENT ON COLUMN core.stay_guests.property_id IS 'Property id.';
COMMENT ON COLUMN core.stay_guests.stay_guest_id IS 'Placement id (StayGuest id): the guest in this room entry.';
COMMENT ON COLUMN core.stay_guests.reservation_room_id IS 'Room entry the guest is placed in.';
COMMENT ON COLUMN core.stay_guests.reservation_id IS 'Reservation of the room entry.';
COMMENT ON COLUMN core.stay_guests.guest_id IS 'Guest in the archive (core.guests).';
COMMENT ON COLUMN core.stay_guests.is_main IS 'True for the main guest of the room.';
COMMENT ON COLUMN core.stay_guests.name IS 'Display name of the guest.';
COMMENT ON COLUMN core.stay_guests.first_name IS 'First name; NULL when unknown.';
COMMENT ON COLUMN core.stay_guests.last_name IS 'Last name; NULL when unknown.';
COMMENT ON COLUMN core.stay_guests.email IS 'E-mail; NULL when unknown.';
COMMENT ON COLUMN core.stay_guests.nationality IS 'Nationality, ISO 3166-1 alpha-2; NULL when unknown.';
COMMENT ON COLUMN core.stay_guests.birth_date IS 'Birth date; NULL when unknown.';
COMMENT ON COLUMN core.stay_guests.last_seen_run IS 'Run that last landed the row.';
COMMENT ON COLUMN core.stay_guests.fetched_at IS 'Server time (HTTP Date) of the fetch that landed the row.';

CREATE TABLE core.guests (
    property_id BIGINT NOT NULL,
    guest_id BIGINT NOT NULL,
    kind VARCHAR,
    display_name VARCHAR NOT NULL,
    first_name VARCHAR,
    last_name VARCHAR,
    company_name VARCHAR,
    gender VARCHAR,
    birth_date DATE,
    nationality VARCHAR,
    country_code VARCHAR,
    city VARCHAR,
    email VARCHAR,
    language VARCHAR,
    last_seen_run VARCHAR NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (property_id, guest_id)
);
COMMENT ON TABLE core.guests IS 'Guests seen on stays of the property (never a bulk copy of the shared archive). Filled from stay guests; an archive record (GET /guests/{id}) adds the other columns. Identity documents and tax codes are not copied.';
COMMENT ON COLUMN core.guests.property_id IS 'Property on whose stays the guest was seen.';
COMMENT ON COLUMN core.guests.guest_id IS 'Guest id in the archive.';
COMMENT ON COLUMN core.guests.kind IS 'private, company or agency; NULL until the archive record is landed.';
COMMENT ON COLUMN core.guests.display_name IS 'Display name.';
COMMENT ON COLUMN core.guests.first_name IS 'First name; NULL when unknown.';
COMMENT ON COLUMN core.guests.last_name IS 'Last name; NULL when unknown.';
COMMENT ON COLUMN core.guests.company_name IS 'Company name; NULL when unknown.';
COMMENT ON COLUMN core.guests.gender IS 'M or F; NULL when unknown.';
COMMENT ON COLUMN core.guests.birth_date IS 'Birth date; NULL when unknown.';
COMMENT ON COLUMN core.guests.nationality IS 'Nationality, ISO 3166-1 alpha-2; NULL when unknown.';
COMMENT ON COLUMN core.guests.country_code IS 'Country of residence, ISO 3166-1 alpha-2; NULL when unknown.';
COMMENT ON COLUMN core.guests.city IS 'City of residence; NULL when unknown.';
COMMENT ON COLUMN core.guests.email IS 'E-mail; NULL when unknown.';
COMMENT ON COLUMN core.guests.language IS 'Preferred language; NULL when unknown.';
COMMENT ON COLUMN core.guests.last_seen_run IS 'Run that last landed the row.';
COMMENT ON COLUMN core.guests.fetched_at IS 'Server time (HTTP Date) of the fetch that landed the row.';
