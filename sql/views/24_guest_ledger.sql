-- Guest ledger (issue 16; docs/reconciliation.md, Guest ledger): every folio whose balance
-- is not zero, as of the last sync (the property's business date), with its category and
-- the age of its oldest posting. Read by `pmsw report ledger` and the finance notebook.
CREATE OR REPLACE VIEW mart.v_guest_ledger AS
WITH stays AS (
    SELECT property_id, reservation_id, bool_or(status = 'checked_in') AS in_house,
           count(*) AS entries, min(room_code) AS only_room
      FROM core.reservation_rooms GROUP BY ALL
), oldest AS (
    SELECT property_id, folio_id, min(posted_on) AS oldest_posting,
           string_agg(DISTINCT nullif(room, ''), ' ' ORDER BY nullif(room, '')) AS rooms
      FROM core.folio_lines GROUP BY ALL
), folios AS (
    SELECT f.property_id, f.folio_id,
           row_number() OVER (PARTITION BY f.property_id, f.reservation_id
                              ORDER BY f.folio_id) AS folio_number,
           f.status AS folio_status, f.reservation_id, r.status AS reservation_status,
           -- the folio's rooms: those its lines were posted to, else the room of a
           -- reservation of one room (a group's folio lists its own rooms, not all)
           coalesce(o.rooms, CASE WHEN s.entries = 1 THEN s.only_room END, '') AS rooms,
           f.guest_name AS holder, r.arrival, r.departure, f.charges, f.payments,
           f.balance, o.oldest_posting, p.business_date AS as_of,
           CASE WHEN f.reservation_id IS NULL THEN 'house'
                WHEN mart.is_city_ledger(f.description) THEN 'city_ledger'
                WHEN coalesce(s.in_house, false) THEN 'in_house'
                WHEN r.status = 'checked_out' THEN 'departed'
                -- a credit on a cancelled stay is owed back (or to be forfeited): no deposit
                WHEN r.status = 'cancelled' THEN 'cancelled'
                WHEN f.balance < 0 THEN 'deposit'
                ELSE 'future' END AS category
      FROM core.folios f
      JOIN core.property p ON p.property_id = f.property_id
      LEFT JOIN core.reservations r ON r.property_id = f.property_id
           AND r.reservation_id = f.reservation_id
      LEFT JOIN stays s ON s.property_id = f.property_id
           AND s.reservation_id = f.reservation_id
      LEFT JOIN oldest o ON o.property_id = f.property_id AND o.folio_id = f.folio_id
)
SELECT *, as_of - oldest_posting AS age_days,
       CASE WHEN oldest_posting IS NULL OR as_of - oldest_posting <= 30 THEN '0_30'
            WHEN as_of - oldest_posting <= 60 THEN '31_60'
            WHEN as_of - oldest_posting <= 90 THEN '61_90' ELSE 'over_90' END AS aging_bucket
  FROM folios WHERE balance <> 0;
COMMENT ON VIEW mart.v_guest_ledger IS 'Open balances by folio as of the last sync (as_of = the property''s business date): category (in_house, departed, deposit: a credit on a stay not yet arrived, cancelled: any balance of a cancelled stay, a credit there owed back to the guest, future, house; city_ledger: a company''s or agency''s account, accounts receivable, kept apart from the guest ledger), rooms (those the folio''s lines were posted to, else the room of a one-room reservation), charges, payments, balance (the API''s), oldest posting, age_days and aging_bucket (0_30, 31_60, 61_90, over_90).';
