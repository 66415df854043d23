-- Issue 14 (figures a revenue manager and a controller would sign), definitions in docs/kpi.md:
-- the departments as a reference table (item 1); no-show, cancellation and early-departure fees
-- apart from the nights sold (item 3: mart.room_fees, and the nights / fees / ADR columns);
-- the room revenue tie-out (item 4); every night's rate plan code (item 6); rooms in the
-- property and sellable rooms (item 9). The marts are derived data rebuilt by every run, so
-- the changed ones are dropped and created again (the next mart run fills them).
CREATE TABLE mart.departments (
    department VARCHAR PRIMARY KEY,
    label VARCHAR NOT NULL,
    is_revenue BOOLEAN NOT NULL,
    position INTEGER NOT NULL
);
COMMENT ON TABLE mart.departments IS 'The departments of revenue, one row each: written from pipelines/transforms/departments.py DEPARTMENTS (the one definition the marts, reports, views and notebooks use) every time the views are applied. Join it rather than spelling a department.';
COMMENT ON COLUMN mart.departments.department IS 'Department code as in core.items.department and mart.revenue_daily.department: accommodation, food_beverage, other, city_tax.';
COMMENT ON COLUMN mart.departments.label IS 'Name to show.';
COMMENT ON COLUMN mart.departments.is_revenue IS 'False for city tax (collected for the city, outside VAT, never revenue).';
COMMENT ON COLUMN mart.departments.position IS 'Order of the departments in reports and views.';

DROP TABLE mart.stay_nights;
DROP TABLE mart.occupancy_daily;
DROP TABLE mart.occupancy_by_room_type;
DROP TABLE mart.segment_daily;

CREATE TABLE mart.stay_nights (
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
    is_actual BOOLEAN NOT NULL,
    PRIMARY KEY (property_id, reservation_room_id, stay_date)
);
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
COMMENT ON COLUMN mart.stay_nights.is_no_show IS 'True when the room was cancelled by the night audit as a no-show: never a room sold; its charge is a fee (mart.room_fees, fee_kind no_show).';
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

