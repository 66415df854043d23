"""Room-night forecasts from the on-the-books snapshots, and their rolling-origin backtest.

Pure polars over mart.otb_snapshots (docs/forecast.md). Notation: S the as-of date (a
snapshot date), D a stay date, h = D - S the days before arrival, OTB(S, D) the rooms on the
books at the end of S for D, final(D) = OTB(D, D) the rooms of night D at its end.

What a forecast as of S may read (no leakage): the snapshots up to S, and final(D') only for
nights D' < S (night S itself is still open on its business date). Every method here keeps to
that; tests/forecast/test_forecast.py changes every row after S and checks S's forecast.

Methods (rooms of night D as of S):
- last_year: final(D - 364), the same weekday a year earlier (h < 364 only).
- last_year_pickup: OTB(S, D) + final(D - 364) - OTB(S - 364, D - 364) (h < 364 only).
- additive_pickup: OTB(S, D) + the mean remaining pickup final(D') - OTB(D' - h, D') of the
  last `lookback_weeks` nights D' < S of D's weekday, at the same h.
- multiplicative_pickup: OTB(S, D) x sum final(D') / sum OTB(D' - h, D') over those nights.
- blend: the mean of additive_pickup and last_year (h < 364 only).
- last_year_season: the mean final of the nights of D's calendar month a year earlier, x the
  weekday factor of D's weekday (the mean of final / its month's mean over the 12 complete
  months before S's month), x the year-over-year change (finals of the 3 complete months before
  S's month over the same months a year earlier, clipped to [0.8, 1.25]). A month counts
  only when every night of it has a final above 0 (complete, open, within the history).
- season_books: last_year_season moved toward what the books say, L + w x (OTB(S, D) / p - L)
  with L = last_year_season(S, D). Fitted on the training nights: the nights D' realized in
  the `books_window_days` before S (S - 182 <= D' < S) with a last_year_season L' of their own
  forecast at the same h (as of D' - h): p = sum OTB(D' - h, D') / sum final(D'), the share of
  the final on the books h days out; w = the least-squares slope through the origin of
  final(D') - L' on OTB(D' - h, D') / p - L', clipped to [0, 1]. Null with fewer than
  `books_min_nights` training nights. The books carry the night's own luck, which the level
  cannot see; w says how much of it they told at that h on the recent nights.
- chosen: per horizon, the method of METHODS with the lowest WAPE over the nights realized in
  the `choice_days` before S (errors of forecasts made before S, scored on nights before S),
  the preferred method's (season_books) counted `switch_margin` lower. From `level_from_days`
  on, last_year_season while it has too few scored nights (in the months after the history's
  first complete month turns a year old): the pickup methods, scored by then, carry the
  season of the last weeks that far ahead. A night the chosen method has no value for takes
  the first of FALLBACK with one; past the curve nights' reach, of FAR_FALLBACK (a year back
  first).
Every forecast is clipped to [0, capacity + overbooking]. With a calendar (`calendar`:
pipelines.forecast.calendar), last year's night of a holiday or event is the same one a year earlier
(Christmas with Christmas), not D - 364, and last_year_season carries its effect then, up to
a full night (docs/forecast.md, "Holidays and events").

Band (rooms_low / rooms_high, `calibrated_band`): the forecast plus split-conformal bounds of
the errors of the forecasts in use (whatever method made each) at the horizon on the nights
realized in the `band_days` before S; with fewer than `band_min_nights` of them (`_band`) the
`interval` quantiles of the chosen method's errors on the nights its choice read, else (too
few, or a fallback method forecast) the spread of the curve nights' remaining pickup. The
backtest measures how often it held the night (`accuracy`, band_coverage_pct).

Room revenue: the books' revenue plus the rooms still to come at pickup_adr (`_pickup_adr`):
last year's final ADR of D's weekday in D's calendar month (a complete month, over before S's
month began) x the ADR's change on a year (the curve nights' final ADR over that of the curve
nights a year earlier, x 1 without them) x the late premium: the net ADR of the rooms picked
up from h days out over the final ADR, pooled over every weekday's nights of the 7 x
lookback_weeks days ending at the curve nights' last (`_late_premium`; x 1 when they picked
up no room or no revenue). Without that month, the ADR on the night's books x the books
premium (the same nights' ADR of the rooms picked up over the ADR on their books h days out).
With nothing on the books either, the curve nights' final ADR x the season's move a year
earlier (the final ADR of the `lookback_weeks` nights of D's weekday ending at D - 364 + 7 x
lookback_weeks // 2, or at D - 364 when that night is not before S, over that of the curve
nights a year earlier; x 1 when either is missing or h >= 364) x the late premium. Without
any (far out on a young history, nothing on the books, no curve night) the rooms still to
come have no rate and the night's revenue is NULL: not priced, not 0.

What a build reads: the backtest replays the as-of dates of the last `scored_days` before the
last snapshot (what its scored nights and their choices need), and the forecasts as of S read
the snapshots of the nights from S - `_reach` on and last year's books a year before S, besides
the finals of the whole history; so their cost does not grow with the history.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

from pipelines.forecast.logic.month_band import month_bands
from pipelines.forecast.logic.occasions import OCCASION_COLUMNS, occasion_effects
from pipelines.forecast.logic.skill import SKILL_COLUMNS, skill
from pipelines.vocabulary import Frame, lazy

STLY_DAYS = 364
HORIZONS = (1, 7, 14, 30, 60, 90)
"""The horizons (days before arrival) the backtest scores; a horizon of the forecast takes the
choice of the smallest of these at or above it (90 beyond 90)."""
METHODS = ("additive_pickup", "multiplicative_pickup", "last_year_pickup", "last_year", "blend",
           "last_year_season", "season_books")
"""In order of preference when two score the same."""
FALLBACK = ("additive_pickup", "blend", "last_year_pickup", "multiplicative_pickup",
            "last_year", "season_books", "last_year_season")
"""When the chosen method has no value for a night: the first of these that has one."""
FAR_FALLBACK = ("last_year_season", "last_year", *FALLBACK[:4], "season_books")
"""The same at a horizon further ahead than the curve nights reach back (7 x lookback_weeks
days: 60 and 90): a year back first. There the pickup methods carry the season of curve
nights months before the night: on the nights without last year's month (a history younger
than 13 months), autumn's pickup into January and February, +21 to +59 % at 90 days on the
tuning draws (docs/forecast.md, "The choice")."""
LEVEL_METHOD = "last_year_season"
"""The night's level: chosen far out while it has no WAPE (`ForecastSettings.level_from_days`)."""
CHOSEN = "chosen"
DEPARTMENTS = ("room_revenue", "food_beverage_revenue", "other_revenue", "total_revenue")
"""The revenues whose forecast the backtest scores beside the rooms: each `<name>_forecast`,
`_baseline` and `_actual` (`departments.department_errors`), and `<name>_wape_pct`,
`_baseline_wape_pct` (`department_wape`)."""
WAPE_COLUMNS = tuple(f"{d}{kind}_wape_pct" for d in DEPARTMENTS for kind in ("", "_baseline"))
ROOM_REVENUE_BIAS = "room_revenue_bias_pct"
"""The room revenue forecast's bias, sum (forecast - actual) / sum actual x 100 (`chosen`)."""
REVENUE_COLUMNS = (*WAPE_COLUMNS, ROOM_REVENUE_BIAS)
ON_THE_BOOKS = "on_the_books"
"""What the forecast falls back to when no method has the history it needs."""
OTB_COLUMNS = ("property_id", "snapshot_date", "stay_date", "rooms_otb", "revenue_otb_net")
KEY = ["property_id", "as_of_date", "stay_date"]
SEASON_MONTHS = 12
"""Complete months before the as-of date's month that make the weekday factors."""
TREND_MONTHS = 3
"""Complete months before the as-of date's month whose change on a year makes the trend."""
TREND_CLIP = (0.8, 1.25)
"""Bounds of the year-over-year change applied (a larger one is a break, not a trend)."""
BOOKS_SUMS = ("nights", "sum_otb", "sum_final", "sum_otb2", "sum_otb_final", "sum_otb_level",
              "sum_level_final", "sum_level2")
"""The sums over season_books' training nights its share and weight are made of."""
CALENDAR_COLUMNS = ("property_id", "stay_date", "ly_date", "ly_by_name", "occasion")
ALIGN_REACH = 40
"""Days a night aligned by name may lie from 364 days back (Easter moves by up to 35)."""
BOOKS_TINY = 1e-9
"""A sum of squared deviations (rooms^2) at or below this is 0 (the rounding of its terms)."""


