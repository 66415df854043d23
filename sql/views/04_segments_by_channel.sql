-- Rooms sold, net room revenue (nights and fees), ADR (of the nights sold) and share of the
-- month's rooms sold by month of stay and channel (mart.segment_daily rolled up over the other
-- dimensions).
CREATE OR REPLACE VIEW mart.v_segments_by_channel AS
WITH by_channel AS (
    SELECT property_id,
           CAST(date_trunc('month', stay_date) AS DATE) AS month,
           coalesce(channel, '(none)') AS channel,
           CAST(sum(rooms_sold) AS BIGINT) AS rooms_sold,
           sum(room_revenue_nights_net) AS room_revenue_nights_net,
           sum(room_revenue_fees_net) AS room_revenue_fees_net,
           sum(room_revenue_net) AS room_revenue_net
    FROM mart.segment_daily
    GROUP BY 1, 2, 3
)
SELECT property_id, month, channel, rooms_sold, room_revenue_net, room_revenue_nights_net,
       room_revenue_fees_net,
       mart.money_ratio(room_revenue_nights_net, rooms_sold) AS adr_net,
       round(100 * rooms_sold
             / nullif(sum(rooms_sold) OVER (PARTITION BY property_id, month), 0), 2)
           AS rooms_share_pct
FROM by_channel;
COMMENT ON VIEW mart.v_segments_by_channel IS 'Rooms sold, net room revenue (nights and fees), ADR of the nights sold and share of the month''s rooms sold, by month of stay and channel.';
