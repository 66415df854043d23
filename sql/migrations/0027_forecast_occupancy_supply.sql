-- The forecast's occupancy divides by the same supply as every other occupancy: every room of
-- the property (STR / USALI; docs/kpi.md), not the sellable rooms (issue 46, item 4).
COMMENT ON COLUMN mart.forecast_daily.occupancy_forecast_pct IS 'rooms_forecast / rooms available (every room of the property, the STR supply of mart.occupancy_daily) x 100.';
COMMENT ON COLUMN mart.forecast_daily.capacity IS 'Sellable rooms of the property (core.rooms): what bounds the forecast, not the supply occupancy divides by.';