CREATE TABLE mart.occupancy_daily (
    property_id BIGINT NOT NULL,
    stay_date DATE NOT NULL,
    rooms_in_property INTEGER NOT NULL,
    rooms_sellable INTEGER NOT NULL,
    rooms_available INTEGER NOT NULL,
    rooms_out_of_order INTEGER NOT NULL,
    rooms_available_net_ooo INTEGER NOT NULL,
    rooms_sold INTEGER NOT NULL,
    rooms_complimentary INTEGER NOT NULL,
    rooms_option INTEGER NOT NULL,
    occupancy_pct DECIMAL(7,2),
    occupancy_net_ooo_pct DECIMAL(7,2),
    room_revenue_nights_net DECIMAL(18,2) NOT NULL,
    room_revenue_fees_net DECIMAL(18,2) NOT NULL,
    room_revenue_net DECIMAL(18,2) NOT NULL,
    room_revenue_gross DECIMAL(18,2) NOT NULL,
    adr_net DECIMAL(18,2),
    adr_incl_fees_net DECIMAL(18,2),
    revpar_net DECIMAL(18,2),
    total_revenue_net DECIMAL(18,2) NOT NULL,
    trevpar_net DECIMAL(18,2),
    arrivals INTEGER NOT NULL,
    departures INTEGER NOT NULL,
    persons INTEGER NOT NULL,
    is_actual BOOLEAN NOT NULL,
    PRIMARY KEY (property_id, stay_date)
);
COMMENT ON TABLE mart.occupancy_daily IS 'Supply (rooms in the property, sellable, out of order), rooms sold, occupancy, ADR (of the nights sold, and with fees), RevPAR and TRevPAR per property and night, every date from the first to the last night or availability date known (docs/kpi.md, Occupancy, ADR, RevPAR, TRevPAR).';
CREATE TABLE mart.occupancy_by_room_type (
    property_id BIGINT NOT NULL,
    stay_date DATE NOT NULL,
    room_type_id BIGINT NOT NULL,
    rooms_in_property INTEGER NOT NULL,
    rooms_sellable INTEGER NOT NULL,
    rooms_available INTEGER NOT NULL,
    rooms_out_of_order INTEGER NOT NULL,
    rooms_available_net_ooo INTEGER NOT NULL,
    rooms_sold INTEGER NOT NULL,
    rooms_complimentary INTEGER NOT NULL,
    rooms_option INTEGER NOT NULL,
    occupancy_pct DECIMAL(7,2),
    occupancy_net_ooo_pct DECIMAL(7,2),
    room_revenue_nights_net DECIMAL(18,2) NOT NULL,
    room_revenue_fees_net DECIMAL(18,2) NOT NULL,
    room_revenue_net DECIMAL(18,2) NOT NULL,
    room_revenue_gross DECIMAL(18,2) NOT NULL,
    adr_net DECIMAL(18,2),
    adr_incl_fees_net DECIMAL(18,2),
    revpar_net DECIMAL(18,2),
    total_revenue_net DECIMAL(18,2) NOT NULL,
    trevpar_net DECIMAL(18,2),
    arrivals INTEGER NOT NULL,
    departures INTEGER NOT NULL,
    persons INTEGER NOT NULL,
    is_actual BOOLEAN NOT NULL,
    PRIMARY KEY (property_id, stay_date, room_type_id)
);
COMMENT ON TABLE mart.occupancy_by_room_type IS 'mart.occupancy_daily split by room type: a room night counts on the type of the assigned room, else the booked type (as the PMS counts availability); other revenue counts for the type of the room entry whose folio holds it, lines of no room entry only in the daily table.';
COMMENT ON COLUMN mart.occupancy_daily.property_id IS 'Property id.';
COMMENT ON COLUMN mart.occupancy_daily.stay_date IS 'The night.';
COMMENT ON COLUMN mart.occupancy_daily.rooms_in_property IS 'Rooms of the property (of the type), sellable or not: every room of core.rooms.';
COMMENT ON COLUMN mart.occupancy_daily.rooms_sellable IS 'Rooms the PMS sells: total of the availability read on that date (the latest read on or before it), else the sellable rooms of core.rooms (78 of Rome''s 80 in the sandbox).';
COMMENT ON COLUMN mart.occupancy_daily.rooms_available IS 'Supply of occupancy_pct, RevPAR and TRevPAR, STR and USALI basis: rooms_in_property. Rooms out of order stay in; STR and USALI take a room out only when it is out of order six months or more, or the hotel closed 30 days or more, which the API does not report.';
COMMENT ON COLUMN mart.occupancy_daily.rooms_out_of_order IS 'Rooms out of order that night (of the sellable ones), from the same availability read (0 without one).';
COMMENT ON COLUMN mart.occupancy_daily.rooms_available_net_ooo IS 'rooms_sellable - rooms_out_of_order (the OPERA-style basis: capacity on sale minus out of order).';
COMMENT ON COLUMN mart.occupancy_daily.rooms_sold IS 'Room nights on the books (confirmed, checked_in, checked_out), not complimentary, not a no-show.';
COMMENT ON COLUMN mart.occupancy_daily.rooms_complimentary IS 'Room nights on the books of complimentary rooms (stay total 0.00).';
COMMENT ON COLUMN mart.occupancy_daily.rooms_option IS 'Room nights in option (never in rooms sold).';
COMMENT ON COLUMN mart.occupancy_daily.occupancy_pct IS 'rooms_sold / rooms_available (rooms in the property) x 100, two decimals half-up; NULL when no room is available.';
COMMENT ON COLUMN mart.occupancy_daily.occupancy_net_ooo_pct IS 'rooms_sold / rooms_available_net_ooo x 100, two decimals half-up; NULL when the base is 0.';
COMMENT ON COLUMN mart.occupancy_daily.room_revenue_nights_net IS 'Net revenue of the nights (mart.stay_nights.room_revenue_net of the nights not in option): what the rooms sold were sold for; complimentary and cancelled nights 0.';
COMMENT ON COLUMN mart.occupancy_daily.room_revenue_fees_net IS 'Net no-show, cancellation and early-departure fees posted that date (mart.room_fees): rooms revenue apart from the nights sold (USALI).';
COMMENT ON COLUMN mart.occupancy_daily.room_revenue_net IS 'Rooms revenue net of VAT: room_revenue_nights_net + room_revenue_fees_net. On the dates closed it ties to the folios'' accommodation lines (mart.revenue_tieout).';
COMMENT ON COLUMN mart.occupancy_daily.room_revenue_gross IS 'The same, VAT included (nights and fees).';
COMMENT ON COLUMN mart.occupancy_daily.adr_net IS 'Average daily rate of the nights sold: room_revenue_nights_net / rooms_sold, half-up to the cent; NULL with no room sold. Fees are not in it.';
COMMENT ON COLUMN mart.occupancy_daily.adr_incl_fees_net IS 'ADR with the fees, as STR counts room revenue (no-show revenue included): room_revenue_net / rooms_sold, half-up; NULL with no room sold.';
COMMENT ON COLUMN mart.occupancy_daily.revpar_net IS 'Revenue per available room: room_revenue_net (fees included) / rooms_available, half-up to the cent; = occupancy x adr_incl_fees_net up to rounding. NULL when no room is available.';
COMMENT ON COLUMN mart.occupancy_daily.total_revenue_net IS 'room_revenue_net (fees included) + net food and beverage and other revenue posted that date (mart.revenue_daily); city tax is never revenue.';
COMMENT ON COLUMN mart.occupancy_daily.trevpar_net IS 'total_revenue_net / rooms_available, half-up to the cent; NULL when no room is available.';
COMMENT ON COLUMN mart.occupancy_daily.arrivals IS 'Rooms on the books arriving that date (complimentary included, no-shows not).';
COMMENT ON COLUMN mart.occupancy_daily.departures IS 'Rooms on the books leaving that date (the morning after their last night).';
COMMENT ON COLUMN mart.occupancy_daily.persons IS 'Persons of the rooms in house that night (sold and complimentary).';
COMMENT ON COLUMN mart.occupancy_daily.is_actual IS 'True when the date is before the property''s business date (lived).';

