-- mart.forecast_history.kept_at's comment said the last build of an as-of date wins. Since the
-- history is written by difference (pipelines/marts/forecast_history.py), a night kept again
-- with the same forecast keeps its row and its time; only a changed forecast is kept anew.
COMMENT ON COLUMN mart.forecast_history.kept_at IS 'When a build of S first kept the row as it is: a later build of S with the same forecast keeps the row and its time, one with a changed forecast replaces it.';
