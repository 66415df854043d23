-- Created by pipelines/warehouse/migrate.py before any numbered migration: it records them.
CREATE SCHEMA IF NOT EXISTS meta;
CREATE TABLE IF NOT EXISTS meta.schema_migrations (
    version INTEGER NOT NULL PRIMARY KEY,
    name VARCHAR NOT NULL,
    sha256 VARCHAR NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL
);
COMMENT ON TABLE meta.schema_migrations IS 'Migrations of sql/migrations applied to this warehouse, one row each (the only table without property_id: it describes the warehouse, not a property).';
COMMENT ON COLUMN meta.schema_migrations.version IS 'Number of the migration (the four digits opening its file name).';
COMMENT ON COLUMN meta.schema_migrations.name IS 'File name of the migration.';
COMMENT ON COLUMN meta.schema_migrations.sha256 IS 'SHA-256 of the file when applied; a later change of the file is refused.';
COMMENT ON COLUMN meta.schema_migrations.applied_at IS 'When the migration was applied, warehouse clock (operational, not data).';
