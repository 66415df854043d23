-- Schemas of the ingestion layer and the bookkeeping tables of the warehouse itself.
-- Conventions (docs/warehouse.md): every timestamp is TIMESTAMPTZ (an instant; the API sends UTC),
-- money is DECIMAL(12,2) in the property's currency, ids are the API's integer ids as BIGINT.
CREATE SCHEMA IF NOT EXISTS raw;
CREATE SCHEMA IF NOT EXISTS core;
CREATE SCHEMA IF NOT EXISTS meta;

CREATE TABLE meta.sync_state (
    property_id BIGINT NOT NULL,
    stream VARCHAR NOT NULL,
    cursor_value VARCHAR,
    cursor_kind VARCHAR NOT NULL,
    updated_at TIMESTAMPTZ,
    run_id VARCHAR,
    full_resync_required BOOLEAN NOT NULL DEFAULT false,
    full_resync_reason VARCHAR,
    PRIMARY KEY (property_id, stream)
);
COMMENT ON TABLE meta.sync_state IS 'Cursor of each stream of each property: where the next incremental sync starts. Written in the same transaction as the rows it covers.';
COMMENT ON COLUMN meta.sync_state.property_id IS 'Property (API key) the cursor belongs to.';
COMMENT ON COLUMN meta.sync_state.stream IS 'Stream name: reservations, events, folios, reference, availability, pos_ledger.';
COMMENT ON COLUMN meta.sync_state.cursor_value IS 'Cursor as text: RFC 3339 UTC timestamp (largest server updated_at landed) for reservations, last event id for events, business date for availability. Never moves backwards except through an explicit reset. NULL before the first sync.';
COMMENT ON COLUMN meta.sync_state.cursor_kind IS 'How to read cursor_value: timestamp, int or date.';
COMMENT ON COLUMN meta.sync_state.updated_at IS 'Server time (fetched_at of the landing) when the cursor was last written.';
COMMENT ON COLUMN meta.sync_state.run_id IS 'Run that last wrote the cursor.';
COMMENT ON COLUMN meta.sync_state.full_resync_required IS 'True when the stream cannot go on incrementally (for example the event cursor fell out of the 30-day log) and a full resync must run.';
COMMENT ON COLUMN meta.sync_state.full_resync_reason IS 'Why a full resync is required; NULL when it is not.';

CREATE TABLE meta.sync_runs (
    run_id VARCHAR NOT NULL,
    property_id BIGINT NOT NULL,
    stream VARCHAR NOT NULL,
    started_at TIMESTAMPTZ NOT NULL,
    ended_at TIMESTAMPTZ,
    calls INTEGER NOT NULL DEFAULT 0,
    "rows" BIGINT NOT NULL DEFAULT 0,
    seconds DOUBLE NOT NULL DEFAULT 0,
    errors INTEGER NOT NULL DEFAULT 0,
    status VARCHAR NOT NULL,
    message VARCHAR,
    PRIMARY KEY (run_id, property_id, stream)
);
COMMENT ON TABLE meta.sync_runs IS 'Run log: one row per run, property and stream, with the API calls made, rows landed and time spent. Operational data: its times are the machine clock.';
COMMENT ON COLUMN meta.sync_runs.run_id IS 'Run id (the Dagster run id, or the id given by pmsw sync).';
COMMENT ON COLUMN meta.sync_runs.property_id IS 'Property synced.';
COMMENT ON COLUMN meta.sync_runs.stream IS 'Stream synced (same names as meta.sync_state.stream).';
COMMENT ON COLUMN meta.sync_runs.started_at IS 'When the stream started, machine clock (operational, not data).';
COMMENT ON COLUMN meta.sync_runs.ended_at IS 'When the stream ended, machine clock; NULL while running or when the run died.';
COMMENT ON COLUMN meta.sync_runs.calls IS 'HTTP calls made to the API, retries included.';
COMMENT ON COLUMN meta.sync_runs."rows" IS 'Records landed (payloads received), changed or not.';
COMMENT ON COLUMN meta.sync_runs.seconds IS 'Wall time of the stream in seconds.';
COMMENT ON COLUMN meta.sync_runs.errors IS 'Errors met (retried or final).';
COMMENT ON COLUMN meta.sync_runs.status IS 'running, success, failed or gap (event cursor out of the log).';
COMMENT ON COLUMN meta.sync_runs.message IS 'Error or gap description; NULL on success. Never holds secrets.';
