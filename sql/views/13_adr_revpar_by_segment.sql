-- Notebook view: ADR and RevPAR by month of stay for two dimensions. channel: the revenue of
-- its nights sold over its rooms sold (ADR, fees apart) and its room revenue with fees over ALL
-- the hotel's rooms available (RevPAR contribution: the channels add up to the hotel's RevPAR).
-- room_type: the type's own supply (occupancy by room type, the assigned room's type).
-- Half-up to the cent in exact decimals (mart.money_ratio, as the marts): a division rounded
-- as a DOUBLE gave 37.46 for 46,456.60 / 1,240 = 37.465.
CREATE OR REPLACE VIEW mart.v_adr_revpar_by_segment AS
WITH supply AS (
    SELECT property_id, CAST(date_trunc('month', stay_date) AS DATE) AS month,
           CAST(sum(rooms_available) AS BIGINT) AS rooms_available
    FROM mart.occupancy_daily GROUP BY ALL),
channel AS (
    SELECT property_id, CAST(date_trunc('month', stay_date) AS DATE) AS month,
           coalesce(channel, '(none)') AS segment, CAST(sum(rooms_sold) AS BIGINT) AS rooms_sold,
           sum(room_revenue_net) AS room_revenue_net,
           sum(room_revenue_nights_net) AS room_revenue_nights_net
    FROM mart.segment_daily GROUP BY ALL),
room_type AS (
    SELECT o.property_id, CAST(date_trunc('month', o.stay_date) AS DATE) AS month,
           coalesce(rt.code, CAST(o.room_type_id AS VARCHAR)) AS segment,
           CAST(sum(o.rooms_sold) AS BIGINT) AS rooms_sold,
           sum(o.room_revenue_net) AS room_revenue_net,
           sum(o.room_revenue_nights_net) AS room_revenue_nights_net,
           CAST(sum(o.rooms_available) AS BIGINT) AS rooms_available
    FROM mart.occupancy_by_room_type o
    LEFT JOIN core.room_types rt USING (property_id, room_type_id) GROUP BY ALL)
SELECT c.property_id, p.code AS property_code, c.month, 'channel' AS dimension, c.segment,
       c.rooms_sold, c.room_revenue_net, s.rooms_available,
       mart.money_ratio(c.room_revenue_nights_net, c.rooms_sold) AS adr_net,
       mart.money_ratio(c.room_revenue_net, s.rooms_available) AS revpar_net
FROM channel c JOIN supply s USING (property_id, month) JOIN core.property p USING (property_id)
UNION ALL
SELECT r.property_id, p.code, r.month, 'room_type', r.segment, r.rooms_sold,
       r.room_revenue_net, r.rooms_available,
       mart.money_ratio(r.room_revenue_nights_net, r.rooms_sold),
       mart.money_ratio(r.room_revenue_net, r.rooms_available)
FROM room_type r JOIN core.property p USING (property_id);
COMMENT ON VIEW mart.v_adr_revpar_by_segment IS 'ADR (of the nights sold) and RevPAR (room revenue with fees) (net) by month of stay per channel (RevPAR over the hotel''s supply: a contribution) and per room type (over the type''s own supply).';
