-- Marts that grow with change, not history (issue 18, item 5; docs/scaling.md, "Marts against
-- history and change"): what each snapshot mart of a property was last computed from, so that
-- a rebuild computes only the snapshots from the first day whose inputs changed.
CREATE TABLE meta.mart_inputs (
    property_id BIGINT NOT NULL,
    mart VARCHAR NOT NULL,
    day DATE NOT NULL,
    digest UBIGINT NOT NULL,
    PRIMARY KEY (property_id, mart, day)
);
COMMENT ON TABLE meta.mart_inputs IS 'What the stored rows of a snapshot mart (otb_snapshots, pickup, pace) of a property were computed from: one digest per day of inputs (book changes dated that day, the snapshot dates, settings and code folded in). Written in the same transaction as the rows; a rebuild computes the snapshots from the first day whose digest differs.';
COMMENT ON COLUMN meta.mart_inputs.property_id IS 'Property the mart rows belong to.';
COMMENT ON COLUMN meta.mart_inputs.mart IS 'Mart table name without the schema: otb_snapshots, pickup or pace.';
COMMENT ON COLUMN meta.mart_inputs.day IS 'Local date of the inputs: the snapshots from it on depend on them.';
COMMENT ON COLUMN meta.mart_inputs.digest IS 'Wrapping sum of the hashes of that day''s inputs (pipelines/transforms/snapshot_inputs.py); operational, not data.';
ALTER TABLE meta.mart_builds ADD COLUMN rows BIGINT;
COMMENT ON COLUMN meta.mart_builds.rows IS 'The property''s rows of the mart after that build; a snapshot mart whose stored rows no longer number this is rebuilt whole. Null for builds before migration 0020.';
