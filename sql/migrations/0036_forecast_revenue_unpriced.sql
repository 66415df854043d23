-- Issue 49: a night whose rooms still to come have no rate (no ADR of last year's month, of
-- the booking curves or on the books: far out on a young history) has no room revenue
-- forecast, NULL, not 0.00 for rooms it does forecast (docs/forecast.md, "Band, revenue, ADR
-- and occupancy"). The marts are derived data rebuilt by every run.
ALTER TABLE mart.forecast_daily ALTER COLUMN room_revenue_forecast_net DROP NOT NULL;
COMMENT ON COLUMN mart.forecast_daily.room_revenue_forecast_net IS 'revenue_otb_net + the rooms still to come x their net ADR: last year''s final ADR of the night''s weekday in its calendar month x the ADR''s change on a year (else the curve nights'' ADR moved by last year''s season; the ADR on the books when neither is known) x the late premium (the net ADR of the rooms picked up from the same days out over the final ADR, on the recent nights); rooms_forecast x the ADR on the books when the forecast is below the books. NULL when rooms are forecast beyond the books and none of those ADRs is known (the night is not priced).';
COMMENT ON COLUMN mart.forecast_daily.adr_forecast_net IS 'room_revenue_forecast_net / rooms_forecast; NULL when no room is forecast or the night is not priced.';
