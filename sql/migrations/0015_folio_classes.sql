-- The folio re-read policy (issue 18; docs/ingestion.md, "Folios: the re-read rule"): which
-- class each folio read of a run belongs to and what it cost, and when each reservation's
-- folios were last read (the PMS's clock), from which the sweep of the future book rotates.
CREATE TABLE meta.folio_classes (
    run_id VARCHAR NOT NULL,
    property_id BIGINT NOT NULL,
    class VARCHAR NOT NULL,
    reservations INTEGER NOT NULL,
    candidates INTEGER NOT NULL,
    calls INTEGER NOT NULL,
    server_time TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (run_id, property_id, class)
);
COMMENT ON TABLE meta.folio_classes IS 'Folio reads of each run of the folios stream, by class: what the hourly incremental costs and why. One row per run, property and class, zero counts included; written with the last landing of the run.';
COMMENT ON COLUMN meta.folio_classes.run_id IS 'Run id (meta.sync_runs.run_id).';
COMMENT ON COLUMN meta.folio_classes.property_id IS 'Property synced.';
COMMENT ON COLUMN meta.folio_classes.class IS 'all (first run or full_folio_refresh: every reservation), changed (reservations landed since the folios were last read), in_house (rooms checked in), departed (rooms checked out within departed_days), sweep (the rotating share of the other open folios, the future book), loose (open folios without a reservation, read by id). A reservation in several classes counts in the first of this order.';
COMMENT ON COLUMN meta.folio_classes.reservations IS 'Reservations whose folios were read in this class (folios, for loose).';
COMMENT ON COLUMN meta.folio_classes.candidates IS 'Reservations the class was drawn from: for sweep, every open folio outside the other classes (the share read is reservations / candidates); for the other classes the same as reservations.';
COMMENT ON COLUMN meta.folio_classes.calls IS 'HTTP calls the class cost, retries included.';
COMMENT ON COLUMN meta.folio_classes.server_time IS 'The PMS clock (HTTP Date) when the run chose what to read: the sweep measures the time between runs on it.';

CREATE TABLE meta.folio_reads (
    property_id BIGINT NOT NULL,
    reservation_id BIGINT NOT NULL,
    read_at TIMESTAMPTZ NOT NULL,
    class VARCHAR NOT NULL,
    run_id VARCHAR NOT NULL,
    PRIMARY KEY (property_id, reservation_id)
);
COMMENT ON TABLE meta.folio_reads IS 'When the folios of each reservation were last read, on the PMS clock: the sweep reads the open folios read longest ago first, so each is read within folio_sweep_hours. Written in the transaction that lands those folios.';
COMMENT ON COLUMN meta.folio_reads.property_id IS 'Property.';
COMMENT ON COLUMN meta.folio_reads.reservation_id IS 'Reservation whose folios were read (GET /reservations/{id}/folios).';
COMMENT ON COLUMN meta.folio_reads.read_at IS 'PMS clock (HTTP Date) when the run that read them chose what to read.';
COMMENT ON COLUMN meta.folio_reads.class IS 'Class of that read (meta.folio_classes.class).';
COMMENT ON COLUMN meta.folio_reads.run_id IS 'Run that read them.';
