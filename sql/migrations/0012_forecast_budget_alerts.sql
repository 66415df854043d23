-- Forecasts, their backtest, budgets and alerts (issue 17). Methods and figures: docs/forecast.md.
-- mart.forecast_daily, mart.forecast_accuracy and mart.alerts are built per property by the
-- marts (pipelines/marts/build.py, after the marts they read); mart.budget_monthly is written
-- by `pmsw budget import` only.

CREATE TABLE mart.forecast_daily (
    property_id BIGINT NOT NULL,
    as_of_date DATE NOT NULL,
    stay_date DATE NOT NULL,
    days_before INTEGER NOT NULL,
    rooms_otb INTEGER NOT NULL,
    revenue_otb_net DECIMAL(18,2) NOT NULL,
    rooms_forecast DECIMAL(9,2) NOT NULL,
    rooms_low DECIMAL(9,2) NOT NULL,
    rooms_high DECIMAL(9,2) NOT NULL,
    room_revenue_forecast_net DECIMAL(18,2) NOT NULL,
    adr_forecast_net DECIMAL(18,2),
    occupancy_forecast_pct DECIMAL(7,2),
    capacity INTEGER,
    rooms_limit INTEGER,
    method VARCHAR NOT NULL,
    PRIMARY KEY (property_id, as_of_date, stay_date)
);
COMMENT ON TABLE mart.forecast_daily IS 'Where each night will end, as of the last snapshot date (the business date): rooms, room revenue, ADR and occupancy forecast for the stay dates as_of_date .. as_of_date + 365, by the method the backtest chose for the horizon (docs/forecast.md).';
COMMENT ON COLUMN mart.forecast_daily.property_id IS 'Property id.';
COMMENT ON COLUMN mart.forecast_daily.as_of_date IS 'As-of date S: the snapshot the forecast starts from; it reads nothing later (nights realized before S only).';
COMMENT ON COLUMN mart.forecast_daily.stay_date IS 'Stay date D forecast.';
COMMENT ON COLUMN mart.forecast_daily.days_before IS 'D - S, the horizon in days.';
COMMENT ON COLUMN mart.forecast_daily.rooms_otb IS 'Rooms on the books for D at the end of S (mart.otb_snapshots.rooms_otb).';
COMMENT ON COLUMN mart.forecast_daily.revenue_otb_net IS 'Net room revenue on the books for D at the end of S.';
COMMENT ON COLUMN mart.forecast_daily.rooms_forecast IS 'Rooms forecast for D by `method`, between 0 and rooms_limit.';
COMMENT ON COLUMN mart.forecast_daily.rooms_low IS 'Low end of the band: the forecast plus the 10th percentile of the remaining pickup of the curve nights minus its mean, clipped to [0, rooms_limit] and never above the forecast.';
COMMENT ON COLUMN mart.forecast_daily.rooms_high IS 'High end of the band: the same with the 90th percentile, never below the forecast.';
COMMENT ON COLUMN mart.forecast_daily.room_revenue_forecast_net IS 'revenue_otb_net + the rooms still to come x the net ADR of the curve nights (the ADR on the books when they have none); rooms_forecast x the ADR on the books when the forecast is below the books.';
COMMENT ON COLUMN mart.forecast_daily.adr_forecast_net IS 'room_revenue_forecast_net / rooms_forecast; NULL when no room is forecast.';
COMMENT ON COLUMN mart.forecast_daily.occupancy_forecast_pct IS 'rooms_forecast / capacity x 100; NULL without capacity.';
COMMENT ON COLUMN mart.forecast_daily.capacity IS 'Sellable rooms of the property (core.rooms).';
COMMENT ON COLUMN mart.forecast_daily.rooms_limit IS 'capacity + the overbooking the hotel practises: the most any night before S ended above capacity (0 if none).';
COMMENT ON COLUMN mart.forecast_daily.method IS 'additive_pickup, multiplicative_pickup, last_year_pickup, last_year or blend (the one chosen for the horizon, else the first with the history it needs), or on_the_books when none has.';

