"""One figure's definition: its name (the column every surface prints), its basis in words and,
for a ratio, the sums it divides (docs/kpi.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


@dataclass(frozen=True)
class Metric:
    name: str
    basis: str
    """What it counts or divides, in words: supply, fees in or out, net or gross."""
    numerator: str | None = None
    denominator: str | None = None
    scale: int = 1
    """100 for a percentage."""
    as_of: str = ""
    """When it is taken: the night once lived, the posting date, the snapshot the report
    stands on (its As-of line names it), the last sync... (`at` sets it for a group)."""

    @property
    def is_ratio(self) -> bool:
        return self.numerator is not None

    @property
    def formula(self) -> str:
        """As docs/kpi.md writes it: `adr_net = room_revenue_nights_net / rooms_sold`."""
        if not self.is_ratio:
            return self.name
        times = " \u00d7 100" if self.scale == 100 else ""  # x, as docs/kpi.md prints it
        return f"{self.name} = {self.numerator} / {self.denominator}{times}"

    def of(self, sums: Mapping[str, object]) -> Decimal | None:
        """The ratio of these sums, half-up to the cent; None when a sum is missing or the
        denominator is 0. A sum metric returns its sum."""
        if not self.is_ratio:
            value = sums.get(self.name)
            return None if value is None else Decimal(str(value))
        assert self.numerator is not None
        assert self.denominator is not None
        num, den = sums.get(self.numerator), sums.get(self.denominator)
        if num is None or den is None or not den:
            return None
        return (Decimal(str(num)) * self.scale / Decimal(str(den))).quantize(CENT,
                                                                             ROUND_HALF_UP)


def at(as_of: str, *metrics: Metric) -> tuple[Metric, ...]:
    """These metrics, taken `as_of` (those that say another keep theirs)."""
    return tuple(replace(m, as_of=m.as_of or as_of) for m in metrics)


NIGHT = "the night: actual once lived, on the books at the last sync ahead"
POSTED = "the posting date (a business date)"
SNAPSHOT = ("the snapshot the report stands on, named in its As-of line: pickup, pace and "
            "alerts the last closed business date unless --as-of; forecast, flash-ahead and "
            "forecast-months the forecast's latest as-of date, the last sync")
FORECAST = "the forecast's latest as-of date (mart.forecast_daily), the last sync"

