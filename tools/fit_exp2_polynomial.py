#!/usr/bin/python3
"""Minimax polynomials p(f) ~ 2^f on [0, 1) in relative error, for src/attention/exp2.hpp.

Remez exchange: at degree + 2 reference points solve p(f_i) - 2^f_i = (-1)^i E 2^f_i for the
coefficients and the levelled error E, then move the points to the extrema of the relative error
p(f) / 2^f - 1 and repeat until E stops changing. Prints the coefficients (lowest power first,
rounded to float) and the relative error the rounded float polynomial reaches, measured on a
dense grid in double precision.

usage: /usr/bin/python3 tools/fit_exp2_polynomial.py DEGREE
"""
import sys

import numpy as np


def remez(degree, iterations=50):
    points = degree + 2
    # Chebyshev nodes on [0, 1] as the first reference.
    f = 0.5 - 0.5 * np.cos(np.pi * np.arange(points) / (points - 1))
    grid = np.linspace(0.0, 1.0, 200001)
    error = 0.0
    for _ in range(iterations):
        target = np.exp2(f)
        system = np.zeros((points, points))
        for j in range(degree + 1):
            system[:, j] = f ** j
        system[:, degree + 1] = (-1.0) ** np.arange(points) * target
        solution = np.linalg.solve(system, target)
        coefficients, error = solution[: degree + 1], solution[degree + 1]
        relative = np.polyval(coefficients[::-1], grid) / np.exp2(grid) - 1
        # The new reference: the extreme of each run of one sign of the relative error.
        sign_changes = np.where(np.diff(np.sign(relative)) != 0)[0]
        bounds = np.concatenate(([0], sign_changes + 1, [len(grid)]))
        extrema = [lo + np.argmax(np.abs(relative[lo:hi])) for lo, hi in zip(bounds, bounds[1:])]
        if len(extrema) != points:
            break
        f = grid[extrema]
    return coefficients, abs(error)


def main():
    degree = int(sys.argv[1])
    coefficients, error = remez(degree)
    rounded = coefficients.astype(np.float32).astype(np.float64)
    grid = np.linspace(0.0, 1.0, 1000001)
    relative = np.abs(np.polyval(rounded[::-1], grid) / np.exp2(grid) - 1)
    print(f"degree {degree}: levelled relative error {error:.3e}, "
          f"with float coefficients {relative.max():.3e}")
    for power, c in enumerate(rounded):
        print(f"  f^{power}: {np.float32(c)!r}")


if __name__ == "__main__":
    main()
