-- Pickup of the last 7 days as of the current business date, per stay date ahead, beside
-- what is on the books now: new, cancelled and net room nights, net revenue.
CREATE OR REPLACE VIEW mart.v_pickup_last_7_days AS
SELECT o.property_id, o.snapshot_date AS as_of_date, o.stay_date,
       o.rooms_otb, o.revenue_otb_net, o.rooms_option,
       coalesce(p.rooms_new, 0) AS rooms_new_7d,
       coalesce(p.rooms_cancelled, 0) AS rooms_cancelled_7d,
       coalesce(p.rooms_net, 0) AS rooms_net_7d,
       coalesce(p.revenue_net, 0) AS revenue_net_7d
FROM mart.otb_snapshots o
JOIN core.property cp ON cp.property_id = o.property_id AND o.snapshot_date = cp.business_date
LEFT JOIN mart.pickup p
  ON p.property_id = o.property_id AND p.as_of_date = o.snapshot_date
 AND p.stay_date = o.stay_date AND p.window_days = 7;
COMMENT ON VIEW mart.v_pickup_last_7_days IS 'Pickup of the last 7 days as of the current business date (the open day, partial), per stay date ahead, beside what is on the books now: new, cancelled and net room nights and net revenue.';
