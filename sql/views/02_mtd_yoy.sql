-- Month-to-date and year-to-date of the nights lived (before the business date), beside the
-- same calendar dates a year earlier: rooms sold, occupancy, ADR (of the nights sold, fees
-- apart), RevPAR (room revenue with fees) and their change (docs/kpi.md). last_year_*: the
-- same calendar dates (as forecast-months' last_year_*), not ly_actual_* (mart.pace: last
-- year's same weekday, 364 days).
CREATE OR REPLACE VIEW mart.v_mtd_yoy AS
WITH periods AS (
    SELECT property_id, business_date, 'MTD' AS period,
           CAST(date_trunc('month', business_date - 1) AS DATE) AS first_day,
           business_date - 1 AS last_day
    FROM core.property
    UNION ALL
    SELECT property_id, business_date, 'YTD',
           CAST(date_trunc('year', business_date - 1) AS DATE), business_date - 1
    FROM core.property
), sums AS (
    SELECT p.property_id, p.business_date, p.period, p.first_day, p.last_day,
           sum(o.rooms_available) FILTER (WHERE o.stay_date >= p.first_day) AS avail_ty,
           sum(o.rooms_sold) FILTER (WHERE o.stay_date >= p.first_day) AS sold_ty,
           sum(o.room_revenue_net) FILTER (WHERE o.stay_date >= p.first_day) AS revenue_ty,
           sum(o.room_revenue_nights_net) FILTER (WHERE o.stay_date >= p.first_day) AS nights_ty,
           sum(o.rooms_available) FILTER (WHERE o.stay_date < p.first_day) AS avail_ly,
           sum(o.rooms_sold) FILTER (WHERE o.stay_date < p.first_day) AS sold_ly,
           sum(o.room_revenue_net) FILTER (WHERE o.stay_date < p.first_day) AS revenue_ly,
           sum(o.room_revenue_nights_net) FILTER (WHERE o.stay_date < p.first_day) AS nights_ly
    FROM periods p
    LEFT JOIN mart.occupancy_daily o
      ON o.property_id = p.property_id
     AND ((o.stay_date BETWEEN p.first_day AND p.last_day)
          OR (o.stay_date BETWEEN p.first_day - INTERVAL 1 YEAR AND p.last_day - INTERVAL 1 YEAR))
    GROUP BY ALL
)
SELECT property_id, business_date, period, first_day, last_day,
       CAST(coalesce(sold_ty, 0) AS BIGINT) AS rooms_sold,
       round(100 * sold_ty / nullif(avail_ty, 0), 2) AS occupancy_pct,
       mart.money_ratio(nights_ty, sold_ty) AS adr_net,
       mart.money_ratio(revenue_ty, avail_ty) AS revpar_net,
       coalesce(revenue_ty, 0) AS room_revenue_net,
       CAST(sold_ly AS BIGINT) AS last_year_rooms_sold,
       round(100 * sold_ly / nullif(avail_ly, 0), 2) AS last_year_occupancy_pct,
       mart.money_ratio(nights_ly, sold_ly) AS last_year_adr_net,
       mart.money_ratio(revenue_ly, avail_ly) AS last_year_revpar_net,
       revenue_ly AS last_year_room_revenue_net,
       round(100 * (revenue_ty / nullif(revenue_ly, 0) - 1), 2) AS room_revenue_change_pct
FROM sums
WHERE last_day >= first_day;
COMMENT ON VIEW mart.v_mtd_yoy IS 'Month to date and year to date of the nights lived (before the business date) beside the same calendar dates a year earlier: rooms sold, occupancy, ADR (nights sold, fees apart), RevPAR and the change of room revenue.';
