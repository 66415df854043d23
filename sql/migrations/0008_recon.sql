-- Folio reconciliation (issue 7): one row per run and one per expected charge per run,
-- written by pipelines/reconcile_run (Dagster job `reconcile`, `pmsw reconcile`).
-- Rules, statuses and keys: docs/reconciliation.md.
CREATE SCHEMA IF NOT EXISTS recon;

CREATE TABLE recon.runs (
    run_id BIGINT NOT NULL,
    property_id BIGINT NOT NULL,
    mode VARCHAR NOT NULL,
    first_date DATE NOT NULL,
    last_date DATE NOT NULL,
    started_at TIMESTAMPTZ NOT NULL,
    finished_at TIMESTAMPTZ NOT NULL,
    expected_count INTEGER NOT NULL,
    expected_amount DECIMAL(14,2) NOT NULL,
    matched_count INTEGER NOT NULL,
    matched_amount DECIMAL(14,2) NOT NULL,
    missing_count INTEGER NOT NULL,
    missing_amount DECIMAL(14,2) NOT NULL,
    posted_count INTEGER NOT NULL,
    posted_amount DECIMAL(14,2) NOT NULL,
    amount_mismatch_count INTEGER NOT NULL,
    amount_mismatch_amount DECIMAL(14,2) NOT NULL,
    blocked_count INTEGER NOT NULL,
    blocked_amount DECIMAL(14,2) NOT NULL,
    failed_count INTEGER NOT NULL,
    failed_amount DECIMAL(14,2) NOT NULL,
    rules JSON NOT NULL,
    PRIMARY KEY (run_id)
);
COMMENT ON TABLE recon.runs IS 'One row per reconciliation run of one property: the business dates it covered, its mode, and the count and expected amount of its charges per status. Written with its results in one transaction at the end of the run.';
COMMENT ON COLUMN recon.runs.run_id IS 'Run number, increasing across the warehouse (1, 2, ...): a later run has a larger id.';
COMMENT ON COLUMN recon.runs.property_id IS 'Property reconciled.';
COMMENT ON COLUMN recon.runs.mode IS 'dry_run (results written, nothing posted) or apply (missing charges posted through POST /folios/{id}/charges).';
COMMENT ON COLUMN recon.runs.first_date IS 'First business date covered, inclusive.';
COMMENT ON COLUMN recon.runs.last_date IS 'Last business date covered, inclusive (always closed by the night audit: before the property''s business date).';
COMMENT ON COLUMN recon.runs.started_at IS 'When the run started, warehouse clock (operational, not data).';
COMMENT ON COLUMN recon.runs.finished_at IS 'When the run wrote its results, warehouse clock (operational, not data).';
COMMENT ON COLUMN recon.runs.expected_count IS 'Expected charges of the run (rows of recon.results).';
COMMENT ON COLUMN recon.runs.expected_amount IS 'Sum of their expected amounts (VAT included; city tax outside VAT).';
COMMENT ON COLUMN recon.runs.matched_count IS 'Charges found on the folio as expected (status matched).';
COMMENT ON COLUMN recon.runs.matched_amount IS 'Expected amount of the matched charges.';
COMMENT ON COLUMN recon.runs.missing_count IS 'Charges not on the folio and not posted by this run (status missing).';
COMMENT ON COLUMN recon.runs.missing_amount IS 'Expected amount of the missing charges.';
COMMENT ON COLUMN recon.runs.posted_count IS 'Charges posted by this run and seen on the folio afterwards (status posted; apply only).';
COMMENT ON COLUMN recon.runs.posted_amount IS 'Expected amount of the posted charges.';
COMMENT ON COLUMN recon.runs.amount_mismatch_count IS 'Charges whose folio line has another quantity or amount (status amount_mismatch).';
COMMENT ON COLUMN recon.runs.amount_mismatch_amount IS 'Expected amount of the mismatched charges.';
COMMENT ON COLUMN recon.runs.blocked_count IS 'Charges that cannot be posted until a person acts (status blocked).';
COMMENT ON COLUMN recon.runs.blocked_amount IS 'Expected amount of the blocked charges.';
COMMENT ON COLUMN recon.runs.failed_count IS 'Charges the API refused or that could not be confirmed (status failed).';
COMMENT ON COLUMN recon.runs.failed_amount IS 'Expected amount of the failed charges.';
COMMENT ON COLUMN recon.runs.rules IS 'The rules config the run used for the property (JSON of pipelines/reconcile config).';

