-- Answers: which channels cancel most, by bookings and by room nights, and how far ahead do
-- they book? (cohort: firm bookings by month of arrival; cancellations are the guests'; the
-- no-shows and the options that lapsed are counted beside them, docs/kpi.md)
SELECT property_id, arrival_month, coalesce(channel, '(none)') AS channel, bookings,
       room_nights, cancelled_bookings, cancellation_rate_bookings,
       cancellation_rate_room_nights, avg_lead_time_days, alos, no_shows, no_show_rate,
       lapsed_options
FROM mart.booking_kpis
ORDER BY property_id, arrival_month, bookings DESC;
