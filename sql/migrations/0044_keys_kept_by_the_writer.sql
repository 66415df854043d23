-- Issue 51: no write in proportion to the warehouse's size. DuckDB writes a PRIMARY KEY's ART
-- index whole at the checkpoint once a row of its table is deleted or inserted, so a day's
-- sync wrote these five tables' indexes whole (mart.pickup 8.6 MiB at 221k rows for 1.3
-- without its key; docs/scaling.md, "No write in proportion to size"). DuckDB cannot drop a
-- constraint: each table is recreated without its key, its columns, defaults and comments
-- kept. The key stays what it was (pipelines/warehouse/keys.py), kept by the writing path
-- (pipelines/warehouse/difference.py refuses rows holding a key twice).
-- mart.pickup: key (property_id, as_of_date, stay_date, window_days), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE mart.pickup_0044 (
    property_id BIGINT NOT NULL,
    as_of_date DATE NOT NULL,
    stay_date DATE NOT NULL,
    window_days INTEGER NOT NULL,
    rooms_new INTEGER NOT NULL,
    rooms_cancelled INTEGER NOT NULL,
    rooms_net INTEGER NOT NULL,
    revenue_net DECIMAL(18,2) NOT NULL,
    is_rebuilt BOOLEAN NOT NULL DEFAULT false
);
INSERT INTO mart.pickup_0044 SELECT * FROM mart.pickup;
DROP TABLE mart.pickup;
ALTER TABLE mart.pickup_0044 RENAME TO pickup;
COMMENT ON TABLE mart.pickup IS 'Pickup over the window (as_of_date - window_days, as_of_date] for each stay date up to 365 days ahead: OTB(S) - OTB(S - W) with its new and cancelled parts. Rows where all four measures are 0 are left out: a missing row means no pickup.';
COMMENT ON COLUMN mart.pickup.property_id IS 'Property id.';
COMMENT ON COLUMN mart.pickup.as_of_date IS 'As-of date S (a snapshot date).';
COMMENT ON COLUMN mart.pickup.stay_date IS 'Stay date D, S <= D <= S + 365.';
COMMENT ON COLUMN mart.pickup.window_days IS 'Window W in days: 1, 7, 14 or 30.';
COMMENT ON COLUMN mart.pickup.rooms_new IS 'Room nights for D that came onto the books during the window (new booking, option confirmed, date moved onto D), counted per day.';
COMMENT ON COLUMN mart.pickup.rooms_cancelled IS 'Room nights for D that went off the books during the window (cancelled, moved away, back to option), counted per day.';
COMMENT ON COLUMN mart.pickup.rooms_net IS 'rooms_new - rooms_cancelled = rooms_otb(S, D) - rooms_otb(S - W, D).';
COMMENT ON COLUMN mart.pickup.revenue_net IS 'revenue_otb_net(S, D) - revenue_otb_net(S - W, D): rate changes included.';
COMMENT ON COLUMN mart.pickup.is_rebuilt IS 'True when the start of the window (as_of_date - window_days) is before the first business date the warehouse saw: part of the pickup comes from rebuilt books.';

-- mart.otb_snapshots: key (property_id, snapshot_date, stay_date), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE mart.otb_snapshots_0044 (
    property_id BIGINT NOT NULL,
    snapshot_date DATE NOT NULL,
    stay_date DATE NOT NULL,
    rooms_otb INTEGER NOT NULL,
    revenue_otb_net DECIMAL(18,2) NOT NULL,
    rooms_option INTEGER NOT NULL,
    is_rebuilt BOOLEAN NOT NULL DEFAULT false
);
INSERT INTO mart.otb_snapshots_0044 SELECT * FROM mart.otb_snapshots;
DROP TABLE mart.otb_snapshots;
ALTER TABLE mart.otb_snapshots_0044 RENAME TO otb_snapshots;
COMMENT ON TABLE mart.otb_snapshots IS 'On the books at the end of each snapshot date for each stay date up to 365 days ahead, every snapshot date from the first to the last business date seen (gaps filled from the room versions; history before the first sync rebuilt as docs/kpi.md says).';
COMMENT ON COLUMN mart.otb_snapshots.property_id IS 'Property id.';
COMMENT ON COLUMN mart.otb_snapshots.snapshot_date IS 'Snapshot date S (local date of the property): the books as they stood at the end of S.';
COMMENT ON COLUMN mart.otb_snapshots.stay_date IS 'Stay date D, S <= D <= S + 365.';
COMMENT ON COLUMN mart.otb_snapshots.rooms_otb IS 'Room nights for D of the room versions valid at the end of S, not cancelled, not in option (complimentary rooms included).';
COMMENT ON COLUMN mart.otb_snapshots.revenue_otb_net IS 'Net room revenue of those room nights: each version''s total split evenly over its nights, net of accommodation VAT.';
COMMENT ON COLUMN mart.otb_snapshots.rooms_option IS 'Room nights for D in option at the end of S (apart, never in rooms_otb).';
COMMENT ON COLUMN mart.otb_snapshots.is_rebuilt IS 'True when the snapshot date is before the first business date the warehouse saw (its first sync): the books as they stood then are rebuilt from history (docs/kpi.md, History before the first sync), not observed.';

