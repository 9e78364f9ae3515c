"""Statistics for the tests' uniformity checks."""

from __future__ import annotations

import math


def chi_square_critical(df: int, alpha: float = 1e-4) -> float:
    """Wilson–Hilferty approximation of the chi-square quantile 1 - alpha."""
    z = {1e-3: 3.090, 1e-4: 3.719}[alpha]
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3