CREATE TABLE mart.forecast_accuracy (
    property_id BIGINT NOT NULL,
    horizon_days INTEGER NOT NULL,
    method VARCHAR NOT NULL,
    first_night DATE NOT NULL,
    last_night DATE NOT NULL,
    forecasts INTEGER NOT NULL,
    rooms_actual INTEGER NOT NULL,
    mae_rooms DECIMAL(9,2),
    wape_pct DECIMAL(9,2),
    bias_rooms DECIMAL(9,2),
    PRIMARY KEY (property_id, horizon_days, method)
);
COMMENT ON TABLE mart.forecast_accuracy IS 'Rolling-origin backtest: for each horizon (1, 7, 14, 30, 60, 90 days) and method (the five and `chosen`), the forecasts made horizon_days before each of the last 91 nights realized, each from the data known on its as-of date only (docs/forecast.md).';
COMMENT ON COLUMN mart.forecast_accuracy.property_id IS 'Property id.';
COMMENT ON COLUMN mart.forecast_accuracy.horizon_days IS 'Days between the as-of date and the night forecast.';
COMMENT ON COLUMN mart.forecast_accuracy.method IS 'additive_pickup, multiplicative_pickup, last_year_pickup, last_year, blend, or chosen (the method the choice made as of each as-of date).';
COMMENT ON COLUMN mart.forecast_accuracy.first_night IS 'First night scored.';
COMMENT ON COLUMN mart.forecast_accuracy.last_night IS 'Last night scored (the night before the last snapshot).';
COMMENT ON COLUMN mart.forecast_accuracy.forecasts IS 'Nights scored: those the method could forecast (the last-year methods need a year of snapshots).';
COMMENT ON COLUMN mart.forecast_accuracy.rooms_actual IS 'Sum of the final rooms of those nights (rooms on the books at the end of the night).';
COMMENT ON COLUMN mart.forecast_accuracy.mae_rooms IS 'Mean absolute error in rooms.';
COMMENT ON COLUMN mart.forecast_accuracy.wape_pct IS 'Weighted absolute percentage error: sum |forecast - actual| / sum actual x 100.';
COMMENT ON COLUMN mart.forecast_accuracy.bias_rooms IS 'Mean of forecast - actual in rooms (positive: too high).';

CREATE TABLE mart.budget_monthly (
    property_id BIGINT NOT NULL,
    month DATE NOT NULL,
    segment VARCHAR,
    rooms_sold INTEGER NOT NULL,
    room_revenue_net DECIMAL(18,2) NOT NULL,
    food_beverage_revenue_net DECIMAL(18,2),
    other_revenue_net DECIMAL(18,2),
    source_file VARCHAR NOT NULL,
    imported_at TIMESTAMPTZ NOT NULL
);
COMMENT ON TABLE mart.budget_monthly IS 'Monthly budget per property, optionally per market segment, as imported by `pmsw budget import FILE` (a file replaces the budget of the property-months it holds). One row per property, month and segment.';
COMMENT ON COLUMN mart.budget_monthly.property_id IS 'Property id.';
COMMENT ON COLUMN mart.budget_monthly.month IS 'First day of the month budgeted.';
COMMENT ON COLUMN mart.budget_monthly.segment IS 'Market segment (a value of core.classifications kind market); NULL: the whole property.';
COMMENT ON COLUMN mart.budget_monthly.rooms_sold IS 'Rooms sold budgeted for the month.';
COMMENT ON COLUMN mart.budget_monthly.room_revenue_net IS 'Room revenue budgeted, net of VAT.';
COMMENT ON COLUMN mart.budget_monthly.food_beverage_revenue_net IS 'Food and beverage revenue budgeted, net of VAT; NULL when not budgeted.';
COMMENT ON COLUMN mart.budget_monthly.other_revenue_net IS 'Other revenue budgeted, net of VAT; NULL when not budgeted.';
COMMENT ON COLUMN mart.budget_monthly.source_file IS 'Name of the file imported.';
COMMENT ON COLUMN mart.budget_monthly.imported_at IS 'When it was imported.';

CREATE TABLE mart.alerts (
    property_id BIGINT NOT NULL,
    as_of_date DATE NOT NULL,
    stay_date DATE NOT NULL,
    alert VARCHAR NOT NULL,
    value DOUBLE NOT NULL,
    threshold DOUBLE NOT NULL,
    message VARCHAR NOT NULL,
    PRIMARY KEY (property_id, as_of_date, stay_date, alert)
);
COMMENT ON TABLE mart.alerts IS 'Nights that need a look as of the last snapshot date: pace a set share below the same time last year, a pickup spike, on the books above capacity plus overbooking (docs/forecast.md, Alerts).';
COMMENT ON COLUMN mart.alerts.property_id IS 'Property id.';
COMMENT ON COLUMN mart.alerts.as_of_date IS 'Snapshot date the alert was raised on.';
COMMENT ON COLUMN mart.alerts.stay_date IS 'The night.';
COMMENT ON COLUMN mart.alerts.alert IS 'pace_below_stly, pickup_spike or over_capacity.';
COMMENT ON COLUMN mart.alerts.value IS 'pace_below_stly: rooms on the books / STLY - 1 (a share); pickup_spike: the z-score of the last 7 days'' pickup; over_capacity: rooms on the books.';
COMMENT ON COLUMN mart.alerts.threshold IS 'The limit crossed: -share, z, or capacity + overbooking.';
COMMENT ON COLUMN mart.alerts.message IS 'One line for the reader.';
