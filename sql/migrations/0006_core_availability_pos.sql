-- Availability snapshots and the POS ledger export.
CREATE TABLE core.availability (
    property_id BIGINT NOT NULL,
    snapshot_date DATE NOT NULL,
    stay_date DATE NOT NULL,
    room_type_id BIGINT NOT NULL,
    room_type_code VARCHAR NOT NULL,
    total INTEGER NOT NULL,
    occupied INTEGER NOT NULL,
    out_of_order INTEGER NOT NULL,
    available INTEGER NOT NULL,
    run_id VARCHAR NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (property_id, snapshot_date, stay_date, room_type_id)
);
COMMENT ON TABLE core.availability IS 'Availability by room type and night (GET /availability) as read on each business date. A later read on the same business date replaces the earlier one for the nights it covers.';
COMMENT ON COLUMN core.availability.property_id IS 'Property id.';
COMMENT ON COLUMN core.availability.snapshot_date IS 'Business date of the property when the availability was read.';
COMMENT ON COLUMN core.availability.stay_date IS 'Night the figures are for.';
COMMENT ON COLUMN core.availability.room_type_id IS 'Room type.';
COMMENT ON COLUMN core.availability.room_type_code IS 'Code of the room type.';
COMMENT ON COLUMN core.availability.total IS 'Rooms of the type on sale.';
COMMENT ON COLUMN core.availability.occupied IS 'Stays on the night (counted on the type of the assigned room, or the requested type when none is assigned).';
COMMENT ON COLUMN core.availability.out_of_order IS 'Rooms of the type out of order on the night.';
COMMENT ON COLUMN core.availability.available IS 'total - occupied - out_of_order as the API computes it (negative when overbooked).';
COMMENT ON COLUMN core.availability.run_id IS 'Run that landed the row.';
COMMENT ON COLUMN core.availability.fetched_at IS 'Server time (HTTP Date) of the fetch that landed the row.';

CREATE TABLE core.pos_ledger_files (
    property_id BIGINT NOT NULL,
    file_name VARCHAR NOT NULL,
    sha256 VARCHAR NOT NULL,
    loaded_at TIMESTAMPTZ NOT NULL,
    "rows" INTEGER NOT NULL,
    status VARCHAR NOT NULL,
    reason VARCHAR,
    run_id VARCHAR NOT NULL,
    PRIMARY KEY (property_id, file_name, sha256)
);
COMMENT ON TABLE core.pos_ledger_files IS 'Every POS ledger CSV file met, by name and content hash: loaded once, or quarantined with the reason. A file already met (same name and hash) is skipped; a file whose name was loaded before with other content is quarantined, never loaded twice.';
COMMENT ON COLUMN core.pos_ledger_files.property_id IS 'Property whose ledger folder held the file.';
COMMENT ON COLUMN core.pos_ledger_files.file_name IS 'File name within the folder.';
COMMENT ON COLUMN core.pos_ledger_files.sha256 IS 'SHA-256 of the file''s bytes, hex.';
COMMENT ON COLUMN core.pos_ledger_files.loaded_at IS 'When the file was processed, warehouse clock (operational, not data).';
COMMENT ON COLUMN core.pos_ledger_files."rows" IS 'Ledger rows loaded from the file (0 when quarantined).';
COMMENT ON COLUMN core.pos_ledger_files.status IS 'loaded or quarantined.';
COMMENT ON COLUMN core.pos_ledger_files.reason IS 'Why the file was quarantined (names the line and field); NULL when loaded.';
COMMENT ON COLUMN core.pos_ledger_files.run_id IS 'Run that processed the file.';

CREATE TABLE core.pos_ledger (
    property_id BIGINT NOT NULL,
    ticket_id VARCHAR NOT NULL,
    line INTEGER NOT NULL,
    business_date DATE NOT NULL,
    posted_at TIMESTAMPTZ NOT NULL,
    reservation_id BIGINT,
    reservation_room_id BIGINT,
    room VARCHAR,
    item_code VARCHAR NOT NULL,
    quantity DECIMAL(12,3) NOT NULL,
    unit_price DECIMAL(12,2) NOT NULL,
    total DECIMAL(12,2) NOT NULL,
    source_file VARCHAR NOT NULL,
    PRIMARY KEY (property_id, ticket_id, line)
);
COMMENT ON TABLE core.pos_ledger IS 'POS ledger: every POS charge and city-tax posting as exported by the POS (one CSV per business date), whether or not it reached a folio. The expected side of the reconciliation.';
COMMENT ON COLUMN core.pos_ledger.property_id IS 'Property id.';
COMMENT ON COLUMN core.pos_ledger.ticket_id IS 'POS ticket id (folio lines of POS charges carry it in their description).';
COMMENT ON COLUMN core.pos_ledger.line IS 'Line number within the ticket.';
COMMENT ON COLUMN core.pos_ledger.business_date IS 'Business date of the charge.';
COMMENT ON COLUMN core.pos_ledger.posted_at IS 'When the POS rang the charge (server time of the POS).';
COMMENT ON COLUMN core.pos_ledger.reservation_id IS 'Reservation charged; NULL for a charge not on a reservation.';
COMMENT ON COLUMN core.pos_ledger.reservation_room_id IS 'Room entry charged; NULL when not given.';
COMMENT ON COLUMN core.pos_ledger.room IS 'Room number charged (empty or NULL when none).';
COMMENT ON COLUMN core.pos_ledger.item_code IS 'Item code (core.items.code).';
COMMENT ON COLUMN core.pos_ledger.quantity IS 'Quantity.';
COMMENT ON COLUMN core.pos_ledger.unit_price IS 'Unit price, VAT included.';
COMMENT ON COLUMN core.pos_ledger.total IS 'Total of the line, VAT included.';
COMMENT ON COLUMN core.pos_ledger.source_file IS 'File the row was loaded from (core.pos_ledger_files.file_name).';
