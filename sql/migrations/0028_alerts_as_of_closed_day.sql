-- mart.alerts stands on the last closed business date (issue 46, item 2; docs/kpi.md, "As of").
COMMENT ON TABLE mart.alerts IS 'Nights that need a look as of the last closed business date (the open day''s books still move; no snapshot after it is read): pace a set share below the same time last year, a pickup spike, on the books above capacity plus overbooking (docs/forecast.md, Alerts).';
COMMENT ON COLUMN mart.alerts.as_of_date IS 'The last closed business date (the day before the property''s business date when the marts were built).';