COMMENT ON COLUMN mart.occupancy_by_room_type.property_id IS 'Property id.';
COMMENT ON COLUMN mart.occupancy_by_room_type.stay_date IS 'The night.';
COMMENT ON COLUMN mart.occupancy_by_room_type.room_type_id IS 'Room type (of the assigned room, else the booked one).';
COMMENT ON COLUMN mart.occupancy_by_room_type.rooms_in_property IS 'Rooms of the property (of the type), sellable or not: every room of core.rooms.';
COMMENT ON COLUMN mart.occupancy_by_room_type.rooms_sellable IS 'Rooms the PMS sells: total of the availability read on that date (the latest read on or before it), else the sellable rooms of core.rooms (78 of Rome''s 80 in the sandbox).';
COMMENT ON COLUMN mart.occupancy_by_room_type.rooms_available IS 'Supply of occupancy_pct, RevPAR and TRevPAR, STR and USALI basis: rooms_in_property. Rooms out of order stay in; STR and USALI take a room out only when it is out of order six months or more, or the hotel closed 30 days or more, which the API does not report.';
COMMENT ON COLUMN mart.occupancy_by_room_type.rooms_out_of_order IS 'Rooms out of order that night (of the sellable ones), from the same availability read (0 without one).';
COMMENT ON COLUMN mart.occupancy_by_room_type.rooms_available_net_ooo IS 'rooms_sellable - rooms_out_of_order (the OPERA-style basis: capacity on sale minus out of order).';
COMMENT ON COLUMN mart.occupancy_by_room_type.rooms_sold IS 'Room nights on the books (confirmed, checked_in, checked_out), not complimentary, not a no-show.';
COMMENT ON COLUMN mart.occupancy_by_room_type.rooms_complimentary IS 'Room nights on the books of complimentary rooms (stay total 0.00).';
COMMENT ON COLUMN mart.occupancy_by_room_type.rooms_option IS 'Room nights in option (never in rooms sold).';
COMMENT ON COLUMN mart.occupancy_by_room_type.occupancy_pct IS 'rooms_sold / rooms_available (rooms in the property) x 100, two decimals half-up; NULL when no room is available.';
COMMENT ON COLUMN mart.occupancy_by_room_type.occupancy_net_ooo_pct IS 'rooms_sold / rooms_available_net_ooo x 100, two decimals half-up; NULL when the base is 0.';
COMMENT ON COLUMN mart.occupancy_by_room_type.room_revenue_nights_net IS 'Net revenue of the nights (mart.stay_nights.room_revenue_net of the nights not in option): what the rooms sold were sold for; complimentary and cancelled nights 0.';
COMMENT ON COLUMN mart.occupancy_by_room_type.room_revenue_fees_net IS 'Net no-show, cancellation and early-departure fees posted that date (mart.room_fees): rooms revenue apart from the nights sold (USALI). By room type: the type of the fee''s room entry; fees of no room entry only in the daily table.';
COMMENT ON COLUMN mart.occupancy_by_room_type.room_revenue_net IS 'Rooms revenue net of VAT: room_revenue_nights_net + room_revenue_fees_net. On the dates closed it ties to the folios'' accommodation lines (mart.revenue_tieout).';
COMMENT ON COLUMN mart.occupancy_by_room_type.room_revenue_gross IS 'The same, VAT included (nights and fees).';
COMMENT ON COLUMN mart.occupancy_by_room_type.adr_net IS 'Average daily rate of the nights sold: room_revenue_nights_net / rooms_sold, half-up to the cent; NULL with no room sold. Fees are not in it.';
COMMENT ON COLUMN mart.occupancy_by_room_type.adr_incl_fees_net IS 'ADR with the fees, as STR counts room revenue (no-show revenue included): room_revenue_net / rooms_sold, half-up; NULL with no room sold.';
COMMENT ON COLUMN mart.occupancy_by_room_type.revpar_net IS 'Revenue per available room: room_revenue_net (fees included) / rooms_available, half-up to the cent; = occupancy x adr_incl_fees_net up to rounding. NULL when no room is available.';
COMMENT ON COLUMN mart.occupancy_by_room_type.total_revenue_net IS 'room_revenue_net (fees included) + net food and beverage and other revenue posted that date (mart.revenue_daily); city tax is never revenue.';
COMMENT ON COLUMN mart.occupancy_by_room_type.trevpar_net IS 'total_revenue_net / rooms_available, half-up to the cent; NULL when no room is available.';
COMMENT ON COLUMN mart.occupancy_by_room_type.arrivals IS 'Rooms on the books arriving that date (complimentary included, no-shows not).';
COMMENT ON COLUMN mart.occupancy_by_room_type.departures IS 'Rooms on the books leaving that date (the morning after their last night).';
COMMENT ON COLUMN mart.occupancy_by_room_type.persons IS 'Persons of the rooms in house that night (sold and complimentary).';
COMMENT ON COLUMN mart.occupancy_by_room_type.is_actual IS 'True when the date is before the property''s business date (lived).';

