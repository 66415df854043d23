-- Revenue marts (issue 6): built from core.* by the polars transforms of pipelines/transforms/,
-- replaced per property by the Dagster assets of pipelines/defs/marts.py (and `pmsw sync`).
-- Definitions: docs/kpi.md. Money is DECIMAL(18,2), every money column says _net or _gross.
CREATE SCHEMA IF NOT EXISTS mart;

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
COMMENT ON COLUMN mart.stay_nights.is_no_show IS 'True when the room was cancelled by the night audit as a no-show (its last stay.cancelled event says reason no_show): its charged night is room revenue, never a room sold.';
COMMENT ON COLUMN mart.stay_nights.is_complimentary IS 'True for a room not cancelled whose stay total is 0.00 (complimentary): counted in rooms_complimentary, not in rooms sold.';
COMMENT ON COLUMN mart.stay_nights.room_type_id IS 'Room type booked.';
COMMENT ON COLUMN mart.stay_nights.room_id IS 'Physical room assigned; NULL when none.';
COMMENT ON COLUMN mart.stay_nights.room_code IS 'Number of the room assigned; NULL when none.';
COMMENT ON COLUMN mart.stay_nights.rate_plan_id IS 'Rate plan of the room entry; NULL when none.';
COMMENT ON COLUMN mart.stay_nights.channel IS 'Channel of the reservation (where it was booked).';
COMMENT ON COLUMN mart.stay_nights.source IS 'Source of the reservation (which relationship brought it).';
COMMENT ON COLUMN mart.stay_nights.market IS 'Market segment of the reservation (why the guest travels).';
COMMENT ON COLUMN mart.stay_nights.adults IS 'Adults in the room.';
COMMENT ON COLUMN mart.stay_nights.children IS 'Children in the room, all age brackets.';
COMMENT ON COLUMN mart.stay_nights.persons IS 'Adults plus children of age brackets that count as persons (an unknown bracket counts).';
COMMENT ON COLUMN mart.stay_nights.room_revenue_gross IS 'Room revenue of the night, VAT included: for a night already lived (is_actual) the accommodation lines posted on the room''s folios for that date, reversals included (0 when none); for a night to come its share of the stay total split evenly, rounding on the last night (0 when cancelled).';
COMMENT ON COLUMN mart.stay_nights.room_revenue_net IS 'Room revenue of the night net of VAT: the folio lines'' own net for a lived night; gross / (1 + accommodation VAT) rounded half-up per night for a night to come.';
COMMENT ON COLUMN mart.stay_nights.room_revenue_source IS 'folio (lived night, from posted lines) or stay (night to come, from the stay total).';
COMMENT ON COLUMN mart.stay_nights.is_actual IS 'True when the night is before the property''s business date (lived).';

