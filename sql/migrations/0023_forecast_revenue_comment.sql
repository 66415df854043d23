-- The rooms still to come are priced at the curve nights' ADR moved by last year's season
-- (docs/forecast.md, "Band, revenue, ADR and occupancy"). Comments only.
COMMENT ON COLUMN mart.forecast_daily.room_revenue_forecast_net IS 'revenue_otb_net + the rooms still to come x the net ADR of the curve nights (the ADR on the books when they have none) x the move of the final ADR from the curve nights to the night a year earlier; rooms_forecast x the ADR on the books when the forecast is below the books.';
