#!/bin/sh
# `ridge probe` against the independent check programs, alternating in one run.
# Usage: bench/probe_check/run_check.sh BUILD_DIR [ROUNDS]. Each round (about a minute) holds the
# shared CPU lock /tmp/ridge-cpu.lock, so other benchmarks on the machine interleave between rounds.
set -eu
build=${1:-build/release}
rounds=${2:-3}
ridge=$build/tools/ridge/ridge
out=$(mktemp -d)
for round in $(seq 1 "$rounds"); do
  flock /tmp/ridge-cpu.lock sh -c "
    $ridge probe --quick --json --only peaks > $out/peaks.$round.json 2>/dev/null
    $build/bench/probe_check/probe_check_fma 1 > $out/fma1.$round.txt
    $build/bench/probe_check/probe_check_fma 2 > $out/fma2.$round.txt
    $ridge probe --quick --json --only bandwidth > $out/bandwidth.$round.json 2>/dev/null
    $build/bench/probe_check/probe_check_triad 1 > $out/triad1.$round.txt
    $build/bench/probe_check/probe_check_triad 2 > $out/triad2.$round.txt
  "
done
python3 - "$out" "$rounds" <<'PY'
import json, re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def check(name, r):
    return float(re.search(r"(?:gflops|gbs)_median=([0-9.]+)", open(f"{out}/{name}.{r}.txt").read()).group(1))
rows = []
for r in range(1, rounds + 1):
    peaks = json.load(open(f"{out}/peaks.{r}.json"))["peak_gflops"]["f32"]
    bw = json.load(open(f"{out}/bandwidth.{r}.json"))["bandwidth_gbs"]["triad"]["dram"]
    rows.append({"fma 1T": (peaks["1"], check("fma1", r)), "fma 2T": (peaks["all"], check("fma2", r)),
                 "triad DRAM 1T": (bw["1"], check("triad1", r)), "triad DRAM 2T": (bw["2"], check("triad2", r))})
print(f"{'figure':<15} {'round':>5} {'ridge probe':>12} {'check':>9} {'ratio':>7}")
for key, limit in [("fma 1T", 0.05), ("fma 2T", 0.05), ("triad DRAM 1T", 0.10), ("triad DRAM 2T", 0.10)]:
    for r, row in enumerate(rows, 1):
        probe, chk = row[key]
        print(f"{key:<15} {r:>5} {probe:>12.2f} {chk:>9.2f} {probe / chk:>7.3f}")
    ratio = statistics.median(row[key][0] for row in rows) / statistics.median(row[key][1] for row in rows)
    print(f"{key:<15} {'med':>5} {'':>12} {'':>9} {ratio:>7.3f}  {'within' if abs(ratio - 1) <= limit else 'OUTSIDE'} {limit:.0%}")
PY
rm -r "$out"
