-- Notebook view: the current picture of each expected charge, from the latest run that
-- covered it (recon.results keeps every run as the audit trail).
CREATE OR REPLACE VIEW recon.v_current AS
SELECT r.*, p.code AS property_code, u.mode
FROM recon.results r
JOIN recon.runs u USING (run_id)
JOIN core.property p ON p.property_id = r.property_id
QUALIFY row_number() OVER (PARTITION BY r.property_id, r.key ORDER BY r.run_id DESC) = 1;
COMMENT ON VIEW recon.v_current IS 'Each expected charge as its latest reconciliation run left it (status, amounts, reason): blocked items to act on, amounts by item and day.';