@dataclass(frozen=True)
class ForecastSettings:
    lookback_weeks: int = 8
    """Nights of the same weekday whose booking curves make a pickup forecast."""
    choice_days: int = 91
    """Nights realized before the as-of date whose errors choose the method per horizon."""
    preferred_method: str = "season_books"
    switch_margin: float = 0.2
    """The choice takes another method than `preferred_method` only when its recent WAPE is
    lower than the preferred one's by at least this share of it: a quarter's WAPEs differ by
    noise, and switching on it cost accuracy on other draws of the demo hotels
    (docs/forecast.md, "The choice")."""
    min_scored: int = 7
    """Fewest scored nights for a method to be chosen (else the first method of METHODS, or
    from `level_from_days` on last_year_season) and for its errors to make the band."""
    level_from_days: int = 14
    """From this horizon on, last_year_season is chosen while it has no WAPE of its own (its
    month a year back is complete for the nights ahead, not yet for the recent nights scored):
    the pickup methods, scored by then, carry the season of their curve nights this far
    ahead, the level the night's own month (docs/forecast.md, "The choice")."""
    level_min_nights: int = 28
    """From `level_from_days` on, last_year_season stays chosen until it has this many nights
    scored of its own (not only `min_scored`): its first WAPE, of a few nights at the start of
    its first month, lost to `blend` by their luck on the demo draws, and `blend` then missed
    Florence's Easter weeks by 10 %; 28, as the fewest nights of season_books and of the band
    (docs/forecast.md, "The choice")."""
    backtest_days: int = 91
    """The backtest scores the forecasts of the nights of the last `backtest_days` realized."""
    horizon_days: int = 365
    interval: tuple[float, float] = (0.1, 0.9)
    """The shares of the band: the calibrated band's conformal ranks (`conformal_bounds`),
    else the quantiles of the chosen method's recent errors (else of the curve nights'
    remaining pickup) of `_band`."""
    band_days: int = 91
    """The calibrated band (`calibrated_band`) reads the errors of the forecast in use at the
    horizon on the nights realized in these days before the as-of date."""
    band_min_nights: int = 28
    """Fewest such nights for the calibrated band; with fewer, the band of `_band`."""
    month_band_months: int = 1
    """Months, the as-of date's own first, that get a month's band (`month_bands`). Beyond
    the current month no rule tried held within 5 points of 80 % on held-out draws (the rule
    51 / 50 / 57 % at 1 / 2 / 3 months ahead; docs/flash.md, "The month's band"): no band
    there rather than one that says 80 % and holds half."""
    overbooking_rooms: int | None = None
    """Rooms the hotel sells beyond capacity; None: the most any night before the as-of date
    ended above capacity (0 if none)."""
    books_window_days: int = 182
    """season_books: the nights realized in these days before the as-of date fit its share of
    the final on the books and its weight (each from its own forecast at the same horizon)."""
    books_min_nights: int = 28
    """season_books: fewest such nights (with a last_year_season) for a forecast."""
    pool_occasions: bool = True
    """A holiday's or event's effect pooled over the nights of its occurrence (last year's
    finals of them all over their levels); False: each night its own night a year earlier
    (`occasions.occasion_effects`; docs/forecast.md, "Holidays and events")."""
    full_share: float | None = 0.9
    """A holiday's or event's night is full at this quantile of the finals of the 365 nights
    before the as-of date's month: its effect is the one that fills last year's nights up to
    it at most, and its level stops there (`occasions.occasion_effects`); None: no full night,
    the effect a plain ratio (docs/forecast.md, "Holidays and events")."""

    def __post_init__(self) -> None:
        if self.preferred_method not in METHODS:
            raise ValueError(f"preferred_method: {self.preferred_method!r} is none of "
                             f"{', '.join(METHODS)}")
        if not 0.0 <= self.switch_margin <= 1.0:
            raise ValueError(f"switch_margin: {self.switch_margin} is not a share from 0 to 1")


def _otb(otb_snapshots: Frame) -> pl.LazyFrame:
    return lazy(otb_snapshots, "otb_snapshots", OTB_COLUMNS).select(
        "property_id", "snapshot_date", "stay_date",
        days_before=(pl.col("stay_date") - pl.col("snapshot_date")).dt.total_days()
        .cast(pl.Int64),
        rooms_otb=pl.col("rooms_otb").cast(pl.Int64),
        revenue_otb=pl.col("revenue_otb_net").cast(pl.Float64),
    )


def _finals(o: pl.LazyFrame) -> pl.LazyFrame:
    """The nights' finals, from the property's first night with a room on the books at its
    end. The snapshots begin with the first booking made, often months before the first
    night the warehouse holds (bookings taken before its history begins): those empty nights
    are not nights of 0 rooms sold, and as such they would make a last year of 0, booking
    curves without pickup, and scores of every method on nights that never were."""
    finals = o.filter(pl.col("days_before") == 0).select(
        "property_id", "stay_date", final_rooms="rooms_otb", final_revenue="revenue_otb")
    first = pl.col("stay_date").filter(pl.col("final_rooms") > 0).min().over("property_id")
    return finals.filter(pl.col("stay_date") >= first)


def _capacity(capacity: Frame, finals: pl.LazyFrame, as_of: pl.LazyFrame,
              settings: ForecastSettings) -> pl.LazyFrame:
    """property_id, as_of_date, cap = rooms + overbooking (practised before the as-of date)."""
    rooms = lazy(capacity, "capacity", ["property_id", "rooms"]).select(
        "property_id", rooms=pl.col("rooms").cast(pl.Int64))
    if settings.overbooking_rooms is not None:
        return as_of.join(rooms, on="property_id", how="left").with_columns(
            cap=pl.col("rooms") + settings.overbooking_rooms).drop("rooms")
    excess = (
        finals.join(rooms, on="property_id", how="inner")
        .select("property_id", "stay_date",
                excess=(pl.col("final_rooms") - pl.col("rooms")).clip(lower_bound=0))
        .sort("property_id", "stay_date")
        .with_columns(excess=pl.col("excess").cum_max().over("property_id"))
        .with_columns(next_day=pl.col("stay_date") + pl.duration(days=1))
        .select("property_id", "next_day", "excess")
    )
    return (
        as_of.join(rooms, on="property_id", how="left")
        .sort("as_of_date")
        .join_asof(excess.sort("next_day"), left_on="as_of_date", right_on="next_day",
                   by="property_id", strategy="backward", check_sortedness=False)
        .select("property_id", "as_of_date",
                cap=pl.col("rooms") + pl.col("excess").fill_null(0))
    )


def rooms_limit(otb_snapshots: Frame, capacity: Frame, as_of: Frame,
                settings: ForecastSettings | None = None) -> pl.DataFrame:
    """property_id, as_of_date, rooms_limit: capacity plus the overbooking practised before
    each as-of date (settings.overbooking_rooms when set)."""
    s = settings or ForecastSettings()
    return _capacity(capacity, _finals(_otb(otb_snapshots)), _as_of_keys(as_of), s).rename(
        {"cap": "rooms_limit"}).sort("property_id", "as_of_date").collect()


