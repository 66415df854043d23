-- Notebook view: cancellation rate by lead time bucket (arrival - local booking date, in
-- days), read from mart.booking_outcomes, the one classification mart.booking_kpis sums too:
-- guest cancellations over firm bookings made; no-shows and lapsed options beside it, never
-- inside (docs/kpi.md, Booking outcomes). lead_time_bucket is the bucket's label (text),
-- as in mart.booking_outcomes, whose lead_time_days is a booking's number of days.
CREATE OR REPLACE VIEW mart.v_cancellation_by_lead_time AS
SELECT o.property_id, p.code AS property_code,
       o.lead_time_order AS bucket_order, o.lead_time_bucket,
       count(*) FILTER (WHERE o.is_booking) AS bookings,
       count(*) FILTER (WHERE o.is_cancelled) AS cancelled_bookings,
       round(100.0 * count(*) FILTER (WHERE o.is_cancelled)
             / nullif(count(*) FILTER (WHERE o.is_booking), 0), 2) AS cancellation_pct,
       CAST(sum(o.room_nights) FILTER (WHERE o.is_booking) AS BIGINT) AS room_nights,
       CAST(sum(o.cancelled_room_nights) FILTER (WHERE o.is_booking) AS BIGINT)
           AS cancelled_room_nights,
       CAST(sum(o.no_shows) FILTER (WHERE o.is_booking) AS BIGINT) AS no_shows,
       count(*) FILTER (WHERE o.is_lapsed_option) AS lapsed_options
FROM mart.booking_outcomes o JOIN core.property p USING (property_id)
WHERE o.is_booking OR o.is_lapsed_option
GROUP BY ALL;
COMMENT ON VIEW mart.v_cancellation_by_lead_time IS 'Guest cancellations over firm bookings made, by lead time bucket (days from the local booking date to arrival), from mart.booking_outcomes; no-shows and lapsed options beside it.';
