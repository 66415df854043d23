-- Occupancy, ADR, RevPAR and TRevPAR by month of stay, per property (weighted: sums of the
-- month, never averages of daily ratios). is_actual_days counts the nights already lived; the
-- month of the business date mixes nights lived (actual: rooms sold, revenue posted) and
-- nights to come (on the books), so both are also shown apart.
CREATE OR REPLACE VIEW mart.v_kpi_by_month AS
SELECT property_id,
       CAST(date_trunc('month', stay_date) AS DATE) AS month,
       count(*) AS days,
       count(*) FILTER (WHERE is_actual) AS is_actual_days,
       CAST(sum(rooms_available) AS BIGINT) AS rooms_available,
       CAST(sum(rooms_available_net_ooo) AS BIGINT) AS rooms_available_net_ooo,
       CAST(sum(rooms_sold) AS BIGINT) AS rooms_sold,
       CAST(coalesce(sum(rooms_sold) FILTER (WHERE is_actual), 0) AS BIGINT)
           AS rooms_sold_actual,
       CAST(coalesce(sum(rooms_sold) FILTER (WHERE NOT is_actual), 0) AS BIGINT)
           AS rooms_sold_otb,
       CAST(sum(rooms_complimentary) AS BIGINT) AS rooms_complimentary,
       round(100 * sum(rooms_sold) / nullif(sum(rooms_available), 0), 2) AS occupancy_pct,
       round(100 * sum(rooms_sold) / nullif(sum(rooms_available_net_ooo), 0), 2)
           AS occupancy_net_ooo_pct,
       sum(room_revenue_net) AS room_revenue_net,
       coalesce(sum(room_revenue_net) FILTER (WHERE is_actual), 0) AS room_revenue_net_actual,
       coalesce(sum(room_revenue_net) FILTER (WHERE NOT is_actual), 0) AS room_revenue_net_otb,
       mart.money_ratio(sum(room_revenue_nights_net), sum(rooms_sold)) AS adr_net,
       mart.money_ratio(sum(room_revenue_net), sum(rooms_available)) AS revpar_net,
       sum(total_revenue_net) AS total_revenue_net,
       mart.money_ratio(sum(total_revenue_net), sum(rooms_available)) AS trevpar_net
FROM mart.occupancy_daily
GROUP BY ALL;
COMMENT ON VIEW mart.v_kpi_by_month IS 'Occupancy, ADR, RevPAR and TRevPAR by month of stay, per property: sums of the month, never averages of daily ratios; the month of the business date split into nights lived (actual) and nights on the books.';