-- mart.pace: key (property_id, stay_date, days_before), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE mart.pace_0044 (
    property_id BIGINT NOT NULL,
    stay_date DATE NOT NULL,
    days_before INTEGER NOT NULL,
    rooms_otb INTEGER NOT NULL,
    revenue_otb_net DECIMAL(18,2) NOT NULL,
    stly_rooms_otb INTEGER,
    stly_revenue_otb_net DECIMAL(18,2),
    is_rebuilt BOOLEAN NOT NULL DEFAULT false,
    stly_is_rebuilt BOOLEAN,
    ly_actual_rooms_sold INTEGER,
    ly_actual_room_revenue_net DECIMAL(18,2)
);
INSERT INTO mart.pace_0044 SELECT * FROM mart.pace;
DROP TABLE mart.pace;
ALTER TABLE mart.pace_0044 RENAME TO pace;
COMMENT ON TABLE mart.pace IS 'On the books by days before arrival, beside the same time last year (STLY: last year''s night L of the stay date D, the same holiday or event a year earlier by the property''s calendar, else D - 364, at the same days before arrival).';
COMMENT ON COLUMN mart.pace.property_id IS 'Property id.';
COMMENT ON COLUMN mart.pace.stay_date IS 'Stay date D.';
COMMENT ON COLUMN mart.pace.days_before IS 'k = D - S, the days between the snapshot S and the stay date (0 = the night itself).';
COMMENT ON COLUMN mart.pace.rooms_otb IS 'mart.otb_snapshots.rooms_otb for snapshot D - k and stay date D.';
COMMENT ON COLUMN mart.pace.revenue_otb_net IS 'mart.otb_snapshots.revenue_otb_net for snapshot D - k and stay date D.';
COMMENT ON COLUMN mart.pace.stly_rooms_otb IS 'Rooms on the books for last year''s night L (the same holiday or event a year earlier, else D - 364) at snapshot L - k; NULL when that snapshot was not taken.';
COMMENT ON COLUMN mart.pace.stly_revenue_otb_net IS 'Net room revenue on the books for last year''s night L at snapshot L - k; NULL when not taken.';
COMMENT ON COLUMN mart.pace.is_rebuilt IS 'True when the snapshot D - k is rebuilt (mart.otb_snapshots.is_rebuilt).';
COMMENT ON COLUMN mart.pace.stly_is_rebuilt IS 'True when the STLY snapshot L - k is rebuilt from the reservations'' history; NULL when not taken.';
COMMENT ON COLUMN mart.pace.ly_actual_rooms_sold IS 'Last year''s final actual: rooms sold on last year''s night L (the same holiday or event a year earlier, else D - 364; mart.occupancy_daily.rooms_sold, a night already lived); NULL when not lived or not in the warehouse.';
COMMENT ON COLUMN mart.pace.ly_actual_room_revenue_net IS 'Last year''s final actual net room revenue of last year''s night L (mart.occupancy_daily.room_revenue_net, a night already lived); NULL when not lived or not in the warehouse.';

