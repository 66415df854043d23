-- mart.forecast_accuracy's table comment still counted "the five" methods (seven since
-- last_year_season and season_books; docs/forecast.md, Methods). Comments only.
COMMENT ON TABLE mart.forecast_accuracy IS 'Rolling-origin backtest: for each horizon (1, 7, 14, 30, 60, 90 days) and method (each method of docs/forecast.md, and `chosen`), the forecasts made horizon_days before each of the last 91 nights realized, each from the data known on its as-of date only (docs/forecast.md).';