def expected_pickup(otb_snapshots: Frame, as_of: Frame, horizon_days: int,
                    settings: ForecastSettings | None = None) -> pl.DataFrame:
    """property_id, as_of_date, stay_date, days_before, rooms_otb, expected_pickup,
    curve_nights: for the nights D = S .. S + horizon_days of each as-of date S of `as_of`, the
    rooms additive_pickup expects D to pick up from S to its end (the mean remaining pickup
    final(D') - OTB(D' - h, D') of its curve nights at h = D - S), not clipped: what the
    forecast expects whatever the hotel can sell. Null without curve nights."""
    s = settings or ForecastSettings()
    o = _otb(otb_snapshots).filter(pl.col("days_before") <= horizon_days)
    wanted = _as_of_keys(as_of)
    first = wanted.group_by("property_id").agg(first=pl.col("as_of_date").min())
    curves = o.join(first, on="property_id", how="inner").filter(
        pl.col("stay_date") >= pl.col("first") - pl.duration(days=_curve_reach(s))).drop("first")
    stats = _curve_stats(curves, _finals(_otb(otb_snapshots)), s).select(
        "property_id", "days_before", "ref_date", "curve_nights",
        expected_pickup="mean_pickup")
    return (
        o.join(wanted, left_on=["property_id", "snapshot_date"],
               right_on=["property_id", "as_of_date"], how="inner")
        .rename({"snapshot_date": "as_of_date"})
        .with_columns(ref_date=pl.col("stay_date")
                      - pl.duration(days=7 * (pl.col("days_before") // 7 + 1)))
        .join(stats, on=["property_id", "days_before", "ref_date"], how="left")
        .select(*KEY, "days_before", "rooms_otb", "expected_pickup", "curve_nights")
        .sort(KEY)
        .collect()
    )


def _cents(amount: pl.Expr) -> pl.Expr:
    """The amount in whole cents: sums of them are exact in any order."""
    return (amount * 100).round(0).cast(pl.Int64)


def _curve_stats(o: pl.LazyFrame, finals: pl.LazyFrame,
                 settings: ForecastSettings) -> pl.LazyFrame:
    """For each realized night D' and h: the booking curves of the `lookback_weeks` nights of
    its weekday ending at D' (D' included), at the same h."""
    lo, hi = settings.interval
    curve = o.join(finals, on=["property_id", "stay_date"], how="inner").select(
        "property_id", "stay_date", "days_before",
        weekday=pl.col("stay_date").dt.weekday(),
        pickup=(pl.col("final_rooms") - pl.col("rooms_otb")).cast(pl.Float64),
        otb="rooms_otb", final="final_rooms",
        # in cents: a rolling sum of floats moves in its last bits with the night the
        # series starts at, and a forecast must not move with how much history was read
        final_cents=_cents(pl.col("final_revenue")),
    )
    return (
        curve.sort("property_id", "days_before", "weekday", "stay_date")
        .rolling(index_column="stay_date", period=f"{7 * settings.lookback_weeks}d",
                 group_by=["property_id", "days_before", "weekday"])
        .agg(
            curve_nights=pl.len(),
            mean_pickup=pl.col("pickup").mean(),
            q_low=pl.col("pickup").quantile(lo, interpolation="linear"),
            q_high=pl.col("pickup").quantile(hi, interpolation="linear"),
            sum_final=pl.col("final").sum(),
            sum_otb=pl.col("otb").sum(),
            sum_revenue=pl.col("final_cents").sum() / 100,
        )
        .rename({"stay_date": "ref_date"})
        .drop("weekday")
    )


def _final_adr(finals: pl.LazyFrame, settings: ForecastSettings) -> pl.LazyFrame:
    """property_id, night, final_adr: the net ADR of the `lookback_weeks` nights of its
    weekday ending at the night (the night included), as the booking curves sum them."""
    return (
        finals.select("property_id", "stay_date", weekday=pl.col("stay_date").dt.weekday(),
                      final=pl.col("final_rooms"),
                      final_cents=_cents(pl.col("final_revenue")))
        .sort("property_id", "weekday", "stay_date")
        .rolling(index_column="stay_date", period=f"{7 * settings.lookback_weeks}d",
                 group_by=["property_id", "weekday"])
        .agg(rooms=pl.col("final").sum(), cents=pl.col("final_cents").sum())
        .select("property_id", night="stay_date",
                final_adr=pl.when(pl.col("rooms") > 0)
                .then(pl.col("cents") / 100 / pl.col("rooms")))
    )


def _late_premium(curves: pl.LazyFrame, finals: pl.LazyFrame,
                  settings: ForecastSettings) -> pl.LazyFrame:
    """property_id, days_before, ref_date, late_premium, books_premium: over the nights of
    every weekday in the 7 x `lookback_weeks` days ending at ref_date, the net ADR of the
    rooms they picked up from h days out (revenue picked up / rooms picked up) over their
    final ADR (late_premium), and over the ADR on their books h days out (books_premium).
    Rates rise as a hotel fills, so the rooms still to come pay more than the night's
    average; the nights are pooled over the weekdays because a few rooms' net pickup divides
    the revenue it moved. Null when they picked up no room or no revenue (books_premium: or
    had none on the books)."""
    nights = curves.join(finals, on=["property_id", "stay_date"], how="inner").select(
        "property_id", "stay_date", "days_before",
        picked=pl.col("final_rooms") - pl.col("rooms_otb"),
        picked_cents=_cents(pl.col("final_revenue") - pl.col("revenue_otb")),
        final="final_rooms",
        final_cents=_cents(pl.col("final_revenue")),
    )
    pooled = (
        nights.sort("property_id", "days_before", "stay_date")
        .rolling(index_column="stay_date", period=f"{7 * settings.lookback_weeks}d",
                 group_by=["property_id", "days_before"])
        .agg(*[pl.col(c).sum() for c in ("picked", "picked_cents", "final", "final_cents")])
    )
    positive = ((pl.col("picked") > 0) & (pl.col("picked_cents") > 0) & (pl.col("final") > 0)
                & (pl.col("final_cents") > 0))
    booked, booked_cents = (pl.col("final") - pl.col("picked"),
                            pl.col("final_cents") - pl.col("picked_cents"))
    picked_adr = pl.col("picked_cents") / pl.col("picked")
    return pooled.select(
        "property_id", "days_before", ref_date="stay_date",
        late_premium=pl.when(positive).then(picked_adr / (pl.col("final_cents") / pl.col("final"))),
        books_premium=pl.when(positive & (booked > 0) & (booked_cents > 0))
        .then(picked_adr / (booked_cents / booked)),
    )


def _ly_season_date(settings: ForecastSettings) -> pl.Expr:
    """The last night of the window whose final ADR is night D's season a year earlier: the
    `lookback_weeks` nights of D's weekday around D - 364 (up to D - 364 + 7 x half of them)
    while that night is before S, else those ending at D - 364 (h < 364), else none."""
    ahead = 7 * (settings.lookback_weeks // 2)
    h, night = pl.col("days_before"), pl.col("stay_date")
    return (pl.when(h < STLY_DAYS - ahead).then(night - pl.duration(days=STLY_DAYS - ahead))
            .when(h < STLY_DAYS).then(night - pl.duration(days=STLY_DAYS)))


def _months(finals: pl.LazyFrame) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """The finals in whole rooms and cents (sums exact in any order, so that the figures do
    not depend on the order the joins leave rows in) with their month, and the complete
    months: property_id, month, month_total, nights. A month with a night missing from the
    snapshots, or a night without a room sold (closed, or before the hotel's history begins),
    is neither a level nor a price."""
    f = finals.select("property_id", "stay_date", final=pl.col("final_rooms").cast(pl.Int64),
                      cents=_cents(pl.col("final_revenue")),
                      month=pl.col("stay_date").dt.truncate("1mo"))
    complete = (
        f.group_by("property_id", "month")
        .agg(month_total=pl.col("final").sum(), nights=pl.len(), least=pl.col("final").min())
        .filter(pl.col("nights") == pl.col("month").dt.month_end().dt.day().cast(pl.UInt32),
                pl.col("least") > 0)
    )
    return f, complete


def _season(finals: pl.LazyFrame) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """The parts of last_year_season, keyed by calendar month so that each reads complete
    months only (a month is over, all its nights realized, before the first of the next).

    Returns (levels: property_id, month, month_mean, the mean final of the month's nights, for
    the months whose every night has a final;
    shape: property_id, key_month, weekday, weekday_factor, trend), shape computed from the
    months before key_month only."""
    f, totals = _months(finals)
    levels = totals.select("property_id", "month",
                           month_mean=pl.col("month_total") / pl.col("nights"))
    rel = (
        f.group_by("property_id", "month", weekday=pl.col("stay_date").dt.weekday())
        .agg(weekday_total=pl.col("final").sum(), weekday_nights=pl.len())
        .join(totals, on=["property_id", "month"])
        # sum of final / month mean over the weekday's nights of the month
        .select("property_id", "month", "weekday", nights="weekday_nights",
                sum_rel=pl.col("weekday_total") * pl.col("nights") / pl.col("month_total"))
    )
    pairs = levels.join(
        levels.select("property_id", month=pl.col("month").dt.offset_by("1y"),
                      ly_mean="month_mean"),
        on=["property_id", "month"], how="inner")
    keys = f.select("property_id", "month").unique()

    def back(months: int) -> pl.LazyFrame:
        offsets = pl.LazyFrame({"back": list(range(1, months + 1))},
                               schema={"back": pl.Int64})
        return keys.join(offsets, how="cross").select(
            "property_id", key_month=pl.col("month").dt.offset_by("1mo"),
            month=pl.col("month").dt.offset_by("1mo").dt.offset_by(
                pl.format("-{}mo", pl.col("back"))))

    weekday = (
        back(SEASON_MONTHS).unique().join(rel, on=["property_id", "month"], how="inner")
        .group_by("property_id", "key_month", "weekday")
        .agg(weekday_factor=pl.col("sum_rel").sum() / pl.col("nights").sum())
        # rounded: a float sum may differ in its last bits with the order of its terms
        .with_columns(weekday_factor=pl.col("weekday_factor").round(9))
    )
    lo, hi = TREND_CLIP
    trend = (
        back(TREND_MONTHS).unique().join(pairs, on=["property_id", "month"], how="inner")
        .group_by("property_id", "key_month")
        .agg(sum_ty=pl.col("month_mean").sum(), sum_ly=pl.col("ly_mean").sum())
        .select("property_id", "key_month",
                trend=(pl.col("sum_ty") / pl.col("sum_ly")).clip(lo, hi).round(9))
    )
    shape = weekday.join(trend, on=["property_id", "key_month"], how="left")
    return levels, shape


def _clip(expr: pl.Expr) -> pl.Expr:
    return expr.clip(lower_bound=0.0, upper_bound=pl.col("cap").cast(pl.Float64))


def _event_effect(rows: pl.LazyFrame, effects: pl.LazyFrame) -> pl.LazyFrame:
    """rows (with key_month, ly_date, occasion) with event_effect and full: for a night aligned
    by a holiday's or event's name (`pipelines.forecast.calendar`), its occasion's effect and
    full night as of key_month (`occasions.occasion_effects`); 1 and none for every other night
    and while unknown."""
    return rows.join(effects, on=["property_id", "key_month", "occasion", "ly_date"],
                     how="left").with_columns(pl.col("event_effect").fill_null(1.0))


def _with_season(rows: pl.LazyFrame, levels: pl.LazyFrame, shape: pl.LazyFrame,
                 effects: pl.LazyFrame) -> pl.LazyFrame:
    """rows (property_id, as_of_date, stay_date, cap, ly_date, occasion, ...) with
    last_year_season: the level of the night stay_date as of as_of_date (levels and shape from
    `_season`), x its event effect, no more than its full night (`_event_effect`; effects:
    `occasion_effects`)."""
    ly_level = levels.select("property_id", ly_month="month", ly_month_mean="month_mean")
    keyed = rows.with_columns(
        key_month=pl.col("as_of_date").dt.truncate("1mo"),
        ly_month=pl.col("stay_date").dt.truncate("1mo").dt.offset_by("-1y"),
        weekday=pl.col("stay_date").dt.weekday(),
    )
    return (
        _event_effect(keyed, effects)
        .join(ly_level, on=["property_id", "ly_month"], how="left")
        .join(shape, on=["property_id", "key_month", "weekday"], how="left")
        .with_columns(
            # the month a year back is over by S (it ends before S's month begins)
            last_year_season=_clip(pl.when(pl.col("ly_month") < pl.col("key_month")).then(
                (pl.col("ly_month_mean") * pl.col("weekday_factor").fill_null(1.0)
                 * pl.col("trend").fill_null(1.0) * pl.col("event_effect"))
                .clip(upper_bound=pl.col("full")))),
        )
        .drop("key_month", "ly_month", "weekday", "ly_month_mean", "weekday_factor", "trend",
              "event_effect", "full")
    )


def _books_fit(training: pl.LazyFrame, targets: pl.LazyFrame,
               settings: ForecastSettings) -> pl.LazyFrame:
    """season_books' share and weight for each target (property_id, as_of_date S,
    days_before h): targets with books_share p and books_weight w (null when not fitted).

    training: property_id, stay_date D', days_before h, rooms_otb = OTB(D' - h, D'),
    final = final(D'), last_year_season = L' (as of D' - h), one row per night and h, the
    nights realized only. The nights of S are those with S - books_window_days <= D' < S:
    running sums over D' per property and h, read at the last night before S minus at the
    last night before the window (so nothing at or after S is read). The least-squares sums
    of dev' = otb'/p - L' and resid' = final' - L' are expanded in p:
    sum dev' resid' = (sum otb' final' - sum otb' L') / p - (sum L' final' - sum L'^2),
    sum dev'^2 = sum otb'^2 / p^2 - 2 sum otb' L' / p + sum L'^2."""
    otb, final = pl.col("rooms_otb").cast(pl.Int64), pl.col("final").cast(pl.Int64)
    level = pl.col("last_year_season")
    terms = dict(zip(BOOKS_SUMS, (pl.lit(1, dtype=pl.Int64), otb, final, otb * otb,
                                  otb * final, otb * level, level * final, level * level),
                     strict=True))
    by = ["property_id", "days_before"]
    running = (
        training.filter(final.is_not_null(), level.is_not_null())
        .select(*by, "stay_date", **terms)
        .sort(*by, "stay_date")
        .with_columns(pl.col(*BOOKS_SUMS).cum_sum().over(by))
    )

    def upto(days: int, suffix: str) -> pl.LazyFrame:
        """The running sums at the last night at or before S - days."""
        return running.select(*by, night=pl.col("stay_date") + pl.duration(days=days),
                              **{f"{c}{suffix}": c for c in BOOKS_SUMS}).sort("night")

    window = settings.books_window_days
    joined = (
        targets.select(*by, "as_of_date").unique().sort("as_of_date")
        .join_asof(upto(1, "_to"), left_on="as_of_date", right_on="night", by=by,
                   strategy="backward", check_sortedness=False).drop("night")
        .join_asof(upto(window + 1, "_from"), left_on="as_of_date", right_on="night", by=by,
                   strategy="backward", check_sortedness=False).drop("night")
        .select(*by, "as_of_date", **{
            c: pl.col(f"{c}_to") - pl.col(f"{c}_from").fill_null(0) for c in BOOKS_SUMS})
    )
    fitted = ((pl.col("nights") >= settings.books_min_nights) & (pl.col("sum_otb") > 0)
              & (pl.col("sum_final") > 0))
    p = pl.col("books_share")
    dev_resid = ((pl.col("sum_otb_final") - pl.col("sum_otb_level")) / p
                 - (pl.col("sum_level_final") - pl.col("sum_level2")))
    dev2 = pl.col("sum_otb2") / (p * p) - 2 * pl.col("sum_otb_level") / p + pl.col("sum_level2")
    return (
        joined.with_columns(books_share=pl.when(fitted)
                            .then(pl.col("sum_otb") / pl.col("sum_final")))
        .with_columns(dev_resid=dev_resid, dev2=dev2)
        .select(*by, "as_of_date", "books_share",
                # rounded: the sums' last bits move with the night the running sums start at
                books_weight=pl.when(pl.col("dev2") > BOOKS_TINY)
                .then((pl.col("dev_resid") / pl.col("dev2")).clip(0.0, 1.0).round(9)))
    )


def _pickup_adr(ly_known: pl.Expr) -> pl.Expr:
    """The net ADR of the rooms still to come, as the module's docstring ("Room revenue")
    defines it. Without last year's month (a history younger than a year and a month) the
    books' ADR comes first: the books carry the night's season, the weeks before it do not."""
    curve = pl.when(pl.col("sum_final") > 0).then(pl.col("sum_revenue") / pl.col("sum_final"))
    ly_curve = pl.col("ly_curve_adr")
    year_on_year = pl.when(ly_known & (ly_curve > 0))
    premium = pl.col("late_premium").fill_null(1.0)
    rooms, revenue = pl.col("rooms_otb"), pl.col("revenue_otb")
    return (
        pl.when(pl.col("ly_month_adr").is_not_null())
        .then(pl.col("ly_month_adr") * year_on_year.then(curve / ly_curve).fill_null(1.0)
              * premium)
        .when((rooms > 0) & (revenue > 0))
        .then(revenue / rooms * pl.col("books_premium").fill_null(1.0))
        .otherwise(curve * year_on_year.then(pl.col("ly_night_adr") / ly_curve).fill_null(1.0)
                   * premium)
    )


def _last_year_month_adr(finals: pl.LazyFrame) -> pl.LazyFrame:
    """property_id, month, weekday, ly_month_adr: the net final ADR of the nights of that
    weekday in the same calendar month a year earlier, when that month is complete (every
    night with a final above 0, as last_year_season's levels). Hotels price by season and
    weekday, and a season changes at a month's turn: an ADR averaged over weeks around a
    night a year earlier blends two months' prices at the turn."""
    f, complete = _months(finals)
    return (
        f.join(complete.select("property_id", "month"), on=["property_id", "month"], how="inner")
        .group_by("property_id", "month", weekday=pl.col("stay_date").dt.weekday())
        .agg(rooms=pl.col("final").sum(), cents=pl.col("cents").sum())
        .select("property_id", "weekday", month=pl.col("month").dt.offset_by("1y"),
                ly_month_adr=pl.col("cents") / 100 / pl.col("rooms"))
    )


def _curve_reach(settings: ForecastSettings) -> int:
    """Days before an as-of date S whose nights make its booking curves: the `lookback_weeks`
    nights of a weekday ending in the week before S."""
    return 7 * (settings.lookback_weeks + 1)


def _reach(settings: ForecastSettings) -> int:
    """Days before an as-of date S whose nights its forecasts read beyond the finals: its
    booking curves and season_books' training nights (S - books_window_days on)."""
    return max(settings.books_window_days, _curve_reach(settings))


def _aligned(rows: pl.LazyFrame, calendar: Frame | None) -> pl.LazyFrame:
    """rows (property_id, stay_date, ...) with ly_date, the same night last year (the
    calendar's, aligned by holiday and event: `pipelines.forecast.calendar`; else 364 days
    back), ly_by_name (aligned by a name) and occasion (the name's occurrence, else null)."""
    back = pl.col("stay_date") - pl.duration(days=STLY_DAYS)
    if calendar is None:
        return rows.with_columns(ly_date=back, ly_by_name=pl.lit(False),
                                 occasion=pl.lit(None, dtype=pl.String))
    days = _calendar(calendar, rows.collect_schema()["property_id"]).select(
        "property_id", "stay_date", cal_ly_date="ly_date", cal_by_name="ly_by_name",
        cal_occasion="occasion")
    return rows.join(days, on=["property_id", "stay_date"], how="left").with_columns(
        ly_date=pl.coalesce("cal_ly_date", back),
        ly_by_name=pl.col("cal_by_name").fill_null(False),
        occasion=pl.when(pl.col("cal_by_name")).then(pl.col("cal_occasion")),
    ).drop("cal_ly_date", "cal_by_name", "cal_occasion")


def _calendar(calendar: Frame, id_type: pl.DataType) -> pl.LazyFrame:
    return lazy(calendar, "calendar", CALENDAR_COLUMNS).select(
        pl.col("property_id").cast(id_type), "stay_date", "ly_date", "ly_by_name", "occasion")


def _occasions(calendar: Frame | None, id_type: pl.DataType) -> pl.LazyFrame:
    """property_id, ly_date, occasion of the calendar's nights aligned by a name."""
    if calendar is None:
        return pl.LazyFrame(schema={"property_id": id_type, "ly_date": pl.Date,
                                    "occasion": pl.String})
    return _calendar(calendar, id_type).filter(
        pl.col("ly_by_name"), pl.col("occasion").is_not_null()).select(OCCASION_COLUMNS)


def method_forecasts(otb_snapshots: Frame, capacity: Frame, as_of: Frame,
                     horizons: Sequence[int] | None = None,
                     settings: ForecastSettings | None = None,
                     calendar: Frame | None = None) -> pl.DataFrame:
    """Every method's rooms forecast for the as-of dates of `as_of` (property_id, as_of_date;
    snapshot dates) and the stay dates D = S + h, h in `horizons` (default 0..horizon_days).

    capacity: property_id, rooms (the rooms the hotel sells). One row per (property_id,
    as_of_date, stay_date): days_before, rooms_otb, revenue_otb, cap, one column per method
    (null when it lacks history), spread_low / spread_high (quantiles of the remaining pickup
    minus its mean) and pickup_adr (the net ADR of the rooms still to come: `_pickup_adr`, the
    module's docstring). calendar: property_id, stay_date, ly_date, ly_by_name
    (`pipelines.forecast.calendar.property_calendars`): last year's night of last_year and
    last_year_pickup, and the event effect of last_year_season; none: 364 days back."""
    s = settings or ForecastSettings()
    o = _otb(otb_snapshots).collect().lazy()
    finals = _finals(o).collect().lazy()
    wanted = lazy(as_of, "as_of", ["property_id", "as_of_date"]).select(
        "property_id", "as_of_date").unique()
    hs = list(range(s.horizon_days + 1)) if horizons is None else sorted(set(horizons))
    night = pl.col("stay_date")
    span = wanted.group_by("property_id").agg(
        first=pl.col("as_of_date").min(), last=pl.col("as_of_date").max())
    # The snapshots of the nights the wanted as-of dates read (their targets, season_books'
    # training nights, the booking curves a week before them), so that the cost follows the
    # as-of dates asked for, not the history; the finals stay whole (levels, overbooking).
    first = pl.col("first")
    reads = o.join(span, on="property_id", how="inner").filter(
        night >= first - pl.duration(days=_reach(s)))
    recent = reads.drop("first", "last")
    curves = reads.filter(pl.col("days_before").is_in(hs),
                          night >= first - pl.duration(days=_curve_reach(s))).drop("first", "last")
    targets = (
        recent.join(wanted, left_on=["property_id", "snapshot_date"],
                    right_on=["property_id", "as_of_date"], how="inner")
        .filter(pl.col("days_before").is_in(hs))
        .rename({"snapshot_date": "as_of_date"})
    )
    # the nights season_books fits on: realized in the window before some as-of date wanted,
    # each with its own forecast at the same h (h days before it)
    training = (
        recent.filter(pl.col("days_before").is_in(hs))
        .join(span, on="property_id", how="inner")
        .filter(night < pl.col("last"),
                night >= pl.col("first") - pl.duration(days=s.books_window_days))
        .rename({"snapshot_date": "as_of_date"})
        .join(finals.select("property_id", "stay_date", final="final_rooms"),
              on=["property_id", "stay_date"], how="inner")
    )
    caps = _capacity(capacity, finals, pl.concat([
        wanted, training.select("property_id", "as_of_date").unique()]).unique(), s)
    levels, shape = _season(finals)
    key_months = pl.concat([wanted, training.select("property_id", "as_of_date")]).select(
        "property_id", key_month=pl.col("as_of_date").dt.truncate("1mo")).unique()
    effects = occasion_effects(_occasions(calendar, o.collect_schema()["property_id"]),
                               key_months, levels, shape, finals,
                               pooled=s.pool_occasions, full_share=s.full_share
                               ).collect().lazy()

    def with_level(rows: pl.LazyFrame) -> pl.LazyFrame:
        return _with_season(_aligned(rows, calendar).join(
            caps, on=["property_id", "as_of_date"], how="left"), levels, shape, effects)

    targets = with_level(targets).with_columns(
        ref_date=night - pl.duration(days=7 * (pl.col("days_before") // 7 + 1)),
        ly_as_of=pl.col("ly_date") - pl.duration(days=pl.col("days_before")),
    )
    books = _books_fit(with_level(training).drop("ly_date", "ly_by_name", "occasion"), targets, s)
    ly_final = finals.select("property_id", ly_date="stay_date", ly_final="final_rooms")
    a_year = pl.duration(days=STLY_DAYS)
    moved = pl.duration(days=ALIGN_REACH)  # a night aligned by name is within this of 364
    ly_otb = (
        o.join(span, on="property_id", how="inner")
        .filter(pl.col("snapshot_date").is_between(pl.col("first") - a_year - moved,
                                                   pl.col("last") - a_year + moved))
        .select("property_id", ly_as_of="snapshot_date", ly_date="stay_date",
                ly_otb="rooms_otb")
    )
    stats = _curve_stats(curves, finals, s)
    premium = _late_premium(curves, finals, s)
    adr = _final_adr(finals, s)
    month_adr = _last_year_month_adr(finals)
    ly_known = pl.col("days_before") < STLY_DAYS  # night D - 364 is over by S
    ly_over = pl.col("ly_date") < pl.col("as_of_date")  # last year's night is over by S
    otb = pl.col("rooms_otb").cast(pl.Float64)
    ratio = pl.when(pl.col("sum_otb") > 0).then(pl.col("sum_final") / pl.col("sum_otb"))
    level = pl.col("last_year_season")
    return (
        targets
        .join(stats, on=["property_id", "days_before", "ref_date"], how="left")
        .join(premium, on=["property_id", "days_before", "ref_date"], how="left")
        .join(ly_final, on=["property_id", "ly_date"], how="left")
        .join(ly_otb, on=["property_id", "ly_as_of", "ly_date"], how="left")
        .join(books, on=["property_id", "days_before", "as_of_date"], how="left")
        .with_columns(ly_ref_date=pl.col("ref_date") - a_year,
                      ly_season_date=_ly_season_date(s))
        .join(adr.rename({"night": "ly_season_date", "final_adr": "ly_night_adr"}),
              on=["property_id", "ly_season_date"], how="left")
        .join(adr.rename({"night": "ly_ref_date", "final_adr": "ly_curve_adr"}),
              on=["property_id", "ly_ref_date"], how="left")
        .with_columns(month=night.dt.truncate("1mo"), weekday=night.dt.weekday())
        .join(month_adr, on=["property_id", "month", "weekday"], how="left")
        # last year's month only once it is over by S: it ended before S's month began
        .with_columns(ly_month_adr=pl.when(pl.col("month").dt.offset_by("-1y")
                                           < pl.col("as_of_date").dt.truncate("1mo"))
                      .then(pl.col("ly_month_adr")))
        .with_columns(
            last_year=_clip(pl.when(ly_over).then(pl.col("ly_final").cast(pl.Float64))),
            last_year_pickup=_clip(pl.when(ly_over).then(
                otb + pl.col("ly_final") - pl.col("ly_otb"))),
            additive_pickup=_clip(otb + pl.col("mean_pickup")),
            multiplicative_pickup=_clip(otb * ratio),
            season_books=_clip(level + pl.col("books_weight")
                               * (otb / pl.col("books_share") - level)),
        )
        .with_columns(
            blend=(pl.col("additive_pickup") + pl.col("last_year")) / 2,
            spread_low=pl.col("q_low") - pl.col("mean_pickup"),
            spread_high=pl.col("q_high") - pl.col("mean_pickup"),
            pickup_adr=_pickup_adr(ly_known),
        )
        .select(*KEY, "days_before", "rooms_otb", "revenue_otb", "cap", *METHODS,
                "spread_low", "spread_high", "pickup_adr")
        .sort(KEY)
        .collect()
    )


def _bucket(days_before: pl.Expr) -> pl.Expr:
    out = pl.lit(HORIZONS[-1], dtype=pl.Int64)
    for h in reversed(HORIZONS):
        out = pl.when(days_before <= h).then(pl.lit(h, dtype=pl.Int64)).otherwise(out)
    return out


def _realized(otb_snapshots: Frame) -> pl.DataFrame:
    """property_id, stay_date, rooms_actual of the nights over (before the last snapshot)."""
    o = _otb(otb_snapshots)
    last = o.group_by("property_id").agg(last=pl.col("snapshot_date").max())
    return (
        _finals(o).join(last, on="property_id")
        .filter(pl.col("stay_date") < pl.col("last"))
        .select("property_id", "stay_date", rooms_actual="final_rooms")
        .collect()
    )


def _as_of_dates(otb_snapshots: Frame) -> pl.DataFrame:
    return _otb(otb_snapshots).select("property_id", as_of_date="snapshot_date").unique().collect()


def _as_of_keys(as_of: Frame) -> pl.LazyFrame:
    """property_id, as_of_date: each as-of date of `as_of` once."""
    return lazy(as_of, "as_of", ["property_id", "as_of_date"]).select(
        "property_id", "as_of_date").unique()


def _by_horizon(as_of: Frame) -> pl.LazyFrame:
    """Each as-of date of `as_of` at each of HORIZONS (horizon_days)."""
    return _as_of_keys(as_of).join(
        pl.LazyFrame({"horizon_days": list(HORIZONS)}, schema={"horizon_days": pl.Int64}),
        how="cross")


def _window_before(grid: pl.LazyFrame, rows: pl.LazyFrame, days: int, by: list[str],
                   **aggs: pl.Expr) -> pl.LazyFrame:
    """grid (`by`, as_of_date S) with `aggs` over the rows (`by`, stay_date) of the nights in
    [S - days, S - 1]: a rolling window of `days` read at the last night before S, and
    `fresh`, whether that night is in [S - days, S - 1] (else the aggregates are of older
    nights)."""
    window = (
        rows.sort(*by, "stay_date")
        .rolling(index_column="stay_date", period=f"{days}d", group_by=by)
        .agg(**aggs)
        .with_columns(usable_from=pl.col("stay_date") + pl.duration(days=1))
    )
    return grid.sort("as_of_date").join_asof(
        window.sort("usable_from"), left_on="as_of_date", right_on="usable_from", by=by,
        strategy="backward", check_sortedness=False,
    ).with_columns(fresh=(pl.col("as_of_date") - pl.col("usable_from")).dt.total_days() < days)


def recent_scores(errors: pl.DataFrame, as_of: Frame,
                settings: ForecastSettings | None = None) -> pl.LazyFrame:
    """Per property, as-of date S, horizon and method, over the method's forecasts of the
    nights realized in [S - choice_days, S - 1] (null under min_scored nights): their WAPE,
    and the `interval` quantiles of their errors actual - forecast (the band, `_band`).
    property_id, as_of_date, horizon_days, method, rank (its place in METHODS), scored (the
    nights), wape, error_low, error_high."""
    s = settings or ForecastSettings()
    lo, hi = s.interval
    miss = pl.col("rooms_actual") - pl.col("rooms_forecast")
    grid = _by_horizon(as_of).join(
        pl.LazyFrame({"method": list(METHODS), "rank": list(range(len(METHODS)))},
                     schema={"method": pl.String, "rank": pl.Int64}), how="cross")
    scored = _window_before(
        grid, errors.lazy().with_columns(abs_error=miss.abs(), miss=miss,
                                         actual=pl.col("rooms_actual").cast(pl.Float64)),
        s.choice_days, ["property_id", "horizon_days", "method"],
        scored=pl.len(), sum_abs=pl.col("abs_error").sum(), sum_actual=pl.col("actual").sum(),
        error_low=pl.col("miss").quantile(lo, interpolation="linear"),
        error_high=pl.col("miss").quantile(hi, interpolation="linear"))
    score = pl.when(pl.col("sum_actual") > 0).then(pl.col("sum_abs") / pl.col("sum_actual"))
    fresh = pl.col("fresh")
    enough = fresh & (pl.col("scored") >= s.min_scored)
    return scored.select(
        "property_id", "as_of_date", "horizon_days", "method", "rank",
        scored=pl.when(fresh).then(pl.col("scored")).fill_null(0),
        wape=pl.when(enough).then(score),
        # rounded: a float quantile's last bits are no figure
        error_low=pl.when(enough).then(pl.col("error_low").round(9)),
        error_high=pl.when(enough).then(pl.col("error_high").round(9)))


def choices(errors: pl.DataFrame, as_of: Frame,
            settings: ForecastSettings | None = None) -> pl.DataFrame:
    """The method chosen per as-of date S and horizon: lowest WAPE over the nights realized in
    [S - choice_days, S - 1], the preferred method's counted `switch_margin` lower (ties: the
    order of METHODS; too few nights: METHODS[0]); from `level_from_days` on, last_year_season
    while it has fewer than `level_min_nights` nights scored of its own. With the quantiles of
    the chosen method's errors on those nights (`recent_scores`; null without its WAPE).
    property_id, as_of_date, horizon_days, chosen_method, error_low, error_high, far (a
    horizon beyond the curve nights' reach, 7 x lookback_weeks days: `_pick`'s fallbacks are
    FAR_FALLBACK there)."""
    s = settings or ForecastSettings()
    wape = pl.col("wape")
    young_level = ((pl.col("method") == LEVEL_METHOD)
                   & (wape.is_null() | (pl.col("scored") < s.level_min_nights))
                   & (pl.col("horizon_days") >= s.level_from_days))
    return (
        recent_scores(errors, as_of, s)
        .with_columns(key=pl.when(young_level).then(float("-inf"))
                      .when(wape.is_null()).then(float("inf"))
                      .when(pl.col("method") == s.preferred_method)
                      .then(wape * (1 - s.switch_margin))
                      .otherwise(wape))
        .sort("property_id", "as_of_date", "horizon_days", "key", "rank")
        .group_by("property_id", "as_of_date", "horizon_days", maintain_order=True)
        .agg(chosen_method=pl.col("method").first(), best=pl.col("key").first(),
             error_low=pl.col("error_low").first(), error_high=pl.col("error_high").first())
        .with_columns(chosen_method=pl.when(pl.col("best") == float("inf"))
                      .then(pl.lit(METHODS[0])).otherwise(pl.col("chosen_method")),
                      far=pl.col("horizon_days") > 7 * s.lookback_weeks)
        .drop("best")
        .sort("property_id", "as_of_date", "horizon_days")
        .collect()
    )


def _pick(forecasts: pl.DataFrame, chosen: pl.DataFrame) -> pl.DataFrame:
    """Add `method` (the chosen one, else the first of the fallbacks with a value: FALLBACK,
    FAR_FALLBACK where the choice says `far`), `rooms_forecast`, and its band `rooms_low` /
    `rooms_high` (`_band`)."""
    joined = forecasts.with_columns(horizon_days=_bucket(pl.col("days_before"))).join(
        chosen, on=["property_id", "as_of_date", "horizon_days"], how="left")
    # Flat coalesces: a chain of when/otherwise each reading the one before grows the
    # expression (and polars' planning of it) with every method.
    hits = [(m, (pl.col("chosen_method") == m) & pl.col(m).is_not_null()) for m in METHODS]
    far = pl.col("far").fill_null(False)
    order = [(m, pl.when(~far)) for m in FALLBACK] + [(m, pl.when(far)) for m in FAR_FALLBACK]
    value = pl.coalesce(*[pl.when(hit).then(pl.col(m)) for m, hit in hits],
                        *[when.then(pl.col(m)) for m, when in order])
    name = pl.coalesce(*[pl.when(hit).then(pl.lit(m)) for m, hit in hits],
                       *[when.then(pl.when(pl.col(m).is_not_null()).then(pl.lit(m)))
                         for m, when in order])
    otb = pl.col("rooms_otb").cast(pl.Float64).clip(upper_bound=pl.col("cap").cast(pl.Float64))
    return joined.with_columns(
        rooms_forecast=value.fill_null(otb),
        method=name.fill_null(pl.lit(ON_THE_BOOKS)),
    ).with_columns(**_band()).drop("chosen_method", "error_low", "error_high", "far")


def _band() -> dict[str, pl.Expr]:
    """rooms_low / rooms_high of a picked forecast: rooms_forecast plus the `interval`
    quantiles of its method's errors (actual - forecast) on the recent nights, when the method
    is the chosen one with a WAPE; else plus the spread of the curve nights' remaining pickup
    around their mean (spread_low / spread_high). Clipped to [0, cap], never above / below
    the forecast."""
    rooms, cap = pl.col("rooms_forecast"), pl.col("cap").cast(pl.Float64)
    own = pl.col("method") == pl.col("chosen_method")
    low = pl.coalesce(pl.when(own).then(pl.col("error_low")), pl.col("spread_low"), pl.lit(0.0))
    high = pl.coalesce(pl.when(own).then(pl.col("error_high")), pl.col("spread_high"),
                       pl.lit(0.0))
    return {
        "rooms_low": pl.min_horizontal(rooms, (rooms + low).clip(0.0, cap)),
        "rooms_high": pl.max_horizontal(rooms, (rooms + high).clip(0.0, cap)),
    }


def scored_days(settings: ForecastSettings) -> int:
    """How far before the last snapshot T the backtest's as-of dates go. It scores the nights
    D >= T - backtest_days, each at h <= max(HORIZONS) by the method chosen as of D - h, from
    the errors of the nights D' of the choice_days before that, each forecast as of D' - h;
    its band as of D - h reads the errors of the forecasts in use on the nights of the
    band_days before, each forecast (and its method chosen) as of D' - h:
    T - backtest_days - band_days - choice_days - 3 max(HORIZONS) at the earliest."""
    return (settings.backtest_days + settings.band_days + settings.choice_days
            + 3 * max(HORIZONS))


def conformal_bounds(n: pl.Expr, sorted_misses: pl.Expr,
                     interval: tuple[float, float]) -> tuple[pl.Expr, pl.Expr]:
    """Split-conformal bounds from n errors sorted ascending (a list column): the k-th
    smallest with k = floor((n + 1) x low) and the k-th with k = ceil((n + 1) x high),
    counted from 1; null when k falls outside 1..n (too few errors for that share). For n
    exchangeable errors, a new one falls between them with probability at least high - low
    (Vovk et al.; Lei et al. 2018), where linear quantiles of the n fall short by about
    1 / n."""
    lo, hi = interval
    k_low = ((n + 1) * lo).floor().cast(pl.Int64)
    k_high = ((n + 1) * hi).ceil().cast(pl.Int64)
    low = pl.when(k_low >= 1).then(sorted_misses.list.get(k_low - 1, null_on_oob=True))
    high = pl.when(k_high <= n).then(sorted_misses.list.get(k_high - 1, null_on_oob=True))
    return low, high


def _in_use_errors(picked: pl.DataFrame, otb_snapshots: Frame) -> pl.DataFrame:
    """The forecasts in use (`_pick`) at the backtest's horizons whose night is realized,
    beside its actual rooms: property_id, stay_date, horizon_days, rooms_forecast,
    rooms_actual."""
    return (
        picked.filter(pl.col("days_before").is_in(list(HORIZONS)))
        .join(_realized(otb_snapshots), on=["property_id", "stay_date"], how="inner")
        .select("property_id", "stay_date", pl.col("days_before").alias("horizon_days"),
                "rooms_forecast", "rooms_actual")
    )


def calibrated_band(errors: pl.DataFrame, as_of: Frame,
                    settings: ForecastSettings | None = None) -> pl.DataFrame:
    """The band of the forecast in use, calibrated on its own past errors (split conformal):
    per property, as-of date S and backtest horizon H, the `conformal_bounds` of the errors
    actual - forecast of the forecasts in use (whatever method made them; `_in_use_errors`)
    at H on the nights realized in [S - band_days, S - 1]; null with fewer than
    band_min_nights of them. errors: property_id, stay_date, horizon_days, rooms_forecast,
    rooms_actual. Returns property_id, as_of_date, horizon_days, band_nights, band_low,
    band_high."""
    s = settings or ForecastSettings()
    misses = errors.lazy().select("property_id", "stay_date", "horizon_days",
                                  miss=pl.col("rooms_actual") - pl.col("rooms_forecast"))
    low, high = conformal_bounds(pl.col("band_nights"), pl.col("misses"), s.interval)
    fresh = pl.col("fresh")
    enough = fresh & (pl.col("band_nights") >= s.band_min_nights)
    return (
        _window_before(_by_horizon(as_of), misses, s.band_days, ["property_id", "horizon_days"],
                       band_nights=pl.len().cast(pl.Int64), misses=pl.col("miss").sort())
        .select("property_id", "as_of_date", "horizon_days",
                band_nights=pl.when(fresh).then(pl.col("band_nights")).otherwise(0),
                # rounded: a float error's last bits are no figure
                band_low=pl.when(enough).then(low.round(9)),
                band_high=pl.when(enough).then(high.round(9)))
        .sort("property_id", "as_of_date", "horizon_days")
        .collect()
    )


def _calibrate(picked: pl.DataFrame, band: pl.DataFrame) -> pl.DataFrame:
    """rooms_low / rooms_high of `picked` from the calibrated band of its as-of date and
    horizon (`calibrated_band`; a night takes the band of the next backtest horizon up), the
    band of `_band` where it is null. Clipped to [0, cap], never above / below the
    forecast."""
    rooms, cap = pl.col("rooms_forecast"), pl.col("cap").cast(pl.Float64)
    return (
        picked.with_columns(band_horizon=_bucket(pl.col("days_before")))
        .join(band.drop("band_nights").rename({"horizon_days": "band_horizon"}),
              on=["property_id", "as_of_date", "band_horizon"], how="left")
        .with_columns(
            rooms_low=pl.when(pl.col("band_low").is_not_null()).then(
                pl.min_horizontal(rooms, (rooms + pl.col("band_low")).clip(0.0, cap)))
            .otherwise(pl.col("rooms_low")),
            rooms_high=pl.when(pl.col("band_high").is_not_null()).then(
                pl.max_horizontal(rooms, (rooms + pl.col("band_high")).clip(0.0, cap)))
            .otherwise(pl.col("rooms_high")))
        .drop("band_horizon", "band_low", "band_high")
    )


def scored_forecasts(otb_snapshots: Frame, capacity: Frame,
                     settings: ForecastSettings | None = None,
                     calendar: Frame | None = None) -> pl.DataFrame:
    """Every method's forecast as of the snapshot dates of the last `scored_days` before each
    property's last snapshot, at the HORIZONS the backtest scores (`method_forecasts`): what
    `backtest` scores and what `forecast_daily` chooses its methods by. The costliest step of
    both; a caller building both computes it once."""
    s = settings or ForecastSettings()
    every = _as_of_dates(otb_snapshots)
    recent = every.filter(pl.col("as_of_date") >= pl.col("as_of_date").max().over("property_id")
                          - pl.duration(days=scored_days(s)))
    return method_forecasts(otb_snapshots, capacity, recent, HORIZONS, s, calendar)


def _errors(scored: pl.DataFrame, otb_snapshots: Frame) -> pl.DataFrame:
    """The forecasts of `scored` whose night is realized, beside its actual rooms."""
    return (
        scored.unpivot(index=[*KEY, "days_before"], on=list(METHODS), variable_name="method",
                       value_name="rooms_forecast").drop_nulls("rooms_forecast")
        .join(_realized(otb_snapshots), on=["property_id", "stay_date"], how="inner")
        .rename({"days_before": "horizon_days"})
    )


def backtest(otb_snapshots: Frame, capacity: Frame, settings: ForecastSettings | None = None,
             scored: pl.DataFrame | None = None,
             calendar: Frame | None = None) -> pl.DataFrame:
    """Errors of the METHODS and of the chosen one (method `chosen`) at every horizon, on
    the nights of the last `backtest_days` realized (D >= the last snapshot - backtest_days):
    property_id, as_of_date, stay_date, horizon_days, method, rooms_forecast, rooms_low,
    rooms_high (the band, `chosen` only), room_revenue_forecast (`chosen` only: as
    forecast_daily prices it), rooms_actual.
    `scored`: `scored_forecasts` of the same snapshots, capacity and settings when already
    computed (or the forecasts of more as-of dates: the same errors)."""
    s = settings or ForecastSettings()
    as_of = _as_of_dates(otb_snapshots)
    forecasts = (scored_forecasts(otb_snapshots, capacity, s, calendar) if scored is None
                 else scored)
    errors = _errors(forecasts, otb_snapshots)
    in_use = _pick(forecasts, choices(errors, as_of, s))
    band = calibrated_band(_in_use_errors(in_use, otb_snapshots), as_of, s)
    picked = _calibrate(in_use, band).select(
        *KEY, "horizon_days", method=pl.lit(CHOSEN), rooms_forecast="rooms_forecast",
        rooms_low="rooms_low", rooms_high="rooms_high",
        room_revenue_forecast=_room_revenue(),
    ).join(_realized(otb_snapshots), on=["property_id", "stay_date"], how="inner")
    last = as_of.group_by("property_id").agg(last=pl.col("as_of_date").max())
    no_band = pl.lit(None, dtype=pl.Float64)
    return (
        pl.concat([errors.with_columns(rooms_low=no_band, rooms_high=no_band,
                                       room_revenue_forecast=no_band)
                   .select(picked.columns), picked])
        .join(last, on="property_id")
        .filter(pl.col("stay_date") >= pl.col("last") - pl.duration(days=s.backtest_days))
        .drop("last")
        .sort("property_id", "horizon_days", "method", "as_of_date")
    )


LEVELS_SCHEMA = pl.Schema({"property_id": pl.Int64, "stay_date": pl.Date,
                           "rooms_level": pl.Float64})
"""core.sandbox_levels as `accuracy` reads it: the simulator's level of each night."""


def accuracy(errors: pl.DataFrame, settings: ForecastSettings | None = None,
             levels: pl.DataFrame | None = None) -> pl.DataFrame:
    """mart.forecast_accuracy from `backtest`: per property, horizon and method, over the
    forecasts of the nights of the last `backtest_days` realized: forecasts, actual rooms,
    MAE (rooms), WAPE (% of actual rooms), bias (mean forecast - actual, rooms), the share
    of the actual rooms inside the band (`chosen` only), how much better than last_year,
    with its 90 % interval (forecast_skill.skill), and the simulator's floor: the WAPE of
    `levels` (property_id, stay_date, rooms_level: each night's level, which no forecast
    reads) on the same nights, NULL unless every night scored has a level; and, when
    `errors` carries them (`department_errors`), the WAPE of the room, F&B, other and total
    revenue forecasts and of their baseline, and the room revenue's bias (`department_wape`;
    `chosen` only)."""
    s = settings or ForecastSettings()
    last = errors.group_by("property_id").agg(last_night=pl.col("stay_date").max())
    level = (pl.DataFrame(schema=LEVELS_SCHEMA) if levels is None
             else levels.select(list(LEVELS_SCHEMA)).cast(LEVELS_SCHEMA))
    scored = errors.join(last, on="property_id").filter(
        (pl.col("last_night") - pl.col("stay_date")).dt.total_days() < s.backtest_days
    ).join(level, on=["property_id", "stay_date"], how="left")
    error = pl.col("rooms_forecast") - pl.col("rooms_actual")
    return (
        scored.group_by("property_id", "horizon_days", "method")
        .agg(
            first_night=pl.col("stay_date").min(), last_night=pl.col("stay_date").max(),
            forecasts=pl.len().cast(pl.Int64),
            rooms_final=pl.col("rooms_actual").sum().cast(pl.Int64),
            mae_rooms=error.abs().mean().round(2),
            sum_abs=error.abs().sum(),
            bias_rooms=error.mean().round(2),
            band_coverage_pct=(pl.col("rooms_actual").is_between(
                pl.col("rooms_low"), pl.col("rooms_high")).mean() * 100).round(2),
            floor_abs=(pl.col("rooms_level") - pl.col("rooms_actual")).abs().sum(),
            no_level=pl.col("rooms_level").is_null().any(),
        )
        .with_columns(
            wape_pct=pl.when(pl.col("rooms_final") > 0)
            .then((pl.col("sum_abs") / pl.col("rooms_final") * 100).round(2)),
            floor_wape_pct=pl.when(pl.col("rooms_final") > 0, ~pl.col("no_level"))
            .then((pl.col("floor_abs") / pl.col("rooms_final") * 100).round(2)),
        )
        .drop("sum_abs", "floor_abs", "no_level")
        .join(skill(scored), on=["property_id", "horizon_days", "method"], how="left")
        .join(department_wape(scored), on=["property_id", "horizon_days", "method"],
              how="left")
        .select("property_id", "horizon_days", "method", "first_night", "last_night",
                "forecasts", "rooms_final", "mae_rooms", "wape_pct", "bias_rooms",
                "band_coverage_pct", *SKILL_COLUMNS, "floor_wape_pct", *REVENUE_COLUMNS)
        .sort("property_id", "horizon_days", "method")
    )


def department_wape(scored: pl.DataFrame) -> pl.DataFrame:
    """Per property, horizon and method of `scored` (`department_errors`' rows):
    REVENUE_COLUMNS, sum |forecast - actual| / sum actual x 100 (the room revenue's bias: sum
    (forecast - actual) / sum actual x 100) over the nights with a forecast and a baseline,
    half-up to the cent; null where none has one (every method but `chosen`: the departments'
    forecast takes the forecast in use) or the actual sums to 0."""
    def pct(column: str, d: str, signed: bool = False) -> pl.Expr:
        has = pl.all_horizontal(pl.col(f"{d}_{k}").is_not_null()
                                for k in ("forecast", "baseline", "actual"))
        base = pl.col(f"{d}_actual").filter(has).sum()
        miss = pl.col(column) - pl.col(f"{d}_actual")
        return pl.when(has.any() & (base > 0)).then(
            ((miss if signed else miss.abs()).filter(has).sum() / base * 100).round(2))
    keys = ["property_id", "horizon_days", "method"]
    if not all(f"{d}_actual" in scored.columns for d in DEPARTMENTS):
        return scored.select(keys).unique().with_columns(
            [pl.lit(None, dtype=pl.Float64).alias(c) for c in REVENUE_COLUMNS])
    room = DEPARTMENTS[0]
    return scored.group_by(keys).agg(
        **{f"{d}{kind}_wape_pct": pct(f"{d}{'_baseline' if kind else '_forecast'}", d)
           for d in DEPARTMENTS for kind in ("", "_baseline")},
        **{ROOM_REVENUE_BIAS: pct(f"{room}_forecast", room, signed=True)})


def _half_up_pct(hundredths: pl.Expr, supply: pl.Expr) -> pl.Expr:
    """hundredths / 100 / supply x 100, half-up to the cent in integers (docs/kpi.md: every
    ratio rounds half-up; a float's round would not, on 27.17 / 40 = 67.925)."""
    return ((2 * hundredths * 100 + supply) // (2 * supply)) / 100


def _room_revenue() -> pl.Expr:
    """The room revenue of a picked forecast: the books' plus the rooms still to come at
    their ADR (`pickup_adr`); none known: the night is not priced (NULL), not priced at 0
    (docs/forecast.md, "Band, revenue, ADR and occupancy"). Fewer rooms than the books: the
    books' ADR."""
    rooms, otb = pl.col("rooms_forecast"), pl.col("rooms_otb").cast(pl.Float64)
    otb_adr = pl.when(otb > 0).then(pl.col("revenue_otb") / otb)
    adr_more = pl.col("pickup_adr").fill_null(otb_adr)
    return (
        pl.when(rooms > otb).then(pl.col("revenue_otb") + (rooms - otb) * adr_more)
        .when(rooms == otb).then(pl.col("revenue_otb"))
        .otherwise(rooms * otb_adr.fill_null(0.0))
    )


def forecast_daily(otb_snapshots: Frame, capacity: Frame, as_of_date: object = None,
                   settings: ForecastSettings | None = None,
                   scored: pl.DataFrame | None = None,
                   calendar: Frame | None = None) -> pl.DataFrame:
    """mart.forecast_daily: as of `as_of_date` (default each property's last snapshot), the
    nights S .. S + horizon_days: rooms on the books, rooms forecast by the method chosen for
    the horizon, its low/high band, room revenue, ADR and occupancy forecast. `scored`:
    `scored_forecasts` of the same snapshots, capacity and settings when already computed;
    only as of the last snapshot (an earlier as-of date scores on its own history)."""
    s = settings or ForecastSettings()
    if scored is not None and as_of_date is not None:
        raise ValueError("forecast_daily: scored forecasts are for the last snapshot date; "
                         f"as_of_date {as_of_date} computes its own")
    every = _as_of_dates(otb_snapshots)
    if as_of_date is None:
        wanted = every.group_by("property_id").agg(pl.col("as_of_date").max())
    else:
        wanted = every.filter(pl.col("as_of_date") == pl.lit(as_of_date, dtype=pl.Date))
    history = lazy(otb_snapshots, "otb_snapshots", OTB_COLUMNS).select(OTB_COLUMNS).join(
        wanted.lazy(), on="property_id").filter(
        pl.col("snapshot_date") <= pl.col("as_of_date")).drop("as_of_date").collect()
    forecasts = method_forecasts(history, capacity, wanted, None, s, calendar)
    scored = scored_forecasts(history, capacity, s, calendar) if scored is None else scored
    errors = _errors(scored, history)
    # the forecasts in use at the as-of dates scored: the band's calibration errors
    in_use = _pick(scored, choices(errors, scored.select("property_id", "as_of_date").unique(),
                                   s))
    calibration = _in_use_errors(in_use, history)
    picked = _calibrate(_pick(forecasts, choices(errors, wanted, s)),
                        calibrated_band(calibration, wanted, s))
    # the band of each month's rooms still to come, computed for the month (month_band.py)
    months = month_bands(picked, calibration, HORIZONS, s.band_days, s.interval,
                         s.band_min_nights, s.month_band_months)
    picked = picked.with_columns(month=pl.col("stay_date").dt.truncate("1mo")).join(
        months, on=["property_id", "as_of_date", "month"], how="left").drop("month")
    rooms = pl.col("rooms_forecast")
    return (
        picked.with_columns(revenue_forecast=_room_revenue())
        .join(lazy(capacity, "capacity", ["property_id", "rooms", "rooms_available"]).collect()
              .select("property_id", capacity=pl.col("rooms").cast(pl.Int64),
                      supply=pl.col("rooms_available").cast(pl.Int64)),
              on="property_id", how="left")
        .select(
            "property_id", "as_of_date", "stay_date",
            days_before=pl.col("days_before").cast(pl.Int32),
            rooms_otb=pl.col("rooms_otb").cast(pl.Int32),
            revenue_otb_net=pl.col("revenue_otb").round(2),
            rooms_forecast=rooms.round(2),
            rooms_low=pl.col("rooms_low").round(2),
            rooms_high=pl.col("rooms_high").round(2),
            room_revenue_forecast_net=pl.col("revenue_forecast").round(2),
            adr_forecast_net=pl.when(rooms > 0)
            .then(pl.col("revenue_forecast") / rooms).round(2),
            # the STR supply, every room, as every other occupancy (docs/kpi.md); the
            # sellable rooms (capacity) only bound what can be sold. Of the rooms shown, so
            # that rooms_forecast / rooms available gives the figure printed.
            occupancy_forecast_pct=pl.when(pl.col("supply") > 0).then(
                _half_up_pct((rooms * 100).round(0).cast(pl.Int64), pl.col("supply"))),
            capacity=pl.col("capacity").cast(pl.Int32),
            rooms_limit=pl.col("cap").cast(pl.Int32),
            method="method",
            month_rooms_low="month_rooms_low",
            month_rooms_high="month_rooms_high",
        )
        .sort(KEY)
    )
