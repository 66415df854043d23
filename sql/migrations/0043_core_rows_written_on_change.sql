-- Comments only: a core row read again unchanged is no longer written again (issue 51: a run
-- with nothing new writes no core row; pipelines/ingest/store/merge.py), so the run and fetch
-- columns name the read that last changed the row. Every read is in raw.payloads.
COMMENT ON COLUMN core.property.last_seen_run IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.property.fetched_at IS 'Server time (HTTP Date) of the fetch that last changed the row.';
COMMENT ON COLUMN core.room_types.last_seen_run IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.room_types.fetched_at IS 'Server time (HTTP Date) of the fetch that last changed the row.';
COMMENT ON COLUMN core.rooms.last_seen_run IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.rooms.fetched_at IS 'Server time (HTTP Date) of the fetch that last changed the row.';
COMMENT ON COLUMN core.rate_plans.last_seen_run IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.rate_plans.fetched_at IS 'Server time (HTTP Date) of the fetch that last changed the row.';
COMMENT ON COLUMN core.age_brackets.last_seen_run IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.age_brackets.fetched_at IS 'Server time (HTTP Date) of the fetch that last changed the row.';
COMMENT ON COLUMN core.items.last_seen_run IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.items.fetched_at IS 'Server time (HTTP Date) of the fetch that last changed the row.';
COMMENT ON COLUMN core.classifications.last_seen_run IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.classifications.fetched_at IS 'Server time (HTTP Date) of the fetch that last changed the row.';
COMMENT ON COLUMN core.reservations.last_seen_run IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.reservations.fetched_at IS 'Server time (HTTP Date) of the fetch that last changed the row.';
COMMENT ON COLUMN core.reservation_rooms.last_seen_run IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.reservation_rooms.fetched_at IS 'Server time (HTTP Date) of the fetch that last changed the row.';
COMMENT ON COLUMN core.stay_guests.last_seen_run IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.stay_guests.fetched_at IS 'Server time (HTTP Date) of the fetch that last changed the row.';
COMMENT ON COLUMN core.guests.last_seen_run IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.guests.fetched_at IS 'Server time (HTTP Date) of the fetch that last changed the row.';
COMMENT ON COLUMN core.folios.last_seen_run IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.folios.fetched_at IS 'Server time (HTTP Date) of the fetch that last changed the row.';
COMMENT ON COLUMN core.folio_lines.last_seen_run IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.folio_lines.fetched_at IS 'Server time (HTTP Date) of the fetch that last changed the row.';
COMMENT ON COLUMN core.availability.run_id IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.availability.fetched_at IS 'Server time (HTTP Date) of the fetch that last changed the row.';
