-- Notebook view (notebooks/revenue_manager.ipynb, docs/notebooks.md): occupancy per night
-- with its ISO week and weekday, for a week x weekday heatmap. Sums, never averages of ratios.
CREATE OR REPLACE VIEW mart.v_occupancy_calendar AS
SELECT o.property_id, p.code AS property_code, o.stay_date,
       CAST(date_trunc('week', o.stay_date) AS DATE) AS week_start,
       isodow(o.stay_date) AS weekday, strftime(o.stay_date, '%a') AS weekday_name,
       o.rooms_available, o.rooms_sold, o.occupancy_pct, o.adr_net, o.revpar_net, o.is_actual
FROM mart.occupancy_daily o JOIN core.property p USING (property_id);
COMMENT ON VIEW mart.v_occupancy_calendar IS 'Occupancy per property and night with week_start (Monday) and ISO weekday (1 = Monday): the heatmap of the revenue manager notebook.';