CREATE TABLE mart.segment_daily (
    property_id BIGINT NOT NULL,
    stay_date DATE NOT NULL,
    channel VARCHAR,
    source VARCHAR,
    market VARCHAR,
    rate_plan_id BIGINT,
    rate_plan_code VARCHAR,
    room_type_id BIGINT,
    rooms_sold INTEGER NOT NULL,
    room_revenue_nights_net DECIMAL(18,2) NOT NULL,
    room_revenue_fees_net DECIMAL(18,2) NOT NULL,
    room_revenue_net DECIMAL(18,2) NOT NULL,
    adr_net DECIMAL(18,2)
);
COMMENT ON TABLE mart.segment_daily IS 'Rooms sold and room revenue per night and combination of channel, source, market, rate plan and booked room type (separate dimensions; one row per combination, NULL a value of its own). Summed over the rows of a date they give mart.occupancy_daily''s rooms_sold and room_revenue_net. Rows with neither rooms sold nor revenue are left out. Fees (mart.room_fees) count on their posting date for the segments of their room entry, all segments NULL for a fee of no room entry.';
COMMENT ON COLUMN mart.segment_daily.property_id IS 'Property id.';
COMMENT ON COLUMN mart.segment_daily.stay_date IS 'The night.';
COMMENT ON COLUMN mart.segment_daily.channel IS 'Channel: where the booking was made; NULL when not given.';
COMMENT ON COLUMN mart.segment_daily.source IS 'Source: which relationship brought the booking; NULL when not given.';
COMMENT ON COLUMN mart.segment_daily.market IS 'Market segment: why the guest travels.';
COMMENT ON COLUMN mart.segment_daily.rate_plan_id IS 'Rate plan; NULL when none.';
COMMENT ON COLUMN mart.segment_daily.rate_plan_code IS 'Code of the rate plan of the room entry (negotiated plans such as CORP included, which core.rate_plans does not list); NULL when none.';
COMMENT ON COLUMN mart.segment_daily.room_type_id IS 'Room type booked (not the assigned room''s type); NULL only for fees of no room entry.';
COMMENT ON COLUMN mart.segment_daily.rooms_sold IS 'Room nights sold (as in mart.occupancy_daily: on the books, not complimentary, not a no-show).';
COMMENT ON COLUMN mart.segment_daily.room_revenue_nights_net IS 'Net revenue of the nights not in option (what the nights were sold for; no fee).';
COMMENT ON COLUMN mart.segment_daily.room_revenue_fees_net IS 'Net no-show, cancellation and early-departure fees posted that date (mart.room_fees).';
COMMENT ON COLUMN mart.segment_daily.room_revenue_net IS 'room_revenue_nights_net + room_revenue_fees_net.';
COMMENT ON COLUMN mart.segment_daily.adr_net IS 'room_revenue_nights_net / rooms_sold (the nights sold, no fee), half-up to the cent; NULL with no room sold.';

