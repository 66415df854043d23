-- Issue 49, item 2: the band of a month computed for the month, not the sum of its nights'
-- bands (docs/forecast.md, "The months ahead"; pipelines/forecast/logic/month_band.py). The
-- marts are derived data rebuilt by every run: NULL until the next mart run fills them.
ALTER TABLE mart.forecast_daily ADD COLUMN month_rooms_low DECIMAL(9,2);
ALTER TABLE mart.forecast_daily ADD COLUMN month_rooms_high DECIMAL(9,2);
COMMENT ON COLUMN mart.forecast_daily.month_rooms_low IS 'Low end of the 80 % band of the rooms still to come in the night''s month (the sum of rooms_forecast over its nights from as_of_date on), the same on each of those nights: that sum plus the k-th smallest, k = floor((n + 1) x 0.1), of n sums of the errors (actual - forecast) of the forecast in use on windows of as many consecutive nights realized in the 91 days before as_of_date, each night at the horizon the month''s night has (split conformal on sums shaped like the month, so the nights'' correlation is measured, not assumed). NULL with fewer than 28 such windows. Clipped to [0, the sum of rooms_limit], never above the sum.';
COMMENT ON COLUMN mart.forecast_daily.month_rooms_high IS 'High end of the same band: k = ceil((n + 1) x 0.9), never below the sum.';
