-- Answers: for each of the next 30 nights, how many rooms are on the books now, how many are
-- held in option apart, how full the hotel is (occupancy_pct: rooms sold on the books, not
-- complimentary, over every room of the property, as every report), and how much of it was
-- picked up this week?
SELECT o.property_id, o.stay_date, strftime(o.stay_date, '%a') AS weekday,
       o.rooms_otb, o.rooms_option, o.revenue_otb_net,
       d.rooms_sold, d.rooms_available, d.occupancy_pct,
       v.rooms_net_7d, v.revenue_net_7d
FROM mart.otb_snapshots o
JOIN core.property p ON p.property_id = o.property_id AND o.snapshot_date = p.business_date
LEFT JOIN mart.occupancy_daily d ON d.property_id = o.property_id AND d.stay_date = o.stay_date
LEFT JOIN mart.v_pickup_last_7_days v
  ON v.property_id = o.property_id AND v.stay_date = o.stay_date
WHERE o.stay_date < p.business_date + 30
ORDER BY o.property_id, o.stay_date;