CREATE TABLE mart.room_fees (
    property_id BIGINT NOT NULL,
    folio_line_id BIGINT NOT NULL,
    reservation_id BIGINT,
    reservation_room_id BIGINT,
    date DATE NOT NULL,
    fee_kind VARCHAR NOT NULL,
    fee_revenue_net DECIMAL(18,2) NOT NULL,
    fee_revenue_gross DECIMAL(18,2) NOT NULL,
    room_type_id BIGINT,
    room_id BIGINT,
    channel VARCHAR,
    source VARCHAR,
    market VARCHAR,
    rate_plan_id BIGINT,
    rate_plan_code VARCHAR,
    PRIMARY KEY (property_id, folio_line_id)
);
COMMENT ON TABLE mart.room_fees IS 'Accommodation lines of the folios that are rooms revenue but not the revenue of a night sold, one row per line (reversals included): no-show, late-cancellation and early-departure fees (USALI: no-show revenue of the Rooms department, apart from the nights sold). docs/kpi.md, Fees.';
COMMENT ON COLUMN mart.room_fees.property_id IS 'Property id.';
COMMENT ON COLUMN mart.room_fees.folio_line_id IS 'The folio line (core.folio_lines).';
COMMENT ON COLUMN mart.room_fees.reservation_id IS 'Reservation of the line''s folio.';
COMMENT ON COLUMN mart.room_fees.reservation_room_id IS 'Room entry the fee is for: the line''s, else the only entry of its reservation, else the no-show entry it pays (lines of a date paired in id order with the reservation''s no-show entries); NULL when none can be told.';
COMMENT ON COLUMN mart.room_fees.date IS 'Posting date of the line (the business date it was posted on).';
COMMENT ON COLUMN mart.room_fees.fee_kind IS 'no_show (the room entry is a no-show), cancellation (cancelled otherwise), early_departure (posted on or after the departure of a room not cancelled: nights charged beyond the stay), other (a room in option or without a night), unattributed (no room entry).';
COMMENT ON COLUMN mart.room_fees.fee_revenue_net IS 'The line''s amount net of VAT (core.folio_lines.amount_net).';
COMMENT ON COLUMN mart.room_fees.fee_revenue_gross IS 'The line''s amount VAT included.';
COMMENT ON COLUMN mart.room_fees.room_type_id IS 'Room type booked of the room entry; NULL when unattributed.';
COMMENT ON COLUMN mart.room_fees.room_id IS 'Room assigned to the entry; NULL when none.';
COMMENT ON COLUMN mart.room_fees.channel IS 'Channel of the reservation.';
COMMENT ON COLUMN mart.room_fees.source IS 'Source of the reservation.';
COMMENT ON COLUMN mart.room_fees.market IS 'Market segment of the reservation.';
COMMENT ON COLUMN mart.room_fees.rate_plan_id IS 'Rate plan of the room entry.';
COMMENT ON COLUMN mart.room_fees.rate_plan_code IS 'Code of the rate plan of the room entry.';

