-- Issue 17: the forecast's history begins with the property's first night sold (the
-- snapshots begin earlier, with the first booking), and the skill against last year needs 4
-- weeks of nights both forecast (docs/forecast.md, "Notation", "Backtest"). Comments only.
COMMENT ON COLUMN mart.forecast_accuracy.better_than_last_year_pct IS '100 x (1 - sum |forecast - actual| / the same sum of last_year), over the nights both forecast at this horizon: how much lower the error is than the same night last year''s (NULL for last_year itself, and below 4 weeks of nights both forecast: a hotel''s first weeks with a last year).';
COMMENT ON COLUMN mart.forecast_accuracy.forecasts IS 'Nights scored: those of the last 91 realized that the method could forecast (a last-year method only those whose night 364 days earlier is in the history, which begins with the property''s first night sold).';
