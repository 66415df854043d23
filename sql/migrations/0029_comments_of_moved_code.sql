-- The code moved into domain packages (issue 47): the comments that name a source file
-- name its new place.
COMMENT ON TABLE mart.departments IS 'The departments of revenue, one row each: written from pipelines/vocabulary/departments.py DEPARTMENTS (the one definition the marts, reports, views and notebooks use) every time the views are applied. Join it rather than spelling a department.';
COMMENT ON COLUMN meta.mart_inputs.digest IS 'Wrapping sum of the hashes of that day''s inputs (pipelines/marts/logic/snapshot_inputs.py); operational, not data.';
COMMENT ON COLUMN recon.runs.rules IS 'The rules config the run used for the property (JSON of pipelines/recon/logic config).';
