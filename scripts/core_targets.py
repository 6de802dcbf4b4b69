#!/usr/bin/env python3
"""The core engine's speed and memory targets, measured side by side.

1. `nqueens count 16 --threads 1` against the C yardstick refcount.c
   (gcc -O3 -march=native), in paired runs: median ratio, target <= 1.0.
2. `nqueens count 17` on 2 threads against 1 thread, paired: median speedup,
   target >= 1.9.
3. Peak RSS of `nqueens count 18` and of `nqueens solve 14 > /dev/null`,
   target < 20 MiB each.

Usage: scripts/core_targets.py [--runs R] [--peers DIR]
Writes results/<date>-<host>-core/{pairs.csv,memory.csv,README.md}.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

import measure

# Checks only: the counts each run must reproduce.
A000170 = {16: 14772512, 17: 95815104, 18: 666090624}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="pairs per comparison")
    parser.add_argument(
        "--peers",
        type=Path,
        default=measure.ROOT.parent / "shared" / "peers",
        help="folder holding refcount.c",
    )
    args = parser.parse_args()
    if args.runs < 1:
        sys.exit("error: --runs must be at least 1")

    measure.build_release()
    info = measure.machine()  # now, while the tree is the one just built
    binary = str(measure.BINARY)
    refcount = "/tmp/nqueens-refcount"
    subprocess.run(
        ["cc", "-O3", "-march=native", str(args.peers / "refcount.c"), "-o", refcount],
        check=True,
    )

    def ours(n):
        def check(out):
            got = json.loads(out)["total"]
            assert got == A000170[n], f"nqueens n={n}: {got}"
        return check

    def theirs(n):
        def check(out):
            assert int(out) == A000170[n], f"refcount n={n}: {out}"
        return check

    rows = []
    print("count 16, 1 thread, against refcount.c", flush=True)
    cmd_ours = [binary, "count", "16", "--threads", "1", "--json"]
    cmd_c = [refcount, "16"]
    pairs = measure.paired(cmd_ours, cmd_c, args.runs, ours(16), theirs(16))
    rows += [("count16_vs_c", i, a, b, a / b) for i, (a, b) in enumerate(pairs)]
    vs_c = measure.median_ratio(pairs)

    print("count 17, 1 thread against 2 threads", flush=True)
    one = [binary, "count", "17", "--threads", "1", "--json"]
    two = [binary, "count", "17", "--threads", "2", "--json"]
    pairs = measure.paired(one, two, args.runs, ours(17), ours(17))
    rows += [("count17_1t_vs_2t", i, a, b, a / b) for i, (a, b) in enumerate(pairs)]
    speedup = measure.median_ratio(pairs)

    print("peak memory", flush=True)
    memory = []
    def boards(count):
        def check(out):
            assert out.count("Q") == 14 * count, "solve 14 printed a wrong number of queens"
        return check

    for label, cmd, check in [
        ("count 18", [binary, "count", "18", "--json"], ours(18)),
        ("solve 14, stdout read by the script", [binary, "solve", "14"], boards(365596)),
    ]:
        wall, rss_kib = measure.run_with_rss(cmd, check)
        memory.append((label, wall, rss_kib))
        print(f"  {label}: {rss_kib / 1024:.1f} MiB peak, {wall:.1f} s", flush=True)

    out = measure.results_dir("core")
    measure.write_atomically(
        out / "pairs.csv",
        "comparison,pair,time_a_s,time_b_s,ratio_a_over_b\n"
        + "".join(f"{c},{i},{a:.4f},{b:.4f},{r:.4f}\n" for c, i, a, b, r in rows),
    )
    measure.write_atomically(
        out / "memory.csv",
        "command,wall_s,peak_rss_kib\n"
        + "".join(f"{label},{w:.3f},{k}\n" for label, w, k in memory),
    )
    summary = f"""# Core engine targets

Measured by `scripts/core_targets.py --runs {args.runs}`; every timed run's
count was checked against A000170 (16: {A000170[16]}, 17: {A000170[17]}, 18: {A000170[18]}).

| target | measured | goal |
|---|---|---|
| `count 16 --threads 1` / `refcount 16` (median of {args.runs} paired runs) | {vs_c:.3f} | <= 1.0 |
| `count 17 --threads 1` / `count 17 --threads 2` (median speedup) | {speedup:.3f} | >= 1.9 |
| peak RSS `count 18` | {memory[0][2] / 1024:.1f} MiB | < 20 MiB |
| peak RSS `solve 14` (stdout to a pipe) | {memory[1][2] / 1024:.1f} MiB | < 20 MiB |

Raw pairs: `pairs.csv` (a = first command named, b = second). Memory: `memory.csv`.

## Machine and build

| | |
|---|---|
{measure.machine_table(info)}
"""
    measure.write_atomically(out / "README.md", summary)
    print(summary)


if __name__ == "__main__":
    main()
