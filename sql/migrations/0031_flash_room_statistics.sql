-- Issue 48, item 3: the Manager Flash's room statistics, each defined once in the occupancy
-- marts (docs/kpi.md, "Room statistics") and read by every report. The marts are derived data
-- rebuilt by every run: the new counts are 0 until the next mart run fills them.
ALTER TABLE mart.occupancy_daily ADD COLUMN rooms_house_use INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mart.occupancy_daily ADD COLUMN rooms_in_house INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mart.occupancy_daily ADD COLUMN no_shows INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mart.occupancy_daily ADD COLUMN walk_ins INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mart.occupancy_by_room_type ADD COLUMN rooms_house_use INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mart.occupancy_by_room_type ADD COLUMN rooms_in_house INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mart.occupancy_by_room_type ADD COLUMN no_shows INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mart.occupancy_by_room_type ADD COLUMN walk_ins INTEGER NOT NULL DEFAULT 0;
COMMENT ON COLUMN mart.occupancy_daily.rooms_complimentary IS 'Room nights on the books of complimentary rooms (stay total 0.00), house use included (rooms_house_use of them); not in rooms sold.';
COMMENT ON COLUMN mart.occupancy_by_room_type.rooms_complimentary IS 'Room nights on the books of complimentary rooms (stay total 0.00), house use included (rooms_house_use of them); not in rooms sold.';
COMMENT ON COLUMN mart.occupancy_daily.rooms_house_use IS 'Of rooms_complimentary, the room nights on the house-use rate plan (code HOUSE: staff, the hotel''s own use); not in rooms sold.';
COMMENT ON COLUMN mart.occupancy_by_room_type.rooms_house_use IS 'Of rooms_complimentary, the room nights on the house-use rate plan (code HOUSE: staff, the hotel''s own use); not in rooms sold.';
COMMENT ON COLUMN mart.occupancy_daily.rooms_in_house IS 'Rooms occupied that night: rooms_sold + rooms_complimentary (house use included); no-shows and options out.';
COMMENT ON COLUMN mart.occupancy_by_room_type.rooms_in_house IS 'Rooms occupied that night: rooms_sold + rooms_complimentary (house use included); no-shows and options out.';
COMMENT ON COLUMN mart.occupancy_daily.no_shows IS 'Room entries due to arrive that date that did not come (core.reservation_rooms no_show), counted on their arrival date.';
COMMENT ON COLUMN mart.occupancy_by_room_type.no_shows IS 'Room entries due to arrive that date that did not come (core.reservation_rooms no_show), counted on their arrival date.';
COMMENT ON COLUMN mart.occupancy_daily.walk_ins IS 'Of the arrivals, the room entries booked on the walk_in channel (a guest at the desk without a booking); a same-day booking on another channel is not one.';
COMMENT ON COLUMN mart.occupancy_by_room_type.walk_ins IS 'Of the arrivals, the room entries booked on the walk_in channel (a guest at the desk without a booking); a same-day booking on another channel is not one.';
