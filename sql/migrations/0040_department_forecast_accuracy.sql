-- Issue 49, item 3 (finished): the departments' forecast on the rooms forecast's basis, and
-- scored. The F&B and other rate is now per room on the books at the night's end (rooms_sold
-- + rooms_complimentary + no_shows, what rooms_forecast counts), not per room sold
-- (docs/flash.md, "The departments' rate"): the history's two columns say so from now on (the
-- rows kept before keep the figure made then). mart.forecast_accuracy scores, on its
-- `chosen` rows, the F&B, other and total revenue forecasts of the nights it scores beside a
-- baseline that reads no forecast (docs/forecast.md, "The departments' forecast, scored").
COMMENT ON COLUMN mart.forecast_history.food_beverage_revenue_forecast_net IS 'F&B revenue of D forecast as of S, net of VAT: rooms_forecast x the F&B revenue (posting date, mart.revenue_daily) per room on the books at the night''s end (rooms_sold + rooms_complimentary + no_shows of mart.occupancy_daily, the basis of rooms_forecast) of the 91 closed days before S, half-up to the cent (per room sold on the rows kept before migration 0040); NULL when those days had no room on the books or the warehouse held no revenue posted in them (their folios not read yet: a first sync), and on the rows kept before migration 0039.';
COMMENT ON COLUMN mart.forecast_history.other_revenue_forecast_net IS 'Other revenue (not rooms, not F&B) of D forecast as of S, net of VAT: rooms_forecast x the other revenue per room on the books at the night''s end of the 91 closed days before S, half-up to the cent (per room sold on the rows kept before migration 0040); NULL when those days had no room on the books or the warehouse held no revenue posted in them, and on the rows kept before migration 0039.';
ALTER TABLE mart.forecast_accuracy ADD COLUMN food_beverage_revenue_wape_pct DECIMAL(9,2);
ALTER TABLE mart.forecast_accuracy ADD COLUMN food_beverage_revenue_baseline_wape_pct DECIMAL(9,2);
ALTER TABLE mart.forecast_accuracy ADD COLUMN other_revenue_wape_pct DECIMAL(9,2);
ALTER TABLE mart.forecast_accuracy ADD COLUMN other_revenue_baseline_wape_pct DECIMAL(9,2);
ALTER TABLE mart.forecast_accuracy ADD COLUMN total_revenue_wape_pct DECIMAL(9,2);
ALTER TABLE mart.forecast_accuracy ADD COLUMN total_revenue_baseline_wape_pct DECIMAL(9,2);
COMMENT ON COLUMN mart.forecast_accuracy.food_beverage_revenue_wape_pct IS 'The F&B revenue forecast of the nights scored (method chosen only; NULL on the others): rooms_forecast x the F&B revenue per room on the books at the night''s end of the 91 closed days before the as-of date, as mart.forecast_history keeps it; sum |forecast - F&B posted that date| / sum F&B posted x 100, over the nights whose 91 days had a rate (a room on the books and revenue posted).';
COMMENT ON COLUMN mart.forecast_accuracy.food_beverage_revenue_baseline_wape_pct IS 'The same WAPE of a baseline that reads no forecast: each night''s F&B the mean F&B posted a day in the 91 closed days before the as-of date; on the same nights as food_beverage_revenue_wape_pct.';
COMMENT ON COLUMN mart.forecast_accuracy.other_revenue_wape_pct IS 'As food_beverage_revenue_wape_pct, of other revenue (not rooms, not F&B).';
COMMENT ON COLUMN mart.forecast_accuracy.other_revenue_baseline_wape_pct IS 'As food_beverage_revenue_baseline_wape_pct, of other revenue: the mean other revenue posted a day in the 91 closed days before the as-of date.';
COMMENT ON COLUMN mart.forecast_accuracy.total_revenue_wape_pct IS 'The total revenue forecast (the night''s room revenue forecast, as mart.forecast_daily prices it, + the F&B and other forecasts) against room_revenue_net of mart.occupancy_daily + F&B and other posted that date, the flash''s total_revenue_net; WAPE % over the nights with a rate whose room revenue is priced (method chosen only).';
COMMENT ON COLUMN mart.forecast_accuracy.total_revenue_baseline_wape_pct IS 'The same WAPE of the baseline: the mean total revenue (rooms, F&B and other) a day in the 91 closed days before the as-of date; on the same nights as total_revenue_wape_pct.';