CREATE TABLE mart.occupancy_daily (
    property_id BIGINT NOT NULL,
    stay_date DATE NOT NULL,
    rooms_available INTEGER NOT NULL,
    rooms_out_of_order INTEGER NOT NULL,
    rooms_available_net_ooo INTEGER NOT NULL,
    rooms_sold INTEGER NOT NULL,
    rooms_complimentary INTEGER NOT NULL,
    rooms_option INTEGER NOT NULL,
    occupancy_pct DECIMAL(7,2),
    occupancy_net_ooo_pct DECIMAL(7,2),
    room_revenue_net DECIMAL(18,2) NOT NULL,
    room_revenue_gross DECIMAL(18,2) NOT NULL,
    adr_net DECIMAL(18,2),
    revpar_net DECIMAL(18,2),
    total_revenue_net DECIMAL(18,2) NOT NULL,
    trevpar_net DECIMAL(18,2),
    arrivals INTEGER NOT NULL,
    departures INTEGER NOT NULL,
    persons INTEGER NOT NULL,
    is_actual BOOLEAN NOT NULL,
    PRIMARY KEY (property_id, stay_date)
);
COMMENT ON TABLE mart.occupancy_daily IS 'Supply, rooms sold, occupancy, ADR, RevPAR and TRevPAR per property and night, every date from the first to the last night or availability date known (docs/kpi.md, Occupancy, ADR, RevPAR, TRevPAR).';
CREATE TABLE mart.occupancy_by_room_type (
    property_id BIGINT NOT NULL,
    stay_date DATE NOT NULL,
    room_type_id BIGINT NOT NULL,
    rooms_available INTEGER NOT NULL,
    rooms_out_of_order INTEGER NOT NULL,
    rooms_available_net_ooo INTEGER NOT NULL,
    rooms_sold INTEGER NOT NULL,
    rooms_complimentary INTEGER NOT NULL,
    rooms_option INTEGER NOT NULL,
    occupancy_pct DECIMAL(7,2),
    occupancy_net_ooo_pct DECIMAL(7,2),
    room_revenue_net DECIMAL(18,2) NOT NULL,
    room_revenue_gross DECIMAL(18,2) NOT NULL,
    adr_net DECIMAL(18,2),
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
COMMENT ON COLUMN mart.occupancy_daily.rooms_available IS 'Rooms on sale, STR basis: total of the availability read on that date (the latest read on or before it), else the sellable rooms of core.rooms.';
COMMENT ON COLUMN mart.occupancy_daily.rooms_out_of_order IS 'Rooms out of order that night, from the same availability read (0 without one).';
COMMENT ON COLUMN mart.occupancy_daily.rooms_available_net_ooo IS 'rooms_available - rooms_out_of_order (the OPERA-style basis).';
COMMENT ON COLUMN mart.occupancy_daily.rooms_sold IS 'Room nights on the books (confirmed, checked_in, checked_out), not complimentary, not a no-show.';
COMMENT ON COLUMN mart.occupancy_daily.rooms_complimentary IS 'Room nights on the books of complimentary rooms (stay total 0.00).';
COMMENT ON COLUMN mart.occupancy_daily.rooms_option IS 'Room nights in option (never in rooms sold).';
COMMENT ON COLUMN mart.occupancy_daily.occupancy_pct IS 'rooms_sold / rooms_available x 100, two decimals half-up; NULL when no room is available.';
COMMENT ON COLUMN mart.occupancy_daily.occupancy_net_ooo_pct IS 'rooms_sold / rooms_available_net_ooo x 100, two decimals half-up; NULL when the base is 0.';
COMMENT ON COLUMN mart.occupancy_daily.room_revenue_net IS 'Room revenue net of VAT of every night not in option (no-show charges included, cancelled future nights 0): sum of mart.stay_nights.room_revenue_net.';
COMMENT ON COLUMN mart.occupancy_daily.room_revenue_gross IS 'The same, VAT included.';
COMMENT ON COLUMN mart.occupancy_daily.adr_net IS 'Average daily rate: room_revenue_net / rooms_sold, half-up to the cent; NULL with no room sold.';
COMMENT ON COLUMN mart.occupancy_daily.revpar_net IS 'Revenue per available room: room_revenue_net / rooms_available, half-up to the cent; NULL when no room is available.';
COMMENT ON COLUMN mart.occupancy_daily.total_revenue_net IS 'room_revenue_net + net food and beverage and other revenue posted that date (mart.revenue_daily); city tax is never revenue.';
COMMENT ON COLUMN mart.occupancy_daily.trevpar_net IS 'total_revenue_net / rooms_available, half-up to the cent; NULL when no room is available.';
COMMENT ON COLUMN mart.occupancy_daily.arrivals IS 'Rooms on the books arriving that date (complimentary included, no-shows not).';
COMMENT ON COLUMN mart.occupancy_daily.departures IS 'Rooms on the books leaving that date (the morning after their last night).';
COMMENT ON COLUMN mart.occupancy_daily.persons IS 'Persons of the rooms in house that night (sold and complimentary).';
COMMENT ON COLUMN mart.occupancy_daily.is_actual IS 'True when the date is before the property''s business date (lived).';

COMMENT ON COLUMN mart.occupancy_by_room_type.property_id IS 'Property id.';
COMMENT ON COLUMN mart.occupancy_by_room_type.stay_date IS 'The night.';
COMMENT ON COLUMN mart.occupancy_by_room_type.room_type_id IS 'Room type (of the assigned room, else the booked one).';
COMMENT ON COLUMN mart.occupancy_by_room_type.rooms_available IS 'Rooms on sale, STR basis: total of the availability read on that date (the latest read on or before it), else the sellable rooms of core.rooms.';
COMMENT ON COLUMN mart.occupancy_by_room_type.rooms_out_of_order IS 'Rooms out of order that night, from the same availability read (0 without one).';
COMMENT ON COLUMN mart.occupancy_by_room_type.rooms_available_net_ooo IS 'rooms_available - rooms_out_of_order (the OPERA-style basis).';
COMMENT ON COLUMN mart.occupancy_by_room_type.rooms_sold IS 'Room nights on the books (confirmed, checked_in, checked_out), not complimentary, not a no-show.';
COMMENT ON COLUMN mart.occupancy_by_room_type.rooms_complimentary IS 'Room nights on the books of complimentary rooms (stay total 0.00).';
COMMENT ON COLUMN mart.occupancy_by_room_type.rooms_option IS 'Room nights in option (never in rooms sold).';
COMMENT ON COLUMN mart.occupancy_by_room_type.occupancy_pct IS 'rooms_sold / rooms_available x 100, two decimals half-up; NULL when no room is available.';
COMMENT ON COLUMN mart.occupancy_by_room_type.occupancy_net_ooo_pct IS 'rooms_sold / rooms_available_net_ooo x 100, two decimals half-up; NULL when the base is 0.';
COMMENT ON COLUMN mart.occupancy_by_room_type.room_revenue_net IS 'Room revenue net of VAT of every night not in option (no-show charges included, cancelled future nights 0): sum of mart.stay_nights.room_revenue_net.';
COMMENT ON COLUMN mart.occupancy_by_room_type.room_revenue_gross IS 'The same, VAT included.';
COMMENT ON COLUMN mart.occupancy_by_room_type.adr_net IS 'Average daily rate: room_revenue_net / rooms_sold, half-up to the cent; NULL with no room sold.';
COMMENT ON COLUMN mart.occupancy_by_room_type.revpar_net IS 'Revenue per available room: room_revenue_net / rooms_available, half-up to the cent; NULL when no room is available.';
COMMENT ON COLUMN mart.occupancy_by_room_type.total_revenue_net IS 'room_revenue_net + net food and beverage and other revenue posted that date (mart.revenue_daily); city tax is never revenue.';
COMMENT ON COLUMN mart.occupancy_by_room_type.trevpar_net IS 'total_revenue_net / rooms_available, half-up to the cent; NULL when no room is available.';
COMMENT ON COLUMN mart.occupancy_by_room_type.arrivals IS 'Rooms on the books arriving that date (complimentary included, no-shows not).';
COMMENT ON COLUMN mart.occupancy_by_room_type.departures IS 'Rooms on the books leaving that date (the morning after their last night).';
COMMENT ON COLUMN mart.occupancy_by_room_type.persons IS 'Persons of the rooms in house that night (sold and complimentary).';
COMMENT ON COLUMN mart.occupancy_by_room_type.is_actual IS 'True when the date is before the property''s business date (lived).';

CREATE TABLE mart.otb_snapshots (
    property_id BIGINT NOT NULL,
    snapshot_date DATE NOT NULL,
    stay_date DATE NOT NULL,
    rooms_otb INTEGER NOT NULL,
    revenue_otb_net DECIMAL(18,2) NOT NULL,
    rooms_option INTEGER NOT NULL,
    PRIMARY KEY (property_id, snapshot_date, stay_date)
);
COMMENT ON TABLE mart.otb_snapshots IS 'On the books at the end of each snapshot date for each stay date up to 365 days ahead, every snapshot date from the first to the last business date seen (gaps filled from the room versions; history before the first sync rebuilt as docs/kpi.md says).';
COMMENT ON COLUMN mart.otb_snapshots.property_id IS 'Property id.';
COMMENT ON COLUMN mart.otb_snapshots.snapshot_date IS 'Snapshot date S (local date of the property): the books as they stood at the end of S.';
COMMENT ON COLUMN mart.otb_snapshots.stay_date IS 'Stay date D, S <= D <= S + 365.';
COMMENT ON COLUMN mart.otb_snapshots.rooms_otb IS 'Room nights for D of the room versions valid at the end of S, not cancelled, not in option (complimentary rooms included).';
COMMENT ON COLUMN mart.otb_snapshots.revenue_otb_net IS 'Net room revenue of those room nights: each version''s total split evenly over its nights, net of accommodation VAT.';
COMMENT ON COLUMN mart.otb_snapshots.rooms_option IS 'Room nights for D in option at the end of S (apart, never in rooms_otb).';

CREATE TABLE mart.pickup (
    property_id BIGINT NOT NULL,
    as_of_date DATE NOT NULL,
    stay_date DATE NOT NULL,
    window_days INTEGER NOT NULL,
    rooms_new INTEGER NOT NULL,
    rooms_cancelled INTEGER NOT NULL,
    rooms_net INTEGER NOT NULL,
    revenue_net DECIMAL(18,2) NOT NULL,
    PRIMARY KEY (property_id, as_of_date, stay_date, window_days)
);
COMMENT ON TABLE mart.pickup IS 'Pickup over the window (as_of_date - window_days, as_of_date] for each stay date up to 365 days ahead: OTB(S) - OTB(S - W) with its new and cancelled parts. Rows where all four measures are 0 are left out: a missing row means no pickup.';
COMMENT ON COLUMN mart.pickup.property_id IS 'Property id.';
COMMENT ON COLUMN mart.pickup.as_of_date IS 'As-of date S (a snapshot date).';
COMMENT ON COLUMN mart.pickup.stay_date IS 'Stay date D, S <= D <= S + 365.';
COMMENT ON COLUMN mart.pickup.window_days IS 'Window W in days: 1, 7, 14 or 30.';
COMMENT ON COLUMN mart.pickup.rooms_new IS 'Room nights for D that came onto the books during the window (new booking, option confirmed, date moved onto D), counted per day.';
COMMENT ON COLUMN mart.pickup.rooms_cancelled IS 'Room nights for D that went off the books during the window (cancelled, moved away, back to option), counted per day.';
COMMENT ON COLUMN mart.pickup.rooms_net IS 'rooms_new - rooms_cancelled = rooms_otb(S, D) - rooms_otb(S - W, D).';
COMMENT ON COLUMN mart.pickup.revenue_net IS 'revenue_otb_net(S, D) - revenue_otb_net(S - W, D): rate changes included.';

CREATE TABLE mart.pace (
    property_id BIGINT NOT NULL,
    stay_date DATE NOT NULL,
    days_before INTEGER NOT NULL,
    rooms_otb INTEGER NOT NULL,
    revenue_otb_net DECIMAL(18,2) NOT NULL,
    stly_rooms_otb INTEGER,
    stly_revenue_otb_net DECIMAL(18,2),
    PRIMARY KEY (property_id, stay_date, days_before)
);
COMMENT ON TABLE mart.pace IS 'On the books by days before arrival, beside the same time last year (STLY: the stay date 364 days earlier, same weekday, at the same days before).';
COMMENT ON COLUMN mart.pace.property_id IS 'Property id.';
COMMENT ON COLUMN mart.pace.stay_date IS 'Stay date D.';
COMMENT ON COLUMN mart.pace.days_before IS 'k = D - S, the days between the snapshot S and the stay date (0 = the night itself).';
COMMENT ON COLUMN mart.pace.rooms_otb IS 'mart.otb_snapshots.rooms_otb for snapshot D - k and stay date D.';
COMMENT ON COLUMN mart.pace.revenue_otb_net IS 'mart.otb_snapshots.revenue_otb_net for snapshot D - k and stay date D.';
COMMENT ON COLUMN mart.pace.stly_rooms_otb IS 'Rooms on the books for stay date D - 364 at snapshot D - 364 - k; NULL when that snapshot was not taken.';
COMMENT ON COLUMN mart.pace.stly_revenue_otb_net IS 'Net room revenue on the books for D - 364 at snapshot D - 364 - k; NULL when not taken.';

CREATE TABLE mart.revenue_daily (
    property_id BIGINT NOT NULL,
    date DATE NOT NULL,
    department VARCHAR NOT NULL,
    is_revenue BOOLEAN NOT NULL,
    revenue_net DECIMAL(18,2) NOT NULL,
    revenue_gross DECIMAL(18,2) NOT NULL,
    vat DECIMAL(18,2) NOT NULL,
    PRIMARY KEY (property_id, date, department)
);
COMMENT ON TABLE mart.revenue_daily IS 'Charge lines of the folios by posting date and department, reversals included (so net of reversals); payments are not revenue. City tax is listed apart with is_revenue false: totals of revenue sum the rows where is_revenue.';
COMMENT ON COLUMN mart.revenue_daily.property_id IS 'Property id.';
COMMENT ON COLUMN mart.revenue_daily.date IS 'Business date the lines were posted for (posted_on).';
COMMENT ON COLUMN mart.revenue_daily.department IS 'accommodation, food_beverage, other or city_tax: the department of the line''s item (a line without a known item is other, or accommodation when its type is accommodation).';
COMMENT ON COLUMN mart.revenue_daily.is_revenue IS 'False for city_tax (outside VAT, never revenue), true otherwise.';
COMMENT ON COLUMN mart.revenue_daily.revenue_net IS 'Sum of the lines'' amounts net of VAT (core.folio_lines.amount_net).';
COMMENT ON COLUMN mart.revenue_daily.revenue_gross IS 'Sum of the lines'' amounts VAT included.';
COMMENT ON COLUMN mart.revenue_daily.vat IS 'revenue_gross - revenue_net.';

CREATE TABLE mart.segment_daily (
    property_id BIGINT NOT NULL,
    stay_date DATE NOT NULL,
    channel VARCHAR,
    source VARCHAR,
    market VARCHAR,
    rate_plan_id BIGINT,
    room_type_id BIGINT NOT NULL,
    rooms_sold INTEGER NOT NULL,
    room_revenue_net DECIMAL(18,2) NOT NULL,
    adr_net DECIMAL(18,2)
);
COMMENT ON TABLE mart.segment_daily IS 'Rooms sold and room revenue per night and combination of channel, source, market, rate plan and booked room type (separate dimensions; one row per combination, NULL a value of its own). Summed over the rows of a date they give mart.occupancy_daily''s rooms_sold and room_revenue_net. Rows with neither rooms sold nor revenue are left out.';
COMMENT ON COLUMN mart.segment_daily.property_id IS 'Property id.';
COMMENT ON COLUMN mart.segment_daily.stay_date IS 'The night.';
COMMENT ON COLUMN mart.segment_daily.channel IS 'Channel: where the booking was made; NULL when not given.';
COMMENT ON COLUMN mart.segment_daily.source IS 'Source: which relationship brought the booking; NULL when not given.';
COMMENT ON COLUMN mart.segment_daily.market IS 'Market segment: why the guest travels.';
COMMENT ON COLUMN mart.segment_daily.rate_plan_id IS 'Rate plan; NULL when none.';
COMMENT ON COLUMN mart.segment_daily.room_type_id IS 'Room type booked (not the assigned room''s type).';
COMMENT ON COLUMN mart.segment_daily.rooms_sold IS 'Room nights sold (as in mart.occupancy_daily: on the books, not complimentary, not a no-show).';
COMMENT ON COLUMN mart.segment_daily.room_revenue_net IS 'Net room revenue of the nights not in option (no-show charges included).';
COMMENT ON COLUMN mart.segment_daily.adr_net IS 'room_revenue_net / rooms_sold, half-up to the cent; NULL with no room sold.';

CREATE TABLE mart.booking_kpis (
    property_id BIGINT NOT NULL,
    arrival_month DATE NOT NULL,
    channel VARCHAR,
    bookings INTEGER NOT NULL,
    room_nights INTEGER NOT NULL,
    cancellation_rate_bookings DECIMAL(7,4),
    cancellation_rate_room_nights DECIMAL(7,4),
    avg_lead_time_days DECIMAL(9,2),
    alos DECIMAL(9,4),
    no_show_rate DECIMAL(7,4)
);
COMMENT ON TABLE mart.booking_kpis IS 'Bookings by month of arrival (the reservation''s first arrival) and channel, one row per combination, and how they ended. Reservations whose rooms are all still options are not bookings yet. Rates are fractions (0.25 = 25%), NULL when their base is 0.';
COMMENT ON COLUMN mart.booking_kpis.property_id IS 'Property id.';
COMMENT ON COLUMN mart.booking_kpis.arrival_month IS 'First day of the month of the reservation''s first arrival (the cohort).';
COMMENT ON COLUMN mart.booking_kpis.channel IS 'Channel of the reservation; NULL when not given.';
COMMENT ON COLUMN mart.booking_kpis.bookings IS 'Reservations of the cohort.';
COMMENT ON COLUMN mart.booking_kpis.room_nights IS 'Nights of all their room entries, cancelled ones included.';
COMMENT ON COLUMN mart.booking_kpis.cancellation_rate_bookings IS 'Reservations with every room cancelled (no-shows included) / bookings, four decimals.';
COMMENT ON COLUMN mart.booking_kpis.cancellation_rate_room_nights IS 'Cancelled room nights / room nights, four decimals.';
COMMENT ON COLUMN mart.booking_kpis.avg_lead_time_days IS 'Mean over bookings of arrival - creation date (local date of the property), days, two decimals.';
COMMENT ON COLUMN mart.booking_kpis.alos IS 'Average length of stay: room nights / room entries, both not cancelled (per room), four decimals.';
COMMENT ON COLUMN mart.booking_kpis.no_show_rate IS 'No-show room entries / expected arrivals (room entries not cancelled, plus no-shows), four decimals.';
