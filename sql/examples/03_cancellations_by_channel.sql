-- Answers: which channels cancel most, by bookings and by room nights, and how far ahead do
-- they book? (cohort: bookings by month of arrival)
SELECT property_id, arrival_month, coalesce(channel, '(none)') AS channel, bookings,
       room_nights, cancellation_rate_bookings, cancellation_rate_room_nights,
       avg_lead_time_days, alos, no_show_rate
FROM mart.booking_kpis
ORDER BY property_id, arrival_month, bookings DESC;
