-- Issue 49, item 5: the forecast's accuracy beside the simulator's floor. The level of each
-- night (the simulator's expected demand before the night's own noise, which no forecast
-- reads) reaches the warehouse as data: the demo reads it from the sandbox's admin endpoint
-- GET /_sandbox/levels and writes it here (docs/forecast.md, "The simulator's floor"). A
-- warehouse fed by a real PMS holds no row: its floor is empty.
CREATE TABLE core.sandbox_levels (
    property_id BIGINT NOT NULL,
    stay_date DATE NOT NULL,
    rooms_level DOUBLE NOT NULL,
    seed BIGINT NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (property_id, stay_date)
);
COMMENT ON TABLE core.sandbox_levels IS 'The sandbox simulator''s level of each night (GET /_sandbox/levels), written by the demo: rooms the simulated demand plans before the night''s own noise. Only a sandbox has it (no PMS API v1 call shows it); the forecast never reads it, forecast_accuracy scores it as the floor (docs/forecast.md).';
COMMENT ON COLUMN core.sandbox_levels.property_id IS 'Property id.';
COMMENT ON COLUMN core.sandbox_levels.stay_date IS 'Night.';
COMMENT ON COLUMN core.sandbox_levels.rooms_level IS 'Rooms the simulator plans for the night before its noise: weekday shape x dated events x the month''s occupancy with its trend, capped at 96 %, x sellable rooms (a fraction).';
COMMENT ON COLUMN core.sandbox_levels.seed IS 'The simulation''s seed the level was read under (the level itself does not depend on it).';
COMMENT ON COLUMN core.sandbox_levels.fetched_at IS 'When the demo read it from the sandbox.';
ALTER TABLE mart.forecast_accuracy ADD COLUMN floor_wape_pct DECIMAL(9,2);
COMMENT ON COLUMN mart.forecast_accuracy.floor_wape_pct IS 'The simulator''s floor on the same nights scored: sum of |level - actual rooms| / sum of actual rooms x 100, the level of each night from core.sandbox_levels; NULL when any night scored has no level (a real PMS has none).';
