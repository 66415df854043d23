-- Answers: over the last 30 nights lived, which room types filled best and at what ADR and
-- RevPAR (net of VAT; occupancy net of out-of-order rooms, ADR of the nights sold, fees apart,
-- RevPAR with fees over the rooms in the property: docs/kpi.md)?
SELECT r.property_id, t.code AS room_type,
       sum(r.rooms_sold) AS rooms_sold,
       round(100 * sum(r.rooms_sold) / nullif(sum(r.rooms_available_net_ooo), 0), 2)
           AS occupancy_net_ooo_pct,
       mart.money_ratio(sum(r.room_revenue_nights_net), sum(r.rooms_sold)) AS adr_net,
       mart.money_ratio(sum(r.room_revenue_net), sum(r.rooms_available)) AS revpar_net
FROM mart.occupancy_by_room_type r
JOIN core.property p ON p.property_id = r.property_id
JOIN core.room_types t ON t.property_id = r.property_id AND t.room_type_id = r.room_type_id
WHERE r.is_actual AND r.stay_date >= p.business_date - 30
GROUP BY ALL
ORDER BY r.property_id, room_type;