CREATE TABLE recon.results (
    run_id BIGINT NOT NULL,
    property_id BIGINT NOT NULL,
    key VARCHAR NOT NULL,
    source VARCHAR NOT NULL,
    source_ref VARCHAR NOT NULL,
    reservation_id BIGINT,
    reservation_room_id BIGINT NOT NULL,
    folio_id BIGINT,
    item_id BIGINT,
    item_code VARCHAR NOT NULL,
    business_date DATE NOT NULL,
    description VARCHAR NOT NULL,
    quantity DECIMAL(12,3) NOT NULL,
    unit_price DECIMAL(12,2),
    expected_amount DECIMAL(12,2),
    posted_amount DECIMAL(12,2),
    status VARCHAR NOT NULL,
    idempotency_key VARCHAR NOT NULL,
    posted_line_id BIGINT,
    reason VARCHAR,
    error_code VARCHAR,
    PRIMARY KEY (run_id, key)
);
COMMENT ON TABLE recon.results IS 'One row per expected charge per run: what should be on the folio of a room entry for a business date, and what the run found or did. The latest run covering a date is the current picture; earlier runs stay as the audit trail.';
COMMENT ON COLUMN recon.results.run_id IS 'Run (recon.runs).';
COMMENT ON COLUMN recon.results.property_id IS 'Property id.';
COMMENT ON COLUMN recon.results.key IS 'Stable key of the charge: property|reservation room|business date|item code|source reference; the same in every run.';
COMMENT ON COLUMN recon.results.source IS 'Where the expectation comes from: pos (the POS ledger), or a rule: rule:city_tax, rule:breakfast, rule:room_nights.';
COMMENT ON COLUMN recon.results.source_ref IS 'Source reference: the POS ticket and line (T-000123/1), or the rule name.';
COMMENT ON COLUMN recon.results.reservation_id IS 'Reservation of the room entry.';
COMMENT ON COLUMN recon.results.reservation_room_id IS 'Room entry (stay) the charge belongs to.';
COMMENT ON COLUMN recon.results.folio_id IS 'Folio of the line that answers the charge; for a charge not found, the open folio it was (or would be) posted on; NULL when none.';
COMMENT ON COLUMN recon.results.item_id IS 'Item charged (core.items); NULL when the property has no item of the code.';
COMMENT ON COLUMN recon.results.item_code IS 'Item code (CTAX, BRK, ROOM, BAR, ...).';
COMMENT ON COLUMN recon.results.business_date IS 'Business date the charge belongs to (posted_on of its folio line).';
COMMENT ON COLUMN recon.results.description IS 'Description a repost carries (it names the source reference).';
COMMENT ON COLUMN recon.results.quantity IS 'Expected quantity (persons for city tax and breakfast, 1 per room night).';
COMMENT ON COLUMN recon.results.unit_price IS 'Expected unit price (VAT included unless outside VAT); for room nights the stay total split evenly, an estimate.';
COMMENT ON COLUMN recon.results.expected_amount IS 'Expected amount: the ledger total, or quantity x unit price rounded half-up.';
COMMENT ON COLUMN recon.results.posted_amount IS 'Amount of the answering line net of its reversals (matched, amount_mismatch, posted); NULL when none.';
COMMENT ON COLUMN recon.results.status IS 'matched, missing, posted, amount_mismatch, blocked or failed (docs/reconciliation.md, Statuses).';
COMMENT ON COLUMN recon.results.idempotency_key IS 'Idempotency-Key of the repost: recon: + SHA-256 hex of key. Every run posting the charge sends the same one, so it is posted at most once.';
COMMENT ON COLUMN recon.results.posted_line_id IS 'Folio line that answers the charge (matched, amount_mismatch) or that this run posted (posted); NULL otherwise.';
COMMENT ON COLUMN recon.results.reason IS 'Why, for a person: what is blocked and why, what differs, why a post failed; NULL for matched and posted.';
COMMENT ON COLUMN recon.results.error_code IS 'The API error code of a failed post (rule_violation, server_error, connection_error, ...); NULL otherwise.';
