#!/usr/bin/python3
"""numpy's a @ b on ridge (LD_PRELOAD=libridge.so) against numpy on its own BLAS, in one run.

Debian's python3-numpy calls cblas_sgemm / cblas_dgemm through libblas.so.3, the BLAS the
system's alternative names (OpenBLAS when libopenblas0 is installed). Each round starts one
python3 on that BLAS and one with ridge preloaded, in alternating order; each times a @ b per
shape (median of its calls) and saves the products. Reported: the median over rounds of each
side's time, their ratio, and how far ridge's products lie from the other BLAS's in units of
the rounding bound k * eps * (|a| @ |b|), which must stay <= 1.

usage: /usr/bin/python3 bench/numpy/matmul_preload.py PATH/libridge.so [--rounds N]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

SHAPES = [(1024, 1024, 1024), (32, 4096, 4096)]  # (m, k, n): (m x k) @ (k x n)
DTYPES = ["float32", "float64"]


def child(out_dir, calls):
    """Times a @ b for every shape and type, saves the products, prints the medians as JSON."""
    import time
    import numpy as np

    rng = np.random.default_rng(1)
    times = {}
    for dtype in DTYPES:
        for m, k, n in SHAPES:
            a = rng.standard_normal((m, k)).astype(dtype)
            b = rng.standard_normal((k, n)).astype(dtype)
            c = a @ b  # warm-up: threads started, pages touched
            samples = []
            for _ in range(calls):
                start = time.perf_counter()
                c = a @ b
                samples.append(time.perf_counter() - start)
            key = f"{dtype} {m}x{k} @ {k}x{n}"
            times[key] = statistics.median(samples)
            np.save(os.path.join(out_dir, key.replace(" ", "_") + ".npy"), c)
            np.save(os.path.join(out_dir, key.replace(" ", "_") + ".bound.npy"),
                    (k + 2) * np.finfo(dtype).eps * (np.abs(a).astype("float64") @
                                                      np.abs(b).astype("float64")))
    print(json.dumps(times))


def run_side(libridge, out_dir, calls):
    env = dict(os.environ)
    if libridge:
        env["LD_PRELOAD"] = libridge
    result = subprocess.run([sys.executable, __file__, "--child", out_dir, "--calls", str(calls)],
                            env=env, check=True, capture_output=True, text=True)
    return json.loads(result.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("libridge", nargs="?")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=15)
    parser.add_argument("--child")
    args = parser.parse_args()
    if args.child:
        child(args.child, args.calls)
        return
    if not args.libridge or not os.path.exists(args.libridge):
        sys.exit("usage: matmul_preload.py PATH/libridge.so [--rounds N]")
    libridge = os.path.abspath(args.libridge)

    import numpy as np

    with tempfile.TemporaryDirectory() as tmp:
        dirs = {"ridge": os.path.join(tmp, "ridge"), "system": os.path.join(tmp, "system")}
        for d in dirs.values():
            os.mkdir(d)
        times = {"ridge": [], "system": []}
        for r in range(args.rounds):
            order = ["ridge", "system"] if r % 2 == 0 else ["system", "ridge"]
            for side in order:
                times[side].append(run_side(libridge if side == "ridge" else None, dirs[side],
                                            args.calls))
        print(f"numpy {np.__version__}, {args.rounds} rounds alternating, median of "
              f"{args.calls} calls each; system BLAS = libblas.so.3 "
              f"({os.path.realpath('/usr/lib/x86_64-linux-gnu/libblas.so.3')})")
        print(f"{'a @ b':32} {'ridge ms':>9} {'system ms':>9} {'ridge/system':>12} "
              f"{'max err/bound':>13}")
        worst = 0.0
        for key in times["ridge"][0]:
            mine = statistics.median(t[key] for t in times["ridge"]) * 1e3
            theirs = statistics.median(t[key] for t in times["system"]) * 1e3
            name = key.replace(" ", "_")
            got = np.load(os.path.join(dirs["ridge"], name + ".npy")).astype("float64")
            other = np.load(os.path.join(dirs["system"], name + ".npy")).astype("float64")
            bound = np.load(os.path.join(dirs["ridge"], name + ".bound.npy"))
            # Both products lie within the bound of the exact one, so within twice it of each other.
            error = float(np.max(np.abs(got - other) / (2 * bound)))
            worst = max(worst, error)
            print(f"{key:32} {mine:9.2f} {theirs:9.2f} {mine / theirs:12.3f} {error:13.4f}")
        if worst > 1:
            sys.exit("ridge's products differ from the system BLAS's beyond rounding")


if __name__ == "__main__":
    main()
