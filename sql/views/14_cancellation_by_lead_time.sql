-- Notebook view: cancellation rate of room entries by lead time (arrival - booking date, in
-- days) bucket. Counted: room entries that were booked (not those still in option); cancelled
-- = cancelled by the guest (a no-show or a lapsed option is cancelled by the hotel and is not a
-- guest cancellation).
CREATE OR REPLACE VIEW mart.v_cancellation_by_lead_time AS
WITH entries AS (
    SELECT property_id, status, cancelled_by,
           arrival - CAST(created_at AS DATE) AS lead_days
    FROM core.reservation_rooms WHERE status <> 'option')
SELECT e.property_id, p.code AS property_code,
       CASE WHEN lead_days <= 1 THEN 1 WHEN lead_days <= 7 THEN 2 WHEN lead_days <= 14 THEN 3
            WHEN lead_days <= 30 THEN 4 WHEN lead_days <= 60 THEN 5 WHEN lead_days <= 90 THEN 6
            WHEN lead_days <= 180 THEN 7 ELSE 8 END AS bucket_order,
       CASE WHEN lead_days <= 1 THEN '0-1' WHEN lead_days <= 7 THEN '2-7'
            WHEN lead_days <= 14 THEN '8-14' WHEN lead_days <= 30 THEN '15-30'
            WHEN lead_days <= 60 THEN '31-60' WHEN lead_days <= 90 THEN '61-90'
            WHEN lead_days <= 180 THEN '91-180' ELSE '181+' END AS lead_time_days,
       count(*) AS room_entries,
       count(*) FILTER (WHERE status = 'cancelled' AND cancelled_by = 'guest') AS cancelled,
       round(100.0 * count(*) FILTER (WHERE status = 'cancelled' AND cancelled_by = 'guest')
             / count(*), 2) AS cancellation_pct
FROM entries e JOIN core.property p USING (property_id)
GROUP BY ALL;
COMMENT ON VIEW mart.v_cancellation_by_lead_time IS 'Share of booked room entries cancelled by the guest, by lead time bucket (days from booking to arrival).';
