-- Cancellations made (docs/kpi.md, "Room statistics"; the Manager Flash's row): one row per room
-- entry the guest cancelled (status cancelled, cancelled_by guest or not said; the hotel's
-- cancellations, no-shows and lapsed options among them, are not), dated by the property's local
-- date its status became cancelled: the stay.cancelled event's created_at (core.events, entity
-- stay = the room entry); where the event log does not reach (a room cancelled before the
-- warehouse's first event), the valid_from of the room's first cancelled version. A later change
-- of a cancelled room (its updated_at) moves neither.
CREATE OR REPLACE VIEW mart.v_cancellations_made AS
WITH cancel_event AS (
    SELECT property_id, entity_id AS reservation_room_id, min(created_at) AS at
    FROM core.events WHERE type = 'stay.cancelled' AND entity = 'stay'
    GROUP BY ALL
), cancelled_version AS (
    SELECT property_id, reservation_room_id, min(valid_from) AS at
    FROM core.reservation_room_versions WHERE status = 'cancelled'
    GROUP BY ALL
)
SELECT r.property_id, p.code AS property_code, r.reservation_id, r.reservation_room_id,
       CAST(timezone(p.timezone, coalesce(e.at, v.at)) AS DATE) AS cancelled_on,
       r.arrival, r.nights AS room_nights, e.at IS NOT NULL AS dated_by_event
FROM core.reservation_rooms r
JOIN core.property p USING (property_id)
LEFT JOIN cancel_event e USING (property_id, reservation_room_id)
LEFT JOIN cancelled_version v USING (property_id, reservation_room_id)
WHERE r.status = 'cancelled' AND coalesce(r.cancelled_by, 'guest') = 'guest'
  AND coalesce(e.at, v.at) IS NOT NULL;
COMMENT ON VIEW mart.v_cancellations_made IS 'Room entries the guest cancelled, each on the local date its status became cancelled (the stay.cancelled event; before the event log, the first cancelled version''s valid_from): the Manager Flash''s cancellations made (docs/kpi.md, Room statistics).';
