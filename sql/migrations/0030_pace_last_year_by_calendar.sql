-- Last year's night comes from the property's calendar (issue 49, docs/calendar.md): a holiday
-- or event night is compared with the same holiday or event a year earlier (Christmas with
-- Christmas, Easter Sunday with Easter Sunday), every other night with the night 364 days
-- earlier. The comments that said "D - 364" say so.
COMMENT ON TABLE mart.pace IS 'On the books by days before arrival, beside the same time last year (STLY: last year''s night L of the stay date D, the same holiday or event a year earlier by the property''s calendar, else D - 364, at the same days before arrival).';
COMMENT ON COLUMN mart.pace.stly_rooms_otb IS 'Rooms on the books for last year''s night L (the same holiday or event a year earlier, else D - 364) at snapshot L - k; NULL when that snapshot was not taken.';
COMMENT ON COLUMN mart.pace.stly_revenue_otb_net IS 'Net room revenue on the books for last year''s night L at snapshot L - k; NULL when not taken.';
COMMENT ON COLUMN mart.pace.stly_is_rebuilt IS 'True when the STLY snapshot L - k is rebuilt from the reservations'' history; NULL when not taken.';
COMMENT ON COLUMN mart.pace.ly_actual_rooms_sold IS 'Last year''s final actual: rooms sold on last year''s night L (the same holiday or event a year earlier, else D - 364; mart.occupancy_daily.rooms_sold, a night already lived); NULL when not lived or not in the warehouse.';
COMMENT ON COLUMN mart.pace.ly_actual_room_revenue_net IS 'Last year''s final actual net room revenue of last year''s night L (mart.occupancy_daily.room_revenue_net, a night already lived); NULL when not lived or not in the warehouse.';
