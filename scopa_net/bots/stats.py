"""Confidence intervals for the arena's figures (95% by default)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure and its confidence interval."""

    value: float
    low: float
    high: float

    def text(self, digits: int = 3) -> str:
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


def wilson_interval(successes: int, trials: int, z: float = Z95) -> Estimate:
    """A proportion and its Wilson score interval (sound near 0 and 1, unlike mean ± z·se)."""
    if trials <= 0:
        raise ValueError(f"trials must be positive, not {trials!r}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes {successes!r} is not between 0 and {trials!r}")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return Estimate(p, centre - half, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> Estimate:
    """A mean and its normal-approximation interval (sample standard deviation)."""
    n = len(values)
    if n < 2:
        raise ValueError(f"need at least 2 values for an interval, got {n}")
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half)
