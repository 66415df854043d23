-- Issue 46, "no two columns named alike with different values": columns named like another
-- figure of the metrics layer with another value are renamed to a name of their own
-- (pipelines/metrics/warehouse.py, CLASHES; docs/kpi.md). The views that carry them are
-- re-created from sql/views on open.
-- recon.results.posted_amount is the amount found on the folio; recon.runs.posted_amount
-- (a METRICS figure) is the expected amount of the charges a run posted.
ALTER TABLE recon.results RENAME COLUMN posted_amount TO found_amount;
COMMENT ON COLUMN recon.results.found_amount IS 'Amount found on the folio: the answering line net of its reversals (matched, amount_mismatch, posted); NULL when none. Not recon.runs.posted_amount, the expected amount of the charges a run posted.';
-- mart.booking_outcomes.rooms counts a booking's firm room entries; `rooms` elsewhere is a
-- folio's room numbers (text).
ALTER TABLE mart.booking_outcomes RENAME COLUMN rooms TO firm_rooms;
COMMENT ON COLUMN mart.booking_outcomes.firm_rooms IS 'Firm room entries: on the books, cancelled by the guest or the hotel, no-shows (lapsed and open options apart). A reservation with one is a firm booking made (is_booking).';
-- mart.forecast_accuracy.rooms_actual sums the scored nights' final books, OTB(D, D), the
-- forecast's basis (complimentary rooms and no-shows in); forecast-months' rooms_actual is
-- rooms sold.
ALTER TABLE mart.forecast_accuracy RENAME COLUMN rooms_actual TO rooms_final;
COMMENT ON COLUMN mart.forecast_accuracy.rooms_final IS 'Sum of the final rooms of those nights: rooms on the books at the end of the night, OTB(D, D), the forecast''s basis (complimentary rooms and no-shows in, not rooms sold); what wape_pct divides by.';
-- mart.revenue_daily.revenue_net is a department's revenue by posting date; revenue_net is
-- pickup's (mart.pickup: the OTB revenue picked up over a window).
ALTER TABLE mart.revenue_daily RENAME COLUMN revenue_net TO department_revenue_net;
COMMENT ON COLUMN mart.revenue_daily.department_revenue_net IS 'Net revenue of the department: the sum of the net amounts of its charge lines posted that business date, reversals included (not mart.pickup''s revenue_net, OTB revenue picked up).';
-- mart.budget_monthly's figures are the budget's, named like the actual figures: they take
-- the names the reports give them (budget_rooms_sold, budget_room_revenue_net, ...). The
-- budget FILE keeps its documented column names (docs/flash.md).
ALTER TABLE mart.budget_monthly RENAME COLUMN rooms_sold TO budget_rooms_sold;
ALTER TABLE mart.budget_monthly RENAME COLUMN room_revenue_net TO budget_room_revenue_net;
ALTER TABLE mart.budget_monthly RENAME COLUMN food_beverage_revenue_net TO budget_food_beverage_revenue_net;
ALTER TABLE mart.budget_monthly RENAME COLUMN other_revenue_net TO budget_other_revenue_net;
COMMENT ON COLUMN mart.budget_monthly.budget_rooms_sold IS 'Rooms sold budgeted for the month (the file''s rooms_sold).';
COMMENT ON COLUMN mart.budget_monthly.budget_room_revenue_net IS 'Room revenue budgeted, net of VAT (the file''s room_revenue_net).';
COMMENT ON COLUMN mart.budget_monthly.budget_food_beverage_revenue_net IS 'Food and beverage revenue budgeted, net of VAT (the file''s food_beverage_revenue_net); NULL when not budgeted.';
COMMENT ON COLUMN mart.budget_monthly.budget_other_revenue_net IS 'Other revenue budgeted, net of VAT (the file''s other_revenue_net); NULL when not budgeted.';
