#!/usr/bin/python3
"""A polynomial g ~ ln(erfc(t) e^(t^2) / s), s = 1 / (1 + t / 2), in u = s mapped onto [-1, 1], for the erf form of GELU in
src/kernels/activations.hpp, which computes erfc(t) = s exp(-t^2) exp(g(s)) for t in [0, T].

The substitution maps t in [0, inf) to s in (0, 1], where erfc(t) e^(t^2) s^-1 is smooth and
bounded (1 at t = 0, 1 / (2 sqrt(pi)) as t grows): a low-degree polynomial in s fits its
logarithm. Least squares on Chebyshev nodes of [s(T), 1] (near-minimax for a smooth function),
coefficients rounded to float; prints them (lowest power first) and the largest absolute error
of the rounded polynomial on a dense grid, which is the relative error it adds to erfc.

usage: /usr/bin/python3 tools/fit_erfcx_polynomial.py DEGREE [T]
"""
import math
import sys

import numpy as np


def target(s):
    t = 2.0 / s - 2.0
    return np.array([math.log(math.erfc(v) * math.exp(v * v)) for v in t]) - np.log(s)


def fit(degree, t_max):
    s_low = 1.0 / (1.0 + t_max / 2.0)
    nodes = 4 * degree + 40
    u = np.cos(np.pi * (np.arange(nodes) + 0.5) / nodes)
    s = s_low + (1.0 - s_low) * (u + 1.0) / 2.0
    values = target(s)
    # Fitted in u, so that the coefficients stay small and float rounding does not cancel
    # them against each other; each rounded one highest power first, the rest refitted to
    # absorb its rounding.
    rounded = np.zeros(degree + 1)
    for top in range(degree, -1, -1):
        basis = np.vander(u, top + 1, increasing=True)
        rest = values - np.polyval(rounded[::-1], u)
        coefficients = np.linalg.lstsq(basis, rest, rcond=None)[0]
        rounded[top] = np.float32(coefficients[top])
    grid_u = np.linspace(-1.0, 1.0, 100001)
    grid_s = s_low + (1.0 - s_low) * (grid_u + 1.0) / 2.0
    error = np.max(np.abs(np.polyval(rounded[::-1], grid_u) - target(grid_s)))
    return rounded, s_low, error


def main():
    degree = int(sys.argv[1])
    t_max = float(sys.argv[2]) if len(sys.argv) > 2 else 11.5
    coefficients, s_low, error = fit(degree, t_max)
    print(f"u = (2 s - {1 + s_low!r}) / {1 - s_low!r}")
    print("coefficients:", ", ".join(f"{np.float32(c)!r}f" for c in coefficients))
    print(f"max |g - ln(erfcx / s)| on t in [0, {t_max}]: {error:.3e}")


if __name__ == "__main__":
    main()
