-- Issue 17: how much better than the same night last year each method forecast, and how sure
-- that figure is (a 90 % interval by the delete-a-week jackknife; docs/forecast.md, "How sure
-- the figures are"). NULL until the next mart run fills them.
ALTER TABLE mart.forecast_accuracy ADD COLUMN better_than_last_year_pct DECIMAL(9,2);
ALTER TABLE mart.forecast_accuracy ADD COLUMN better_than_last_year_low_pct DECIMAL(9,2);
ALTER TABLE mart.forecast_accuracy ADD COLUMN better_than_last_year_high_pct DECIMAL(9,2);
COMMENT ON COLUMN mart.forecast_accuracy.better_than_last_year_pct IS '100 x (1 - sum |forecast - actual| / the same sum of last_year), over the nights both forecast at this horizon: how much lower the error is than the same night last year''s (NULL for last_year itself).';
COMMENT ON COLUMN mart.forecast_accuracy.better_than_last_year_low_pct IS 'Low end of the 90 % interval of better_than_last_year_pct: the delete-a-week jackknife over the weeks of scored nights, counted back from the last (NULL below 4 weeks).';
COMMENT ON COLUMN mart.forecast_accuracy.better_than_last_year_high_pct IS 'High end of the same 90 % interval.';
