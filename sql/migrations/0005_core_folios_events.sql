-- Folios and their lines (current state), and the event log.
CREATE TABLE core.folios (
    property_id BIGINT NOT NULL,
    folio_id BIGINT NOT NULL,
    reservation_id BIGINT,
    guest_id BIGINT,
    guest_name VARCHAR,
    description VARCHAR,
    status VARCHAR NOT NULL,
    document VARCHAR,
    issue_date DATE,
    prices_include_vat BOOLEAN NOT NULL,
    charges DECIMAL(12,2) NOT NULL,
    payments DECIMAL(12,2) NOT NULL,
    balance DECIMAL(12,2) NOT NULL,
    last_seen_run VARCHAR NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (property_id, folio_id)
);
COMMENT ON TABLE core.folios IS 'Folios (guest accounts) of reservations, current state (GET /reservations/{id}/folios, GET /folios/{id}). A folio and its lines are replaced together by every fetch of it; a closed folio is final.';
COMMENT ON COLUMN core.folios.property_id IS 'Property id.';
COMMENT ON COLUMN core.folios.folio_id IS 'Folio id.';
COMMENT ON COLUMN core.folios.reservation_id IS 'Reservation of the folio; NULL for a folio without one.';
COMMENT ON COLUMN core.folios.guest_id IS 'Holder of the folio (guest archive id); NULL when none.';
COMMENT ON COLUMN core.folios.guest_name IS 'Name of the holder.';
COMMENT ON COLUMN core.folios.description IS 'Description of the folio.';
COMMENT ON COLUMN core.folios.status IS 'open, suspended or closed.';
COMMENT ON COLUMN core.folios.document IS 'Number of the fiscal document issued at closing; NULL while not closed.';
COMMENT ON COLUMN core.folios.issue_date IS 'Date the document was issued; NULL while not closed.';
COMMENT ON COLUMN core.folios.prices_include_vat IS 'True when line totals include VAT (the usual case); decides how folio_lines amount_net and amount_gross are derived.';
COMMENT ON COLUMN core.folios.charges IS 'Sum of the lines that are not payments.';
COMMENT ON COLUMN core.folios.payments IS 'Sum of the payment lines.';
COMMENT ON COLUMN core.folios.balance IS 'charges - payments.';
COMMENT ON COLUMN core.folios.last_seen_run IS 'Run that last landed the row.';
COMMENT ON COLUMN core.folios.fetched_at IS 'Server time (HTTP Date) of the fetch that landed the row.';

CREATE TABLE core.folio_lines (
    property_id BIGINT NOT NULL,
    folio_line_id BIGINT NOT NULL,
    folio_id BIGINT NOT NULL,
    reservation_id BIGINT,
    reservation_room_id BIGINT,
    type VARCHAR NOT NULL,
    description VARCHAR,
    posted_on DATE NOT NULL,
    quantity DECIMAL(12,3) NOT NULL,
    unit_price DECIMAL(12,2) NOT NULL,
    discount DECIMAL(12,2) NOT NULL,
    tax_pct DECIMAL(7,4) NOT NULL,
    total DECIMAL(12,2) NOT NULL,
    amount_gross DECIMAL(12,2) NOT NULL,
    amount_net DECIMAL(12,2) NOT NULL,
    room VARCHAR,
    service_item_id BIGINT,
    reversal_of BIGINT,
    last_seen_run VARCHAR NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (property_id, folio_line_id)
);
COMMENT ON TABLE core.folio_lines IS 'Lines of folios, current state: charges, payments and reversals. A posted line is never edited by the PMS; a correction is a new line with reversal_of set.';
COMMENT ON COLUMN core.folio_lines.property_id IS 'Property id.';
COMMENT ON COLUMN core.folio_lines.folio_line_id IS 'Line id.';
COMMENT ON COLUMN core.folio_lines.folio_id IS 'Folio of the line (core.folios).';
COMMENT ON COLUMN core.folio_lines.reservation_id IS 'Reservation of the folio; NULL for a folio without one.';
COMMENT ON COLUMN core.folio_lines.reservation_room_id IS 'Room entry the line belongs to, derived at landing: the only room entry of the reservation whose room_code equals the line''s room (when several match, the one whose stay covers posted_on). NULL when not derivable; the API does not give it.';
COMMENT ON COLUMN core.folio_lines.type IS 'Line type: charge, payment, or another value of the PMS (the spec does not close the list).';
COMMENT ON COLUMN core.folio_lines.description IS 'Description of the line (POS charges carry the ticket reference here).';
COMMENT ON COLUMN core.folio_lines.posted_on IS 'Business date the line was posted for.';
COMMENT ON COLUMN core.folio_lines.quantity IS 'Quantity.';
COMMENT ON COLUMN core.folio_lines.unit_price IS 'Unit price.';
COMMENT ON COLUMN core.folio_lines.discount IS 'Discount amount taken off the line.';
COMMENT ON COLUMN core.folio_lines.tax_pct IS 'VAT rate of the line, percent (0 for city tax and payments).';
COMMENT ON COLUMN core.folio_lines.total IS 'Line total as the API gives it (VAT included when the folio''s prices_include_vat); negative on reversals.';
COMMENT ON COLUMN core.folio_lines.amount_gross IS 'Amount VAT included: total when prices include VAT, else total * (1 + tax_pct/100) rounded half-up to the cent.';
COMMENT ON COLUMN core.folio_lines.amount_net IS 'Amount net of VAT: total / (1 + tax_pct/100) rounded half-up to the cent when prices include VAT, else total.';
COMMENT ON COLUMN core.folio_lines.room IS 'Room number the line was posted for (empty when none).';
COMMENT ON COLUMN core.folio_lines.service_item_id IS 'Item charged (core.items.item_id); NULL for payments and free lines.';
COMMENT ON COLUMN core.folio_lines.reversal_of IS 'Id of the line this line reverses; NULL otherwise.';
COMMENT ON COLUMN core.folio_lines.last_seen_run IS 'Run that last landed the row.';
COMMENT ON COLUMN core.folio_lines.fetched_at IS 'Server time (HTTP Date) of the fetch that landed the row.';

CREATE TABLE core.events (
    property_id BIGINT NOT NULL,
    event_id BIGINT NOT NULL,
    type VARCHAR NOT NULL,
    entity VARCHAR NOT NULL,
    entity_id BIGINT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    data JSON NOT NULL,
    run_id VARCHAR NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (property_id, event_id)
);
COMMENT ON TABLE core.events IS 'The event log (GET /events), each event once by id; kept beyond the API''s 30 days.';
COMMENT ON COLUMN core.events.property_id IS 'Property id.';
COMMENT ON COLUMN core.events.event_id IS 'Event id, increasing; the events cursor is the largest landed.';
COMMENT ON COLUMN core.events.type IS 'Event type (reservation.created, stay.cancelled, ...).';
COMMENT ON COLUMN core.events.entity IS 'reservation or stay.';
COMMENT ON COLUMN core.events.entity_id IS 'Reservation id for entity reservation, room entry id (reservation_room_id) for entity stay.';
COMMENT ON COLUMN core.events.created_at IS 'When the event happened (server time).';
COMMENT ON COLUMN core.events.data IS 'Facts of the moment as the API gives them (status, dates, room, ...), JSON.';
COMMENT ON COLUMN core.events.run_id IS 'Run that landed the event.';
COMMENT ON COLUMN core.events.fetched_at IS 'Server time (HTTP Date) of the fetch that landed the event.';
