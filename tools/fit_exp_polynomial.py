#!/usr/bin/python3
"""A polynomial p ~ e^r on [-ln2 / 2, ln2 / 2] of the form 1 + r + r^2 P(r), for the activations'
exponential in src/kernels/activation_math.hpp (exp_scaled, after the reduction by n ln2).

Its first two coefficients stay exactly 1, so that rounding them to float adds nothing where
r is near 0; P's are chosen by Remez's exchange to level the relative error |p(r) - e^r| / e^r,
then rounded to float. Prints them (lowest power first) and the largest relative error of the
rounded polynomial on a dense grid. Plain Python, double precision: ample for errors near 1e-9.

usage: /usr/bin/python3 tools/fit_exp_polynomial.py DEGREE     (of p; 6 gives 3.6e-9)
"""
import math
import struct
import sys

# The reduced argument's bound, with room for the float rounding of a + b in the reduction.
HALF_WIDTH = math.log(2.0) / 2.0 * 1.0005
GRID = [HALF_WIDTH * (2.0 * i / 20000 - 1.0) for i in range(20001)]


def to_float(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def solve(rows, rhs):
    """Gaussian elimination with partial pivoting."""
    n = len(rhs)
    m = [row[:] + [b] for row, b in zip(rows, rhs)]
    for i in range(n):
        pivot = max(range(i, n), key=lambda k: abs(m[k][i]))
        m[i], m[pivot] = m[pivot], m[i]
        for k in range(n):
            if k != i:
                factor = m[k][i] / m[i][i]
                m[k] = [a - factor * b for a, b in zip(m[k], m[i])]
    return [m[i][n] / m[i][i] for i in range(n)]


def relative_error(p_coefficients, r):
    value = 1.0 + r + r * r * sum(c * r**j for j, c in enumerate(p_coefficients))
    return (value - math.exp(r)) / math.exp(r)


def remez(degree):
    """P's degree - 1 coefficients: the error levelled on degree references, alternating."""
    unknowns = degree - 1
    count = unknowns + 1
    references = sorted(HALF_WIDTH * math.cos(math.pi * (2 * i + 1) / (2 * count))
                        for i in range(count))
    for _ in range(30):
        rows = [[r ** (2 + j) for j in range(unknowns)] + [(-1) ** i * math.exp(r)]
                for i, r in enumerate(references)]
        solution = solve(rows, [math.expm1(r) - r for r in references])
        p = solution[:-1]
        # The extremum of each run of one sign becomes a reference.
        extrema = []
        for r in GRID:
            e = relative_error(p, r)
            if not extrema or (e > 0) != (extrema[-1][1] > 0):
                extrema.append((r, e))
            elif abs(e) > abs(extrema[-1][1]):
                extrema[-1] = (r, e)
        if len(extrema) < count:
            break
        largest = sorted(extrema, key=lambda t: -abs(t[1]))[:count]
        references = sorted(r for r, _ in largest)
    return p


def main():
    degree = int(sys.argv[1])
    p = [to_float(c) for c in remez(degree)]
    error = max(abs(relative_error(p, r)) for r in GRID)
    print("coefficients: 1.0f, 1.0f, " + ", ".join(f"{c!r}f" for c in p))
    print(f"max relative error on [-ln2 / 2, ln2 / 2], rounded: {error:.3e}")


if __name__ == "__main__":
    main()
