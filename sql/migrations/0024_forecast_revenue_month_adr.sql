-- The rooms still to come are priced at last year's ADR of the night's weekday in its calendar
-- month, moved by the ADR's change on a year, times the late premium (docs/forecast.md, "Band,
-- revenue, ADR and occupancy"). Comments only.
COMMENT ON COLUMN mart.forecast_daily.room_revenue_forecast_net IS 'revenue_otb_net + the rooms still to come x their net ADR: last year''s final ADR of the night''s weekday in its calendar month x the ADR''s change on a year (else the curve nights'' ADR moved by last year''s season; the ADR on the books when neither is known) x the late premium (the net ADR of the rooms picked up from the same days out over the final ADR, on the recent nights); rooms_forecast x the ADR on the books when the forecast is below the books.';
