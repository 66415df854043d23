-- Notebook view (notebooks/finance_reconciliation.ipynb): the reconciliation runs, latest
-- first, with the property code: what each run found (missing) and posted, per status.
CREATE OR REPLACE VIEW recon.v_runs AS
SELECT r.*, p.code AS property_code
FROM recon.runs r JOIN core.property p USING (property_id);
COMMENT ON VIEW recon.v_runs IS 'recon.runs with the property code: counts and expected amounts per status of every run.';
