-- Issue 48, item 3: the flash's day, MTD and YTD against the forecast made before them. mart.forecast_daily
-- keeps only the latest as-of date, so each forecast build also keeps, in the same transaction, the nights
-- a later flash compares with (docs/flash.md, "Manager's flash"). Not rebuilt: a forecast once made
-- is history (an as-of date built again replaces its own rows only).
CREATE TABLE mart.forecast_history (
    property_id BIGINT NOT NULL,
    as_of_date DATE NOT NULL,
    stay_date DATE NOT NULL,
    rooms_forecast DECIMAL(9,2) NOT NULL,
    room_revenue_forecast_net DECIMAL(18,2),
    method VARCHAR NOT NULL,
    kept_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (property_id, as_of_date, stay_date)
);
COMMENT ON TABLE mart.forecast_history IS 'The forecasts a flash compares with, kept from each build of mart.forecast_daily: of as-of date S, the night S + 1 (the day''s forecast, made the day before) and, when S is the last day of its month or the first as-of date kept for the property, every night from S to the end of the month after S''s (the month''s forecast made before it; the fallback of the months the history began in). About 1,100 rows a property a year.';
COMMENT ON COLUMN mart.forecast_history.property_id IS 'Property id.';
COMMENT ON COLUMN mart.forecast_history.as_of_date IS 'As-of date S of the forecast (mart.forecast_daily.as_of_date).';
COMMENT ON COLUMN mart.forecast_history.stay_date IS 'Stay date D forecast.';
COMMENT ON COLUMN mart.forecast_history.rooms_forecast IS 'mart.forecast_daily.rooms_forecast of D as of S (complimentary rooms in).';
COMMENT ON COLUMN mart.forecast_history.room_revenue_forecast_net IS 'mart.forecast_daily.room_revenue_forecast_net of D as of S, net of VAT; NULL when that forecast could not price the night (migration 0036).';
COMMENT ON COLUMN mart.forecast_history.method IS 'mart.forecast_daily.method of D as of S.';
COMMENT ON COLUMN mart.forecast_history.kept_at IS 'When the build that kept the row ran (the last build of S wins).';
