-- Notebook view: 7- and 30-day pickup by stay date as of each property's business date (the
-- last snapshot), beside what is on the books. A stay date with no pickup shows 0.
-- <figure>_<W>d: the pickup figure (mart.pickup's rooms_net, revenue_net) over a W-day window,
-- as every surface names it (docs/kpi.md).
-- pickup_7d_is_rebuilt / pickup_30d_is_rebuilt: the window starts before the first business
-- date the warehouse saw and the books before it are rebuilt from history (as
-- mart.pickup.is_rebuilt, also where no row says so because nothing moved).
CREATE OR REPLACE VIEW mart.v_pickup_7_30 AS
WITH observed AS (
    SELECT property_id, min(snapshot_date) FILTER (WHERE NOT is_rebuilt) AS first_observed
    FROM mart.otb_snapshots GROUP BY 1 HAVING bool_or(is_rebuilt))
SELECT o.property_id, p.code AS property_code, o.snapshot_date AS as_of_date, o.stay_date,
       o.rooms_otb,
       coalesce(o.snapshot_date - 7 < ob.first_observed, false) AS pickup_7d_is_rebuilt,
       coalesce(o.snapshot_date - 30 < ob.first_observed, false) AS pickup_30d_is_rebuilt,
       coalesce(w7.rooms_net, 0) AS rooms_net_7d, coalesce(w7.revenue_net, 0)
           AS revenue_net_7d,
       coalesce(w30.rooms_net, 0) AS rooms_net_30d, coalesce(w30.revenue_net, 0)
           AS revenue_net_30d
FROM mart.otb_snapshots o
JOIN core.property p ON p.property_id = o.property_id AND o.snapshot_date = p.business_date
LEFT JOIN observed ob ON ob.property_id = o.property_id
LEFT JOIN mart.pickup w7 ON w7.property_id = o.property_id AND w7.as_of_date = o.snapshot_date
 AND w7.stay_date = o.stay_date AND w7.window_days = 7
LEFT JOIN mart.pickup w30 ON w30.property_id = o.property_id
 AND w30.as_of_date = o.snapshot_date AND w30.stay_date = o.stay_date AND w30.window_days = 30;
COMMENT ON VIEW mart.v_pickup_7_30 IS 'Net room nights and revenue picked up over the last 7 and 30 days per stay date, as of the business date, with rooms on the books: the pickup chart of the revenue manager notebook.';
