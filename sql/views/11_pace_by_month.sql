-- Notebook view: the pace curve of a month of stay dates, on the books by days before arrival
-- beside the same time last year (mart.pace summed over the month's stay dates). stay_dates
-- counts the nights of the month that have a figure at that distance (near the end of a
-- future month only the later nights do), stly_stay_dates those with a STLY figure.
-- rebuilt_stay_dates / stly_rebuilt_stay_dates count the nights whose snapshot is rebuilt from
-- history (before the first sync), not observed; ly_actual_* is what last year's nights
-- finally sold (over ly_actual_stay_dates nights), beside STLY.
CREATE OR REPLACE VIEW mart.v_pace_by_month AS
SELECT pc.property_id, p.code AS property_code,
       CAST(date_trunc('month', pc.stay_date) AS DATE) AS stay_month, pc.days_before,
       count(*) AS stay_dates, count(pc.stly_rooms_otb) AS stly_stay_dates,
       CAST(sum(pc.rooms_otb) AS BIGINT) AS rooms_otb,
       CAST(sum(pc.stly_rooms_otb) AS BIGINT) AS stly_rooms_otb,
       sum(pc.revenue_otb_net) AS revenue_otb_net,
       sum(pc.stly_revenue_otb_net) AS stly_revenue_otb_net,
       count(*) FILTER (WHERE pc.is_rebuilt) AS rebuilt_stay_dates,
       count(*) FILTER (WHERE pc.stly_is_rebuilt) AS stly_rebuilt_stay_dates,
       count(pc.ly_actual_rooms_sold) AS ly_actual_stay_dates,
       CAST(sum(pc.ly_actual_rooms_sold) AS BIGINT) AS ly_actual_rooms_sold,
       sum(pc.ly_actual_room_revenue_net) AS ly_actual_room_revenue_net
FROM mart.pace pc JOIN core.property p USING (property_id)
GROUP BY ALL;
COMMENT ON VIEW mart.v_pace_by_month IS 'On the books (OTB) and same time last year (STLY, 364 days earlier) by month of stay and days before arrival, with the nights whose books are rebuilt from history and last year''s final actual: the pace curve of the revenue manager notebook.';
