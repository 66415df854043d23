-- Issue 14, definitions in docs/kpi.md: cancellations counted one way (item 7: how each
-- reservation ended, mart.booking_outcomes, read by mart.booking_kpis and the views), and what
-- is rebuilt from history rather than observed (item 8: is_rebuilt on on-the-books, pickup and
-- pace; last year's final actual beside STLY). The marts are derived data rebuilt by every
-- run: booking_kpis is dropped and created again (the next mart run fills it); the others gain
-- columns (false / NULL until the next run).
CREATE TABLE mart.booking_outcomes (
    property_id BIGINT NOT NULL,
    reservation_id BIGINT NOT NULL,
    channel VARCHAR,
    arrival DATE NOT NULL,
    arrival_month DATE NOT NULL,
    booked_on DATE NOT NULL,
    lead_time_days INTEGER NOT NULL,
    lead_time_bucket VARCHAR NOT NULL,
    lead_time_order INTEGER NOT NULL,
    outcome VARCHAR NOT NULL,
    is_booking BOOLEAN NOT NULL,
    is_cancelled BOOLEAN NOT NULL,
    is_lapsed_option BOOLEAN NOT NULL,
    rooms INTEGER NOT NULL,
    room_nights INTEGER NOT NULL,
    cancelled_rooms INTEGER NOT NULL,
    cancelled_room_nights INTEGER NOT NULL,
    stayed_rooms INTEGER NOT NULL,
    stayed_room_nights INTEGER NOT NULL,
    no_shows INTEGER NOT NULL,
    hotel_cancelled_rooms INTEGER NOT NULL,
    lapsed_option_rooms INTEGER NOT NULL,
    PRIMARY KEY (property_id, reservation_id)
);
COMMENT ON TABLE mart.booking_outcomes IS 'How each reservation ended: the one classification of cancellations, no-shows and lapsed options (docs/kpi.md, Booking outcomes) that mart.booking_kpis and the views (v_cancellation_by_lead_time) both count. A room entry is on the books, a guest cancellation, a no-show, a lapsed option, a hotel cancellation or still an option; a reservation is a firm booking when one of its rooms is on the books, a guest cancellation, a no-show or a hotel cancellation. Dates are the property''s local dates.';
COMMENT ON COLUMN mart.booking_outcomes.property_id IS 'Property id.';
COMMENT ON COLUMN mart.booking_outcomes.reservation_id IS 'Reservation (core.reservations).';
COMMENT ON COLUMN mart.booking_outcomes.channel IS 'Channel of the reservation; NULL when not given.';
COMMENT ON COLUMN mart.booking_outcomes.arrival IS 'First arrival among its room entries.';
COMMENT ON COLUMN mart.booking_outcomes.arrival_month IS 'First day of the month of arrival (the cohort of mart.booking_kpis).';
COMMENT ON COLUMN mart.booking_outcomes.booked_on IS 'Local date (property time zone) the reservation was made (created_at).';
COMMENT ON COLUMN mart.booking_outcomes.lead_time_days IS 'arrival - booked_on, days.';
COMMENT ON COLUMN mart.booking_outcomes.lead_time_bucket IS 'Lead time bucket: 0-1, 2-7, 8-14, 15-30, 31-60, 61-90, 91-180, 181+ days.';
COMMENT ON COLUMN mart.booking_outcomes.lead_time_order IS 'Order of the bucket, 1 (0-1) to 8 (181+).';
COMMENT ON COLUMN mart.booking_outcomes.outcome IS 'How it ended: on_the_books (a room on the books), cancelled (a firm booking every firm room of which the guest cancelled), no_show (no room on the books, a no-show), hotel_cancelled, lapsed_option (no firm room, an option lapsed), option (all rooms still options).';
COMMENT ON COLUMN mart.booking_outcomes.is_booking IS 'A firm booking: at least one room entry on the books, cancelled by the guest, a no-show or cancelled by the hotel after it was confirmed (not a lapsed or open option).';
COMMENT ON COLUMN mart.booking_outcomes.is_cancelled IS 'A firm booking whose firm room entries were all cancelled by the guest: a cancellation.';
COMMENT ON COLUMN mart.booking_outcomes.is_lapsed_option IS 'Not a firm booking, and an option of it lapsed (cancelled by the hotel, not a no-show).';
COMMENT ON COLUMN mart.booking_outcomes.rooms IS 'Firm room entries.';
COMMENT ON COLUMN mart.booking_outcomes.room_nights IS 'Nights of the firm room entries.';
COMMENT ON COLUMN mart.booking_outcomes.cancelled_rooms IS 'Room entries cancelled by the guest.';
COMMENT ON COLUMN mart.booking_outcomes.cancelled_room_nights IS 'Nights of the room entries cancelled by the guest.';
COMMENT ON COLUMN mart.booking_outcomes.stayed_rooms IS 'Room entries on the books (confirmed, checked in or out; complimentary included).';
COMMENT ON COLUMN mart.booking_outcomes.stayed_room_nights IS 'Nights of the room entries on the books.';
COMMENT ON COLUMN mart.booking_outcomes.no_shows IS 'Room entries that were no-shows (docs/kpi.md, No-show).';
COMMENT ON COLUMN mart.booking_outcomes.hotel_cancelled_rooms IS 'Firm room entries cancelled by the hotel that are not no-shows (seen confirmed before).';
COMMENT ON COLUMN mart.booking_outcomes.lapsed_option_rooms IS 'Room entries whose option lapsed (cancelled by the hotel, not a no-show, an option before or first seen cancelled).';

DROP TABLE mart.booking_kpis;
CREATE TABLE mart.booking_kpis (
    property_id BIGINT NOT NULL,
    arrival_month DATE NOT NULL,
    channel VARCHAR,
    bookings INTEGER NOT NULL,
    room_nights INTEGER NOT NULL,
    cancelled_bookings INTEGER NOT NULL,
    cancelled_room_nights INTEGER NOT NULL,
    cancellation_rate_bookings DECIMAL(7,4),
    cancellation_rate_room_nights DECIMAL(7,4),
    avg_lead_time_days DECIMAL(9,2),
    alos DECIMAL(9,4),
    no_shows INTEGER NOT NULL,
    no_show_rate DECIMAL(7,4),
    lapsed_options INTEGER NOT NULL
);
COMMENT ON TABLE mart.booking_kpis IS 'Firm bookings by month of arrival (the reservation''s first arrival) and channel, one row per combination, and how they ended: the sums of mart.booking_outcomes. Cancellation rate = guest cancellations / firm bookings made; no-shows and lapsed options are reported beside it, never inside. Rates are fractions (0.25 = 25%), NULL when their base is 0.';
COMMENT ON COLUMN mart.booking_kpis.property_id IS 'Property id.';
COMMENT ON COLUMN mart.booking_kpis.arrival_month IS 'First day of the month of the reservation''s first arrival (the cohort).';
COMMENT ON COLUMN mart.booking_kpis.channel IS 'Channel of the reservation; NULL when not given.';
COMMENT ON COLUMN mart.booking_kpis.bookings IS 'Firm bookings made (mart.booking_outcomes.is_booking): options that lapsed or are still open are not bookings.';
COMMENT ON COLUMN mart.booking_kpis.room_nights IS 'Nights of their firm room entries, cancelled ones included.';
COMMENT ON COLUMN mart.booking_kpis.cancelled_bookings IS 'Firm bookings cancelled by the guest (every firm room).';
COMMENT ON COLUMN mart.booking_kpis.cancelled_room_nights IS 'Nights of the room entries cancelled by the guest.';
COMMENT ON COLUMN mart.booking_kpis.cancellation_rate_bookings IS 'cancelled_bookings / bookings (no-shows and lapsed options not included), four decimals.';
COMMENT ON COLUMN mart.booking_kpis.cancellation_rate_room_nights IS 'cancelled_room_nights / room_nights, four decimals.';
COMMENT ON COLUMN mart.booking_kpis.avg_lead_time_days IS 'Mean over bookings of arrival - booking date (local date of the property), days, two decimals.';
COMMENT ON COLUMN mart.booking_kpis.alos IS 'Average length of stay: room nights / room entries, both on the books (per room), four decimals.';
COMMENT ON COLUMN mart.booking_kpis.no_shows IS 'No-show room entries of the bookings (beside the cancellations, not in them).';
COMMENT ON COLUMN mart.booking_kpis.no_show_rate IS 'no_shows / expected arrivals (room entries on the books, plus no-shows), four decimals.';
COMMENT ON COLUMN mart.booking_kpis.lapsed_options IS 'Reservations of the cohort that were only options and lapsed (not bookings).';
ALTER TABLE mart.otb_snapshots ADD COLUMN is_rebuilt BOOLEAN NOT NULL DEFAULT false;
COMMENT ON COLUMN mart.otb_snapshots.is_rebuilt IS 'True when the snapshot date is before the first business date the warehouse saw (its first sync): the books as they stood then are rebuilt from history (docs/kpi.md, History before the first sync), not observed.';
ALTER TABLE mart.pickup ADD COLUMN is_rebuilt BOOLEAN NOT NULL DEFAULT false;
COMMENT ON COLUMN mart.pickup.is_rebuilt IS 'True when the start of the window (as_of_date - window_days) is before the first business date the warehouse saw: part of the pickup comes from rebuilt books.';
ALTER TABLE mart.pace ADD COLUMN is_rebuilt BOOLEAN NOT NULL DEFAULT false;
COMMENT ON COLUMN mart.pace.is_rebuilt IS 'True when the snapshot D - k is rebuilt (mart.otb_snapshots.is_rebuilt).';
ALTER TABLE mart.pace ADD COLUMN stly_is_rebuilt BOOLEAN;
COMMENT ON COLUMN mart.pace.stly_is_rebuilt IS 'True when the STLY snapshot D - 364 - k is rebuilt; NULL when not taken.';
ALTER TABLE mart.pace ADD COLUMN ly_actual_rooms_sold INTEGER;
COMMENT ON COLUMN mart.pace.ly_actual_rooms_sold IS 'Last year''s final actual: rooms sold on the stay date D - 364 (mart.occupancy_daily.rooms_sold, a night already lived); NULL when not lived or not in the warehouse.';
ALTER TABLE mart.pace ADD COLUMN ly_actual_room_revenue_net DECIMAL(18,2);
COMMENT ON COLUMN mart.pace.ly_actual_room_revenue_net IS 'Last year''s final actual net room revenue of D - 364 (mart.occupancy_daily.room_revenue_net, a night already lived); NULL when not lived or not in the warehouse.';
