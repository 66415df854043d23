-- Issue 49, item 3: the flash's day, MTD and YTD of F&B, other and total revenue against the
-- forecast made before them. mart.forecast_history (migration 0035) kept the rooms forecast
-- only; each kept night now keeps the departments' forecast made with it, as forecast-months
-- makes it (docs/flash.md, "Against the forecast made before"). Rows kept before this
-- migration have none (NULL): a forecast once made is history, not made again.
ALTER TABLE mart.forecast_history ADD COLUMN food_beverage_revenue_forecast_net DECIMAL(18,2);
ALTER TABLE mart.forecast_history ADD COLUMN other_revenue_forecast_net DECIMAL(18,2);
COMMENT ON COLUMN mart.forecast_history.food_beverage_revenue_forecast_net IS 'F&B revenue of D forecast as of S, net of VAT: rooms_forecast x the F&B revenue per room sold of the 91 closed days before S (posting date, mart.revenue_daily over mart.occupancy_daily rooms_sold), half-up to the cent; NULL when those days sold no room or the warehouse held no revenue posted in them (their folios not read yet: a first sync), and on the rows kept before migration 0039.';
COMMENT ON COLUMN mart.forecast_history.other_revenue_forecast_net IS 'Other revenue (not rooms, not F&B) of D forecast as of S, net of VAT: rooms_forecast x the other revenue per room sold of the 91 closed days before S, half-up to the cent; NULL when those days sold no room or the warehouse held no revenue posted in them (their folios not read yet: a first sync), and on the rows kept before migration 0039.';
