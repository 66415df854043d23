-- Finance worklist (issue 16; docs/reconciliation.md, Worklist): every charge the latest
-- run left blocked, failed or amount_mismatch, with what a person needs to act on it (the
-- folio and its fiscal document, the party to bill, net, VAT and gross, age) and the latest
-- resolution recorded by `pmsw reconcile resolve` (state open when none).
CREATE OR REPLACE VIEW recon.v_worklist AS
WITH folio_numbers AS (
    SELECT property_id, folio_id, status AS folio_status, description AS folio_description,
           guest_name AS folio_holder, document, issue_date,
           row_number() OVER (PARTITION BY property_id, reservation_id
                              ORDER BY folio_id) AS folio_number
    FROM core.folios
)
SELECT substr(c.idempotency_key, 7, 12) AS item,
       c.property_id, c.property_code, c.business_date,
       c.folio_id, f.folio_number, f.folio_description, f.folio_status,
       f.document AS fiscal_document_number, f.issue_date AS fiscal_document_date,
       c.reservation_id, c.reservation_room_id, rr.room_code AS room,
       coalesce(f.folio_holder, rv.billing_party_name, rv.booker_name) AS bill_to,
       CASE WHEN f.folio_holder IS NOT NULL THEN 'folio holder'
            WHEN rv.billing_party_name IS NOT NULL THEN coalesce(rv.billing_party_kind,
                                                                 'billing party')
            WHEN rv.booker_name IS NOT NULL THEN coalesce(rv.booker_kind, 'booker') END
           AS bill_to_kind,
       c.item_code, i.name AS item_name, c.source_ref, c.quantity, c.unit_price,
       coalesce(i.tax_pct, 0) AS vat_pct,
       CAST(round(c.expected_amount / (1 + coalesce(i.tax_pct, 0) / 100), 2)
            AS DECIMAL(12,2)) AS net,
       CAST(c.expected_amount - round(c.expected_amount / (1 + coalesce(i.tax_pct, 0) / 100),
                                      2) AS DECIMAL(12,2)) AS vat,
       c.expected_amount AS gross, c.found_amount,
       c.status, c.reason_code, c.reason, c.error_code,
       p.business_date - c.business_date AS age_days,
       coalesce(res.state, 'open') AS state, res.resolved_by, res.resolved_at,
       res.note AS resolution_note,
       c.run_id, c.key
FROM recon.v_current c
JOIN core.property p ON p.property_id = c.property_id
LEFT JOIN folio_numbers f ON f.property_id = c.property_id AND f.folio_id = c.folio_id
LEFT JOIN core.reservation_rooms rr ON rr.property_id = c.property_id
     AND rr.reservation_room_id = c.reservation_room_id
LEFT JOIN core.reservations rv ON rv.property_id = c.property_id
     AND rv.reservation_id = c.reservation_id
LEFT JOIN core.items i ON i.property_id = c.property_id AND i.item_id = c.item_id
LEFT JOIN recon.v_latest_resolution res ON res.property_id = c.property_id AND res.key = c.key
WHERE c.status IN ('blocked', 'failed', 'amount_mismatch');
COMMENT ON VIEW recon.v_worklist IS 'Charges that cannot be posted (blocked, failed, amount_mismatch) as the latest run left them: item (short id for pmsw reconcile resolve), folio id and number (1st, 2nd folio of the reservation), fiscal document number and date, room, party to bill, item, quantity, net/VAT/gross, reason code, age in days (business date of the property minus the charge''s), and the latest resolution (state, who, when, note; open when none).';
