-- The read copy (issue 15; docs/operations.md, "Reading while syncing"): what each published
-- copy holds, and which run last built each mart of a property.
CREATE TABLE meta.mart_builds (
    property_id BIGINT NOT NULL,
    mart VARCHAR NOT NULL,
    run_id VARCHAR NOT NULL,
    built_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (property_id, mart)
);
COMMENT ON TABLE meta.mart_builds IS 'Last build of each mart of each property: the run that replaced its rows. Written in the same transaction as the rows.';
COMMENT ON COLUMN meta.mart_builds.property_id IS 'Property the mart rows belong to.';
COMMENT ON COLUMN meta.mart_builds.mart IS 'Mart table name without the schema, e.g. occupancy_daily.';
COMMENT ON COLUMN meta.mart_builds.run_id IS 'Run that built it (the Dagster run id, or the demo''s run id).';
COMMENT ON COLUMN meta.mart_builds.built_at IS 'When it was built, machine clock (operational, not data).';

CREATE TABLE meta.published (
    published_at TIMESTAMPTZ NOT NULL,
    property_id BIGINT NOT NULL,
    part VARCHAR NOT NULL,
    run_id VARCHAR,
    status VARCHAR,
    finished_at TIMESTAMPTZ,
    PRIMARY KEY (property_id, part)
);
COMMENT ON TABLE meta.published IS 'What the read copy holds: per property, the last run of each stream, of the marts and of the reconciliation, and when the copy was published. Filled at each publish, so the read copy carries the state it was published from; readers (pmsw report, pmsw warehouse info) read it there.';
COMMENT ON COLUMN meta.published.published_at IS 'When this read copy was published, machine clock (the same on every row of a copy).';
COMMENT ON COLUMN meta.published.property_id IS 'Property.';
COMMENT ON COLUMN meta.published.part IS 'A stream (reservations, events, folios, reference, availability, pos_ledger), marts, or reconciliation.';
COMMENT ON COLUMN meta.published.run_id IS 'The last run of that part held by the copy: meta.sync_runs.run_id for a stream, meta.mart_builds.run_id for the marts (the run of the oldest mart built), recon.runs.run_id for the reconciliation.';
COMMENT ON COLUMN meta.published.status IS 'Status of that run: a stream''s meta.sync_runs.status, built for the marts, the mode (dry_run, apply) of a reconciliation.';
COMMENT ON COLUMN meta.published.finished_at IS 'When that run ended, machine clock.';
