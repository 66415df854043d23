-- Quarantine (issue 15, item 8; docs/ingestion.md, "Quarantine"): a record of the API that does
-- not match the model is kept here with the error instead of stopping its stream; every later
-- run re-fetches it by id and releases it once it validates.
CREATE TABLE meta.quarantine (
    property_id BIGINT NOT NULL,
    stream VARCHAR NOT NULL,
    record_key VARCHAR NOT NULL,
    record_id BIGINT,
    payload JSON NOT NULL,
    error VARCHAR NOT NULL,
    field VARCHAR NOT NULL,
    quarantined_at TIMESTAMPTZ NOT NULL,
    quarantined_run_id VARCHAR NOT NULL,
    last_tried_at TIMESTAMPTZ NOT NULL,
    last_run_id VARCHAR NOT NULL,
    tries INTEGER NOT NULL,
    released_at TIMESTAMPTZ,
    released_run_id VARCHAR,
    PRIMARY KEY (property_id, stream, record_key)
);
COMMENT ON TABLE meta.quarantine IS 'Records of the API that did not match the model: each kept with its payload as received and the validation error, while the rest of its stream lands. Every later run re-fetches the open ones by id (GET /reservations/{id}) and releases each once it validates (released_at set, the record landed in the same transaction). A record quarantined again after its release reopens its row.';
COMMENT ON COLUMN meta.quarantine.property_id IS 'Property the record came from.';
COMMENT ON COLUMN meta.quarantine.stream IS 'Stream that read it (reservations).';
COMMENT ON COLUMN meta.quarantine.record_key IS 'The record''s id as text, or sha256:<hash of the payload> for a record without a usable id (never re-fetched: released by hand).';
COMMENT ON COLUMN meta.quarantine.record_id IS 'The API id of the record (reservation id); NULL when the payload has no integer id.';
COMMENT ON COLUMN meta.quarantine.payload IS 'The record as last received (JSON). May hold personal data, like the raw schema.';
COMMENT ON COLUMN meta.quarantine.error IS 'The last validation error: the request and the field at fault, e.g. GET /reservations: record 12 does not match Reservation: field arrival: Field required.';
COMMENT ON COLUMN meta.quarantine.field IS 'The field at fault, relative to the record (arrival, rooms[0].status).';
COMMENT ON COLUMN meta.quarantine.quarantined_at IS 'Server time (fetched_at) when it was quarantined (again, after a release).';
COMMENT ON COLUMN meta.quarantine.quarantined_run_id IS 'Run that quarantined it.';
COMMENT ON COLUMN meta.quarantine.last_tried_at IS 'Server time of the last read of the record, valid or not.';
COMMENT ON COLUMN meta.quarantine.last_run_id IS 'Run that read it last.';
COMMENT ON COLUMN meta.quarantine.tries IS 'Reads of the record that did not validate since it was quarantined.';
COMMENT ON COLUMN meta.quarantine.released_at IS 'Server time when it validated and was landed; NULL while in quarantine.';
COMMENT ON COLUMN meta.quarantine.released_run_id IS 'Run that released it; NULL while in quarantine.';
