-- Issue 17: the band of the forecast is the chosen method's own recent errors, and its
-- coverage is measured by the backtest (docs/forecast.md, "Band, revenue, ADR and
-- occupancy"). NULL until the next mart run fills it.
ALTER TABLE mart.forecast_accuracy ADD COLUMN band_coverage_pct DECIMAL(9,2);
COMMENT ON COLUMN mart.forecast_accuracy.band_coverage_pct IS 'chosen only: the share of the nights scored, in %, whose actual rooms fell inside the forecast''s band (rooms_low to rooms_high, bounds included) as it stood on the as-of date; an 80 % band should hold about 80 % (NULL for the methods, which have no band).';
COMMENT ON COLUMN mart.forecast_daily.rooms_low IS 'Low end of the band: the forecast plus the 10th percentile of the chosen method''s errors (actual - forecast) at this horizon on the nights realized in the 91 days before the as-of date (without 7 of them, or when a fallback method made the forecast: plus the 10th percentile of the curve nights'' remaining pickup minus its mean), clipped to [0, rooms_limit] and never above the forecast.';
COMMENT ON COLUMN mart.forecast_daily.rooms_high IS 'High end of the band: the same with the 90th percentile, never below the forecast.';
