-- Finance worklist (issue 16): why a charge is not simply matched, as a code a person can
-- filter on, and the resolutions people record for the charges that cannot be posted.
-- Written by pipelines/reconcile (reason_code) and `pmsw reconcile resolve` (resolutions);
-- read through the view recon.v_worklist (sql/views/22_recon_worklist.sql).
ALTER TABLE recon.results ADD COLUMN reason_code VARCHAR;
COMMENT ON COLUMN recon.results.reason_code IS 'Why the charge is not matched, as a code: folio_closed, folio_suspended, no_folio (no folio of the room entry is known), stay_cancelled, stay_unknown, item_unknown, amount_mismatch, reported_only (a room night not reposted), post_failed (see error_code), resolved (a person resolved it: not posted again); NULL for matched, posted and missing charges apply posts. Rows written before migration 0013 have NULL.';

CREATE TABLE recon.resolutions (
    resolution_id BIGINT NOT NULL,
    property_id BIGINT NOT NULL,
    key VARCHAR NOT NULL,
    state VARCHAR NOT NULL,
    note VARCHAR NOT NULL,
    resolved_by VARCHAR NOT NULL,
    resolved_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (resolution_id)
);
COMMENT ON TABLE recon.resolutions IS 'What a person decided about a charge that cannot be posted (blocked, failed, amount_mismatch), appended by `pmsw reconcile resolve ITEM --as STATE --note TEXT`; never updated or deleted. The latest row of a key is its current state (recon.v_worklist); a charge resolved in any state but open is never posted by a later apply run.';
COMMENT ON COLUMN recon.resolutions.resolution_id IS 'Resolution number, increasing across the warehouse: the largest of a key is its current state.';
COMMENT ON COLUMN recon.resolutions.property_id IS 'Property of the charge.';
COMMENT ON COLUMN recon.resolutions.key IS 'The charge (recon.results.key, stable across runs).';
COMMENT ON COLUMN recon.resolutions.state IS 'open (back on the list), invoiced_separately (charged on another document), credited (a credit note cancels it), written_off (lost), not_due (the charge was not owed).';
COMMENT ON COLUMN recon.resolutions.note IS 'What the person did or why (free text, required).';
COMMENT ON COLUMN recon.resolutions.resolved_by IS 'Who recorded it (--by, default the login name of the shell).';
COMMENT ON COLUMN recon.resolutions.resolved_at IS 'When it was recorded, warehouse clock (operational, not data).';
