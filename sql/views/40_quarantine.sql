-- How many records of each property are in quarantine (docs/ingestion.md, "Quarantine"):
-- one row per property, 0 when none. The marts are built from what landed; these records are
-- not in them until they validate and are released.
CREATE OR REPLACE VIEW mart.v_quarantine AS
SELECT p.property_id, p.code AS property_code,
       count(q.record_key) AS records_quarantined,
       coalesce(list(q.record_id ORDER BY q.record_id)
                    FILTER (WHERE q.record_key IS NOT NULL), []) AS record_ids,
       min(q.quarantined_at) AS oldest_quarantined_at
FROM core.property p
LEFT JOIN meta.quarantine q
       ON q.property_id = p.property_id AND q.released_at IS NULL
GROUP BY p.property_id, p.code;
COMMENT ON VIEW mart.v_quarantine IS 'Per property: records in quarantine now (meta.quarantine, not released), their API ids and the oldest quarantine time. 0 when the property has none; the marts leave these records out until released.';
