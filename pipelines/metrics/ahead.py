"""The figures of the nights ahead and of the periods compared (docs/kpi.md): the books, pickup,
the same time last year (STLY), the forecast, the budget, a month as it is expected to end,
the forecast's accuracy and the alerts. Each name is the column the reports print."""

from __future__ import annotations

from pipelines.metrics.metric import FORECAST, SNAPSHOT, Metric, at

_BOOKS = at(
    SNAPSHOT,
    Metric("occupancy_otb_pct", "occupancy_pct of the nights ahead: rooms sold on the books "
           "(rooms_otb less the complimentary rooms, as rooms_sold) over every room of the "
           "property", "rooms_sold_otb", "rooms_available", 100),
    Metric("adr_otb_net", "adr_net of the nights ahead: room revenue on the books per room "
           "sold on the books (the complimentary rooms, at 0.00, left out as in adr_net)",
           "revenue_otb_net", "rooms_sold_otb"),
)
_PICKUP = at(
    "the window (S - W, S], S the as-of date its As-of line names: the last closed "
    "business date unless --as-of",
    Metric("rooms_new", "pickup: room nights that came onto the books in the window (S - W, "
           "S], S the as-of date (the last closed business date unless asked)"),
    Metric("rooms_cancelled", "pickup: room nights that went off the books in the window "
           "(cancelled, moved away, returned to option)"),
    Metric("rooms_net", "pickup: rooms_otb(S) - rooms_otb(S - W) = rooms_new - "
           "rooms_cancelled"),
    Metric("revenue_net", "pickup: revenue_otb_net(S) - revenue_otb_net(S - W), net of VAT (a "
           "rate change is revenue pickup with no room night)"),
)
_LAST_YEAR = at(
    "stly_: last year's night at the same days before as this year's as-of date; "
    "last_year_: the same dates a year earlier, final",
    Metric("stly_rooms_otb", "STLY: rooms on the books of last year's same night (364 days "
           "earlier, or last year's same holiday or event) at the same days before"),
    Metric("stly_revenue_otb_net", "STLY: revenue on the books of last year's same night at "
           "the same days before, net of VAT"),
    Metric("rooms_vs_stly", "rooms_otb - stly_rooms_otb, in rooms"),
    Metric("stly_is_rebuilt", "flag: the STLY snapshot was not taken that day but rebuilt "
           "from the reservations' history (docs/kpi.md, History before the first sync)"),
    Metric("last_year_rooms_sold", "rooms_sold of the same calendar dates a year earlier "
           "(a month: the same month), actual; not ly_actual_rooms_sold's 364 days"),
    Metric("last_year_room_revenue_net", "room_revenue_net (nights and fees) of the same "
           "calendar dates a year earlier, actual"),
)
_FORECAST = at(
    FORECAST,
    Metric("rooms_forecast", "rooms on the books the night is forecast to end with, OTB(D, D): "
           "rooms_sold + rooms_complimentary + no_shows (a no-show is on the books through its "
           "night), as rooms_otb; not rooms_sold's basis, which counts complimentary rooms and "
           "no-shows out (STR); the method in `method`"),
    Metric("rooms_low", "the low end of the night's forecast band (band_nominal_pct of "
           "nights inside it, by design)"),
    Metric("rooms_high", "the high end of the night's forecast band"),
    Metric("occupancy_forecast_pct", "rooms forecast over every room of the property (the "
           "STR supply, as occupancy_pct; complimentary rooms and no-shows in, as "
           "rooms_forecast, so not occupancy_pct's basis)",
           "rooms_forecast", "rooms_available", 100),
    Metric("room_revenue_forecast_net", "room revenue the night is forecast to end with, net "
           "of VAT: the books plus the rooms still to come at the pickup's ADR; no fees; "
           "none (not priced) when no ADR is known for the rooms still to come"),
    Metric("adr_forecast_net", "room revenue forecast per room forecast (complimentary "
           "rooms and no-shows in, at 0.00: not adr_net's basis)",
           "room_revenue_forecast_net", "rooms_forecast"),
    Metric("food_beverage_per_room_final_net", "F&B revenue (posting date) per room on the "
           "books at the night's end over the 91 closed days before the as-of date: "
           "food_beverage_revenue_net / rooms_final, unrounded; the rate "
           "food_beverage_revenue_forecast_net multiplies rooms_forecast by, on its basis "
           "(per room sold it would take the complimentary rooms and no-shows forecast as "
           "spending rooms; sold share x per room sold is this same figure)"),
    Metric("other_per_room_final_net", "other revenue per room on the books at the night's "
           "end over the 91 closed days before the as-of date: other_revenue_net / "
           "rooms_final, unrounded (as food_beverage_per_room_final_net)"),
    Metric("food_beverage_revenue_forecast_net", "F&B revenue the night is forecast to bring, "
           "net of VAT: rooms_forecast x food_beverage_per_room_final_net as of the as-of "
           "date, half-up to the cent (mart.forecast_history; none when those days had no "
           "room on the books or posted no revenue the warehouse had read)"),
    Metric("other_revenue_forecast_net", "other revenue (not rooms, not F&B) the night is "
           "forecast to bring, net of VAT: rooms_forecast x other_per_room_final_net "
           "(mart.forecast_history)"),
)
_BUDGET = at(
    "the budget imported for the month (`pmsw budget import`)",
    Metric("budget_rooms_sold", "rooms sold the budget plans (`pmsw budget import`; part of "
           "a month spread as last year's nights sold, else pro rata of its days)"),
    Metric("budget_room_revenue_net", "room revenue the budget plans, net of VAT"),
    Metric("budget_food_beverage_revenue_net", "food and beverage revenue the budget plans, "
           "net of VAT (mart.budget_monthly; empty when the file has none)"),
    Metric("budget_other_revenue_net", "other revenue the budget plans, net of VAT "
           "(mart.budget_monthly; empty when the file has none)"),
    Metric("budget_occupancy_pct", "budget rooms sold over the period's actual rooms "
           "available (a budget has no supply of its own; the flash's occupancy_pct row "
           "under *_budget)", "budget_rooms_sold", "rooms_available", 100),
)
_MADE = at(
    "the forecast made before the period (mart.forecast_history): the day's as of the day "
    "before, each month's as of its eve (the month before's last day), else as the flash's "
    "title says",
    Metric("forecast_rooms_sold", "rooms_forecast of the period's nights as of the day before "
           "it (the day) or the month's eve (MTD; YTD month by month), less the nights' "
           "complimentary rooms and no-shows as they ended (the forecast counts them in, "
           "rooms_sold leaves them out); the flash's rooms_sold row under *_forecast"),
    Metric("forecast_room_revenue_net", "room_revenue_forecast_net of the same nights as of "
           "the same dates, net of VAT, no fees; the flash's room_revenue_net row under "
           "*_forecast"),
    Metric("forecast_food_beverage_revenue_net", "food_beverage_revenue_forecast_net of the "
           "same nights as of the same dates (the flash's food_beverage_revenue_net row under "
           "*_forecast; none when a night was kept without it)"),
    Metric("forecast_other_revenue_net", "other_revenue_forecast_net of the same nights as of "
           "the same dates (the flash's other_revenue_net row under *_forecast)"),
    Metric("forecast_total_revenue_net", "forecast_room_revenue_net + "
           "forecast_food_beverage_revenue_net + forecast_other_revenue_net (the flash's "
           "total_revenue_net row under *_forecast)"),
    Metric("forecast_occupancy_pct", "forecast_rooms_sold over the period's actual rooms "
           "available (the flash's occupancy_pct row under *_forecast)",
           "forecast_rooms_sold", "rooms_available", 100),
    Metric("forecast_adr_net", "forecast_room_revenue_net per forecast_rooms_sold (the flash's "
           "adr_net row under *_forecast)", "forecast_room_revenue_net",
           "forecast_rooms_sold"),
)
_EXPECTED = at(
    "the last closed business date (actual up to it), the forecast's latest as-of date "
    "(after it)",
    Metric("nights_closed", "nights of the month up to the last closed business date"),
    Metric("rooms_actual", "rooms_sold of the month's closed nights"),
    Metric("rooms_expected", "a month as it is expected to end: rooms_sold of its closed "
           "nights + rooms_forecast of the others (their complimentary rooms and no-shows in, "
           "rooms_forecast's basis: the flash's month_expected of rooms_sold is this figure)"),
    Metric("room_revenue_expected_net", "room_revenue_net of the closed nights + "
           "room_revenue_forecast_net of the others"),
    Metric("rooms_expected_low", "the low end of the month's own 80 % band of rooms_expected: "
           "its closed nights' rooms_sold + the band of the rooms still to come, calibrated "
           "on past sums of errors shaped like the month (not the nights' bands summed); the "
           "business date's month only"),
    Metric("rooms_expected_high", "the high end of the month's own band of rooms_expected"),
    Metric("occupancy_expected_pct", "occupancy_pct of the month as expected: rooms_expected "
           "over rooms_available", "rooms_expected", "rooms_available", 100),
    Metric("adr_expected_net", "adr_net of the month as expected: the closed nights' "
           "room_revenue_nights_net (fees apart) + room_revenue_forecast_net, per room "
           "expected", "room_revenue_nights_expected_net", "rooms_expected"),
    Metric("revpar_expected_net", "revpar_net of the month as expected",
           "room_revenue_expected_net", "rooms_available"),
    Metric("food_beverage_revenue_expected_net", "F&B revenue posted on the closed days + "
           "the rooms forecast x food_beverage_per_room_final_net as of the business date"),
    Metric("other_revenue_expected_net", "other revenue posted on the closed days + the "
           "rooms forecast x other_per_room_final_net as of the business date"),
    Metric("total_revenue_expected_net", "room + F&B + other revenue expected, net of VAT"),
)
_ACCURACY = at(
    "the backtest: as of each snapshot date, scored on the last 91 nights realized",
    Metric("nights_scored", "forecast nights of the backtest scored at that horizon (their "
           "actual known)"),
    Metric("rooms_final", "rooms on the books at the end of the nights, final OTB(D, D): "
           "rooms_sold + rooms_complimentary + no_shows, rooms_forecast's own basis; the "
           "backtest's sum over its nights scored, what wape_pct divides by"),
    Metric("mae_rooms", "mean absolute error, rooms: mean of |rooms_forecast - the night's "
           "final OTB(D, D)| (the forecast's own basis: complimentary rooms and no-shows in, "
           "not rooms_sold)"),
    Metric("wape_pct", "weighted absolute percentage error: sum |error| / sum of the nights' "
           "final OTB(D, D) x 100"),
    Metric("floor_wape_pct", "the simulator's floor: wape_pct of each night's level (the "
           "sandbox's demand before its noise, core.sandbox_levels) on the same nights "
           "scored; empty without levels (a real PMS)"),
    Metric("bias_rooms", "mean error, rooms (forecast - actual): above 0 forecasts too high"),
    Metric("room_revenue_wape_pct", "WAPE of the room revenue forecast of the nights scored "
           "(room_revenue_forecast_net as the forecast prices it) against room_revenue_net "
           "(nights and fees): sum |forecast - actual| / sum room_revenue_net x 100"),
    Metric("room_revenue_baseline_wape_pct", "the same WAPE of the mean room revenue a day of "
           "the 91 closed days before the as-of date, on the same nights"),
    Metric("room_revenue_bias_pct", "the room revenue forecast's bias on the same nights: sum "
           "(forecast - room_revenue_net) / sum room_revenue_net x 100, above 0 too high"),
    Metric("food_beverage_revenue_wape_pct", "WAPE of the F&B revenue forecast of the nights "
           "scored (the chosen method's rooms x food_beverage_per_room_final_net as of each "
           "as-of date): sum |forecast - F&B posted that date| / sum of the F&B posted x 100"),
    Metric("food_beverage_revenue_baseline_wape_pct", "the same WAPE of a baseline that reads "
           "no forecast, each night the mean F&B posted a day in the 91 closed days before "
           "the as-of date, on the same nights"),
    Metric("other_revenue_wape_pct", "WAPE of the other revenue forecast (rooms x "
           "other_per_room_final_net) against the other revenue posted that date"),
    Metric("other_revenue_baseline_wape_pct", "the same WAPE of the mean other revenue a day "
           "of the 91 closed days before the as-of date"),
    Metric("total_revenue_wape_pct", "WAPE of the total revenue forecast (room revenue as "
           "forecast + the F&B and other forecasts) against total_revenue_net, the flash's "
           "(rooms by night, fees in; F&B and other by posting date)"),
    Metric("total_revenue_baseline_wape_pct", "the same WAPE of the mean total revenue a day "
           "of the 91 closed days before the as-of date"),
    Metric("band_coverage_pct", "share of the nights scored whose actual fell inside "
           "[rooms_low, rooms_high], measured"),
    Metric("band_nominal_pct", "share of the nights the band is built to hold"),
    Metric("better_than_last_year_pct", "1 - WAPE / WAPE of `last_year` on the nights both "
           "forecast, x 100"),
    Metric("better_than_last_year_low_pct", "low end of its 90 % interval (delete-a-week "
           "jackknife)"),
    Metric("better_than_last_year_high_pct", "high end of its 90 % interval"),
)
_ALERTS = at(
    "mart.alerts' as-of date: the last closed business date",
    Metric("value", "an alert's measure, read with `alert`: pace_below_stly the change of "
           "rooms_otb against stly_rooms_otb as a fraction (a stretch: of its nights' sums), "
           "pickup_spike the z-score of the day's pickup, over_capacity the rooms on the books "
           "(a stretch: of its night furthest past the threshold)"),
    Metric("threshold", "the alert's threshold, in the unit of its value"),
    Metric("alert_nights", "the nights of an alert: a stretch of consecutive nights of one "
           "kind, last_night - first_night + 1 (docs/alerts.md)"),
)
AHEAD: tuple[Metric, ...] = (*_BOOKS, *_PICKUP, *_LAST_YEAR, *_FORECAST, *_BUDGET, *_MADE,
                             *_EXPECTED, *_ACCURACY, *_ALERTS)
