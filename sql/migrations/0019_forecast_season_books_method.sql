-- The forecast method season_books (issue 17; docs/forecast.md, Methods): the method
-- columns name it. Comments only; no table changes.
COMMENT ON COLUMN mart.forecast_daily.method IS 'additive_pickup, multiplicative_pickup, last_year_pickup, last_year, blend, last_year_season or season_books (the one chosen for the horizon, else the first with the history it needs), or on_the_books when none has.';
COMMENT ON COLUMN mart.forecast_accuracy.method IS 'additive_pickup, multiplicative_pickup, last_year_pickup, last_year, blend, last_year_season, season_books, or chosen (the method the choice made as of each as-of date).';
