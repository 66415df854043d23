"""Rooms where the user reads them are whole rooms (issue 49 item 3): the forecast, the months
ahead, the flash's month expected and the flash ahead show rooms rounded half-up, while every
figure computed from rooms (occupancy, ADR, RevPAR, a total) takes the unrounded forecast the
mart keeps. The hand-built hotel of tests/forecast/conftest.py (10 rooms, business date
2026-03-16) with its forecast of Mar 16-31 made fractional: 7.30 rooms a night (band 6.50 to
8.49), 700.00 of room revenue, as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.metrics import whole_rooms

from .conftest import roma_report, write_and_publish


@pytest.fixture
def fractions(hotel: Path) -> Path:
    write_and_publish(hotel, "UPDATE mart.forecast_daily SET rooms_forecast = 7.30, "
                             "rooms_low = 6.50, rooms_high = 8.49")
    return hotel


def test_whole_rooms_round_half_up() -> None:
    assert [whole_rooms(v) for v in ("50.50", "50.49", 7.3, "6.50", 0, None)] == [
        51, 50, 7, 7, 0, None]


def test_the_forecast_shows_whole_rooms_and_a_total_of_the_fractions(fractions: Path) -> None:
    """Each night 7.30 -> 7, band 6.50 -> 7 (half-up) to 8.49 -> 8; the 16 nights' total is
    16 x 7.30 = 116.80 -> 117 rooms, not the 16 x 7 = 112 shown night by night."""
    body = roma_report(fractions, "forecast", "--from", "2026-03-16", "--to", "2026-03-31")
    assert {(r["rooms_forecast"], r["rooms_low"], r["rooms_high"]) for r in body["rows"]} == {
        (7, 7, 8)}
    assert len(body["rows"]) == 16
    assert body["total"]["rooms_forecast"] == 117
    assert body["total"]["room_revenue_forecast_net"] == 11200
    assert "rooms as whole rooms, half-up" in body["report"]


def test_the_months_and_the_flash_rate_the_unrounded_rooms(fractions: Path) -> None:
    """March: 78 rooms closed + 16 x 7.30 = 194.80 expected -> 195 shown; occupancy 194.80 /
    310 = 62.84 % (195 would give 62.90), ADR 19,000.00 / 194.80 = 97.54 (not 97.44), RevPAR
    19,000.00 / 310 = 61.29. January-March: 93 + 84 + 194.80 = 371.80 -> 372; 371.80 / 900 =
    41.31 % (372: 41.33), ADR 33,160.00 / 371.80 = 89.19 (372: 89.14)."""
    body = roma_report(fractions, "forecast-months", "--from", "2026-01-01", "--to", "2026-03-31")
    march = body["rows"][-1]
    assert (march["month"], march["rooms_expected"], march["occupancy_expected_pct"],
            march["adr_expected_net"], march["revpar_expected_net"]) == (
        "2026-03", 195, 62.84, 97.54, 61.29)
    total = body["total"]
    assert (total["rooms_expected"], total["occupancy_expected_pct"],
            total["adr_expected_net"]) == (372, 41.31, 89.19)
    assert "rooms as whole rooms, half-up" in body["report"]
    flash = {row["metric"]: row["month_expected"] for row in
             roma_report(fractions, "flash", "--date", "2026-03-15")["rows"]}
    assert (flash["rooms_sold"], flash["occupancy_pct"], flash["adr_net"],
            flash["revpar_net"]) == (195, 62.84, 97.54, 61.29)
    ahead = roma_report(fractions, "flash-ahead")
    assert {r["rooms_forecast"] for r in ahead["rows"]} == {7}
    assert "rooms forecast as whole rooms, half-up" in ahead["report"]


def test_the_months_band_is_the_months_own(hotel: Path) -> None:
    """The mart's band of March's 16 nights ahead (mart.forecast_daily month_rooms_low /
    _high, the same on each of them; tests/forecast/test_month_band.py computes it): 100.50 to
    125.40 rooms. March's band adds its 78 rooms sold: 178.50 -> 179 to 203.40 -> 203 (whole
    rooms, half-up); January and February, closed, are what they sold (93, 84); the total
    has none (the months' bands do not add)."""
    write_and_publish(hotel, "UPDATE mart.forecast_daily SET month_rooms_low = 100.50, "
                             "month_rooms_high = 125.40")
    body = roma_report(hotel, "forecast-months", "--from", "2026-01-01", "--to", "2026-03-31")
    assert [(r["month"], r["rooms_expected_low"], r["rooms_expected"],
             r["rooms_expected_high"])
            for r in body["rows"]] == [("2026-01", 93, 93, 93), ("2026-02", 84, 84, 84),
                                       ("2026-03", 179, 190, 203)]
    total = body["total"]
    assert (total["rooms_expected_low"], total["rooms_expected_high"]) == (None, None)
    assert "the month's 80 % band, computed for the month" in body["report"]
    # without the mart's band (too few past errors): none
    write_and_publish(hotel, "UPDATE mart.forecast_daily SET month_rooms_low = NULL, "
                             "month_rooms_high = NULL")
    march = roma_report(hotel, "forecast-months", "--from", "2026-03-01", "--to",
                        "2026-03-31")["rows"][0]
    assert (march["rooms_expected_low"], march["rooms_expected_high"]) == (None, None)
