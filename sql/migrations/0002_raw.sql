-- Payloads exactly as the API sent them, append-only: the warehouse can always be rebuilt from here.
CREATE TABLE raw.payloads (
    property_id BIGINT NOT NULL,
    stream VARCHAR NOT NULL,
    entity_id BIGINT,
    payload JSON NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    run_id VARCHAR NOT NULL
);
COMMENT ON TABLE raw.payloads IS 'API payloads as fetched, one row per record received (a reservation, a folio, an event, a room type, ...), append-only. A re-fetch appends again; core.* holds the deduplicated state.';
COMMENT ON COLUMN raw.payloads.property_id IS 'Property whose key fetched the payload.';
COMMENT ON COLUMN raw.payloads.stream IS 'Endpoint family: property, room_types, rooms, rate_plans, age_brackets, items, classifications, reservations, folios, events, availability, guests.';
COMMENT ON COLUMN raw.payloads.entity_id IS 'The record''s id field (reservation id, folio id, event id, room type id, ...); NULL for records without one (property-wide classifications).';
COMMENT ON COLUMN raw.payloads.payload IS 'The JSON object of the record as received.';
COMMENT ON COLUMN raw.payloads.fetched_at IS 'Server time of the fetch: the HTTP Date header of the response that carried the record (never the machine clock).';
COMMENT ON COLUMN raw.payloads.run_id IS 'Run that landed the payload.';
