-- The latest resolution of each charge that cannot be posted (`pmsw reconcile resolve`,
-- append-only recon.resolutions): the one definition of "resolved" that the worklist and the
-- interface loss both read (docs/reconciliation.md, Worklist). A charge is resolved when its
-- latest resolution's state is not `open`.
CREATE OR REPLACE VIEW recon.v_latest_resolution AS
SELECT property_id, key, state, state <> 'open' AS is_resolved, resolved_by, resolved_at,
       note
  FROM recon.resolutions
QUALIFY row_number() OVER (PARTITION BY property_id, key ORDER BY resolution_id DESC) = 1;
COMMENT ON VIEW recon.v_latest_resolution IS 'The latest resolution of each charge (property, key) from recon.resolutions: state, is_resolved (state other than open), who, when, note. The worklist and the interface loss read it.';
