"""Small samplers over a `random.Random` (never the global one), so a seed fixes everything."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from operator import itemgetter
from typing import TypeVar

T = TypeVar("T")


def rng_for(seed: int, *parts: object) -> random.Random:
    """An independent generator for one part of the simulation (a hotel, a date, a purpose).

    String seeds are hashed with SHA-512 by `random`, so the stream is stable across runs and
    independent of PYTHONHASHSEED; adding a day to the horizon leaves earlier days unchanged.
    """
    return random.Random(":".join([str(seed), *map(str, parts)]))


_WEIGHT = itemgetter(1)


def weighted(rng: random.Random, choices: Sequence[tuple[T, float]]) -> T:
    total = sum(map(_WEIGHT, choices))  # the same sum, in the same order, as a generator's
    point = rng.random() * total
    for value, weight in choices:
        point -= weight
        if point < 0:
            return value
    return choices[-1][0]


def poisson(rng: random.Random, mean: float) -> int:
    """Poisson by inversion (means up to a few hundred)."""
    if mean <= 0:
        return 0
    if mean > 500:
        return max(0, round(rng.gauss(mean, math.sqrt(mean))))
    threshold = rng.random()
    term = math.exp(-mean)
    cumulative = term
    count = 0
    while threshold > cumulative and term > 0:
        count += 1
        term *= mean / count
        cumulative += term
    return count


def lognormal_days(rng: random.Random, median: float, sigma: float, cap: int) -> int:
    """Whole days of a lognormal with this median, floored, at most `cap`."""
    return min(cap, int(rng.lognormvariate(math.log(median), sigma)))


def normal_cdf(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))
