"""The figures the arenas and the benchmarks print: a mean with its confidence interval, a median, a
percentile.

>>> mean_ci([1.0, 2.0, 3.0])
(2.0, (0.868..., 3.131...), 1.0)
>>> median([3.0, 1.0, 2.0]), median([])
(2.0, nan)
>>> percentile([5.0, 1.0, 4.0, 2.0, 3.0], 0.95), percentile([], 0.5)
(5.0, nan)
"""

from __future__ import annotations

import math
import statistics


def mean_ci(values: list[float]) -> tuple[float, tuple[float, float], float]:
    """The mean, its 95% confidence interval (normal approximation) and the standard deviation."""
    n = len(values)
    mean = sum(values) / n
    var = sum((d - mean) ** 2 for d in values) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return mean, (mean - half, mean + half), math.sqrt(var)


def median(values: list[float]) -> float:
    """The median; NaN when there is nothing to take it of."""
    return statistics.median(values) if values else float("nan")


def percentile(values: list[float], q: float) -> float:
    """The value below which a fraction ``q`` of the values lie (the nearest rank, no interpolation);
    NaN when there are none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