-- mart.stay_nights: key (property_id, reservation_room_id, stay_date), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE mart.stay_nights_0044 (
    property_id BIGINT NOT NULL,
    reservation_id BIGINT NOT NULL,
    reservation_room_id BIGINT NOT NULL,
    stay_date DATE NOT NULL,
    arrival DATE NOT NULL,
    departure DATE NOT NULL,
    nights INTEGER NOT NULL,
    night_index INTEGER NOT NULL,
    status VARCHAR NOT NULL,
    is_option BOOLEAN NOT NULL,
    is_cancelled BOOLEAN NOT NULL,
    is_no_show BOOLEAN NOT NULL,
    is_complimentary BOOLEAN NOT NULL,
    room_type_id BIGINT NOT NULL,
    room_id BIGINT,
    room_code VARCHAR,
    rate_plan_id BIGINT,
    rate_plan_code VARCHAR,
    channel VARCHAR,
    source VARCHAR,
    market VARCHAR,
    adults INTEGER NOT NULL,
    children INTEGER NOT NULL,
    persons INTEGER NOT NULL,
    room_revenue_gross DECIMAL(18,2) NOT NULL,
    room_revenue_net DECIMAL(18,2) NOT NULL,
    room_revenue_source VARCHAR NOT NULL,
    is_actual BOOLEAN NOT NULL
);
INSERT INTO mart.stay_nights_0044 SELECT * FROM mart.stay_nights;
DROP TABLE mart.stay_nights;
ALTER TABLE mart.stay_nights_0044 RENAME TO stay_nights;
COMMENT ON TABLE mart.stay_nights IS 'One row per room entry and night (arrival inclusive, departure exclusive), current state of every room entry whatever its status, with the night''s room revenue (docs/kpi.md, Room night and Per-night room revenue).';
COMMENT ON COLUMN mart.stay_nights.property_id IS 'Property id.';
COMMENT ON COLUMN mart.stay_nights.reservation_id IS 'Reservation of the room entry.';
COMMENT ON COLUMN mart.stay_nights.reservation_room_id IS 'Room entry (core.reservation_rooms).';
COMMENT ON COLUMN mart.stay_nights.stay_date IS 'The night (the date the guest goes to bed).';
COMMENT ON COLUMN mart.stay_nights.arrival IS 'Arrival of the room entry.';
COMMENT ON COLUMN mart.stay_nights.departure IS 'Departure of the room entry (exclusive).';
COMMENT ON COLUMN mart.stay_nights.nights IS 'Nights of the room entry (departure - arrival).';
COMMENT ON COLUMN mart.stay_nights.night_index IS 'Position of the night in the stay, 0 for the arrival night.';
COMMENT ON COLUMN mart.stay_nights.status IS 'Status of the room entry: option, confirmed, checked_in, checked_out or cancelled. On the books = confirmed, checked_in, checked_out.';
COMMENT ON COLUMN mart.stay_nights.is_option IS 'True when the room entry is in option (never on the books, never a room sold).';
COMMENT ON COLUMN mart.stay_nights.is_cancelled IS 'True when the room entry is cancelled (no-shows included).';
COMMENT ON COLUMN mart.stay_nights.is_no_show IS 'True when the room entry is a no-show: cancelled by the hotel on or after its arrival date, and a firm booking (not an option lapsing; for an entry never seen before its cancellation, the accommodation line posted on its arrival date decides). Never a room sold; its charge is a fee (mart.room_fees, fee_kind no_show).';
COMMENT ON COLUMN mart.stay_nights.is_complimentary IS 'True for a room not cancelled whose stay total is 0.00 (complimentary): counted in rooms_complimentary, not in rooms sold.';
COMMENT ON COLUMN mart.stay_nights.room_type_id IS 'Room type booked.';
COMMENT ON COLUMN mart.stay_nights.room_id IS 'Physical room assigned; NULL when none.';
COMMENT ON COLUMN mart.stay_nights.room_code IS 'Number of the room assigned; NULL when none.';
COMMENT ON COLUMN mart.stay_nights.rate_plan_id IS 'Rate plan of the room entry; NULL when none.';
COMMENT ON COLUMN mart.stay_nights.rate_plan_code IS 'Code of the rate plan of the room entry (core.reservation_rooms.rate_plan_code), negotiated plans included (GET /rate-plans leaves them out, so core.rate_plans has no row for them); NULL when none.';
COMMENT ON COLUMN mart.stay_nights.channel IS 'Channel of the reservation (where it was booked).';
COMMENT ON COLUMN mart.stay_nights.source IS 'Source of the reservation (which relationship brought it).';
COMMENT ON COLUMN mart.stay_nights.market IS 'Market segment of the reservation (why the guest travels).';
COMMENT ON COLUMN mart.stay_nights.adults IS 'Adults in the room.';
COMMENT ON COLUMN mart.stay_nights.children IS 'Children in the room, all age brackets.';
COMMENT ON COLUMN mart.stay_nights.persons IS 'Adults plus children of age brackets that count as persons (an unknown bracket counts).';
COMMENT ON COLUMN mart.stay_nights.room_revenue_gross IS 'Room revenue of the night sold, VAT included: for a night already lived (is_actual) the accommodation lines posted on the room''s folios for that date that pay a night (a line posted before arrival counts on the first night), reversals included, 0 when none; for a night to come its share of the stay total split evenly, rounding on the last night (0 when cancelled). No-show, cancellation and early-departure fees are not the revenue of a night: they are in mart.room_fees (a no-show''s night is 0 here).';
COMMENT ON COLUMN mart.stay_nights.room_revenue_net IS 'Room revenue of the night net of VAT: the folio lines'' own net for a lived night; gross / (1 + accommodation VAT) rounded half-up per night for a night to come.';
COMMENT ON COLUMN mart.stay_nights.room_revenue_source IS 'folio (lived night, from posted lines) or stay (night to come, from the stay total).';
COMMENT ON COLUMN mart.stay_nights.is_actual IS 'True when the night is before the property''s business date (lived).';

-- core.folio_lines: key (property_id, folio_line_id), kept by the writing path (pipelines/warehouse/keys.py)
CREATE TABLE core.folio_lines_0044 (
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
    fetched_at TIMESTAMP WITH TIME ZONE NOT NULL
);
INSERT INTO core.folio_lines_0044 SELECT * FROM core.folio_lines;
DROP TABLE core.folio_lines;
ALTER TABLE core.folio_lines_0044 RENAME TO folio_lines;
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
COMMENT ON COLUMN core.folio_lines.last_seen_run IS 'Run that last changed the row (a read that found it unchanged writes nothing; every read is in raw.payloads).';
COMMENT ON COLUMN core.folio_lines.fetched_at IS 'Server time (HTTP Date) of the fetch that last changed the row.';

