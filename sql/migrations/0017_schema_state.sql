-- What the schema of this warehouse was last brought up to: a fingerprint of the migrations,
-- the analyst views and the departments the code ships. connect() compares it with the code's
-- and migrates and replaces the views only when they differ, so opening an up-to-date
-- warehouse writes nothing (a Dagster run opens it once per asset and check).
CREATE TABLE meta.schema_state (
    fingerprint VARCHAR NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);
COMMENT ON TABLE meta.schema_state IS 'One row: the fingerprint (sha256) of the migrations, sql/views and departments the warehouse was last brought up to by pipelines.warehouse.connect(). Holds no data of a property.';
COMMENT ON COLUMN meta.schema_state.fingerprint IS 'sha256 over every migration file name and hash, every view file name and text, and the departments written to mart.departments.';
COMMENT ON COLUMN meta.schema_state.updated_at IS 'When the schema was last brought up to this fingerprint (the warehouse machine clock).';
