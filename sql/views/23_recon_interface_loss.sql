-- Interface loss (issue 16; docs/reconciliation.md, Interface loss): POS ticket lines that
-- the POS interface never delivered to a folio, per property, business date and item, over
-- every reconciliation run (a line is lost when any run found it not on its folio: missing,
-- blocked, failed, or posted by an apply run). A line is still open when the latest run left
-- it missing, blocked or failed and finance has not resolved it (recon.v_latest_resolution,
-- the worklist's definition).
CREATE OR REPLACE VIEW recon.v_interface_loss AS
WITH per_line AS (
    SELECT property_id, key, any_value(business_date) AS business_date,
           any_value(item_code) AS item_code,
           arg_max(expected_amount, run_id) AS amount,
           arg_max(status, run_id) AS latest_status,
           bool_or(status IN ('missing', 'blocked', 'failed', 'posted')) AS lost,
           bool_or(status = 'posted') AS recovered
      FROM recon.results WHERE source = 'pos' GROUP BY property_id, key
), still_open AS (
    SELECT l.*, l.latest_status IN ('missing', 'blocked', 'failed')
                AND NOT coalesce(r.is_resolved, false) AS is_open
      FROM per_line l LEFT JOIN recon.v_latest_resolution r
        ON r.property_id = l.property_id AND r.key = l.key
)
SELECT l.property_id, p.code AS property_code, l.business_date, l.item_code,
       count(*) AS ticket_lines, sum(l.amount) AS amount,
       count(*) FILTER (WHERE l.lost) AS lost_lines,
       coalesce(sum(l.amount) FILTER (WHERE l.lost), 0) AS lost_amount,
       count(*) FILTER (WHERE l.recovered) AS recovered_lines,
       coalesce(sum(l.amount) FILTER (WHERE l.recovered), 0) AS recovered_amount,
       count(*) FILTER (WHERE l.is_open) AS open_lines,
       coalesce(sum(l.amount) FILTER (WHERE l.is_open), 0) AS open_amount
  FROM still_open l JOIN core.property p ON p.property_id = l.property_id
 GROUP BY ALL;
COMMENT ON VIEW recon.v_interface_loss IS 'POS ticket lines per property, business date and item over the reconciled dates: lines and amount, lost by the interface (any run found them off the folio), recovered (posted by an apply run), still open (latest run: missing, blocked or failed, and not resolved by finance: recon.v_latest_resolution).';