CREATE TABLE mart.revenue_tieout (
    property_id BIGINT NOT NULL,
    date DATE NOT NULL,
    folio_accommodation_net DECIMAL(18,2) NOT NULL,
    room_revenue_nights_net DECIMAL(18,2) NOT NULL,
    room_revenue_fees_net DECIMAL(18,2) NOT NULL,
    difference_net DECIMAL(18,2) NOT NULL,
    shifted_net DECIMAL(18,2) NOT NULL,
    unexplained_net DECIMAL(18,2) NOT NULL,
    reason VARCHAR,
    PRIMARY KEY (property_id, date)
);
COMMENT ON TABLE mart.revenue_tieout IS 'Room revenue tied to the folios per property and business date closed (before the business date) on which anything was posted or lived. The Dagster asset check revenue_tieout_has_no_unexplained_cent fails on any unexplained cent. docs/kpi.md, Revenue tie-out.';
COMMENT ON COLUMN mart.revenue_tieout.property_id IS 'Property id.';
COMMENT ON COLUMN mart.revenue_tieout.date IS 'Business date (posting date of the lines, the night of the nights).';
COMMENT ON COLUMN mart.revenue_tieout.folio_accommodation_net IS 'Net of the accommodation lines posted that date (core.folio_lines, reversals included, with or without a room entry) = mart.revenue_daily accommodation.';
COMMENT ON COLUMN mart.revenue_tieout.room_revenue_nights_net IS 'mart.occupancy_daily.room_revenue_nights_net of that date.';
COMMENT ON COLUMN mart.revenue_tieout.room_revenue_fees_net IS 'mart.occupancy_daily.room_revenue_fees_net of that date (mart.room_fees posted that date).';
COMMENT ON COLUMN mart.revenue_tieout.difference_net IS 'folio_accommodation_net - room_revenue_nights_net - room_revenue_fees_net.';
COMMENT ON COLUMN mart.revenue_tieout.shifted_net IS 'Night charges posted that date but counted on another night (posted before arrival: on the first night; for a night to come: on none yet), less those counted on this night but posted on another date.';
COMMENT ON COLUMN mart.revenue_tieout.unexplained_net IS 'difference_net - shifted_net: must be 0.00.';
COMMENT ON COLUMN mart.revenue_tieout.reason IS 'NULL when the date ties; ''night charges posted on another date than the night they pay'' when shifted_net explains the difference; ''unexplained'' otherwise.';
