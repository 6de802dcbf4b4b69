#!/usr/bin/env python3
"""Fits the join's cost model on measured item times, and says how well
the engine's items cut shards.

Every item of each board is timed on one thread (the ignored test
engine::join::order::fit::item_times, the fastest of a few passes, beside the
terms of its bound: the quarter pairs its glue may try, `glue`, and the
pairs of halves it may compare, `pairs`), in the engine's order. Then:

- the shipped model (src/engine/join/order/cost.rs) is judged by the shards the
  engine cuts: its items in their order (interleaved by cost) cut into M
  contiguous ranges of equal cost (as exec::shard::ranges does), each
  shard's time the sum of its items' measured times, slowest over mean;
  beside it the same costs in FORMAT 5's order (the fixed-point
  searches first, then the pairs sorted, largest first);
- its progress by cost against progress by time: the most the share of
  the cost done differs from the share of the time, over every prefix of
  the order (what an ETA by cost or by items gets wrong);
- the models are fitted again on these times, per parity of n, in the
  form cost.rs ships (nanoseconds): pair items, power: ns = e^c
  (glue+1)^a (pairs+1)^b (least squares on the logs), with a linear one
  (a glue + b pairs + c) for comparison; fixed-point items, the half
  turn's and the quarter turn's mean item against n (ln ns = c + d n).
  Constants that drift from the shipped ones are what a refit would ship
  (and a FORMAT bump).

Usage: scripts/fit-costs.py [--n 18 19 20] [--simd PATH] [--csv-dir DIR]
   (--simd: time the items on that pair counter, e.g. `none` or `avx2`,
   into results/<date>-<host>-costs-PATH; by default the fastest here;
   with --csv-dir, reads item-times-N.csv there instead of measuring)
"""

import argparse
import csv
import math
import os
import subprocess
import sys
from pathlib import Path

import measure


def measure_items(n, path, simd=None):
    env = dict(os.environ, NQUEENS_FIT_N=str(n), NQUEENS_FIT_OUT=str(path))
    if simd:
        env["NQUEENS_FIT_SIMD"] = simd
    subprocess.run(
        ["cargo", "test", "--release", "--quiet", "--lib", "--", "--ignored", "--exact",
         "engine::join::order::fit::item_times"],
        cwd=measure.ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


def load(path):
    """The rows of an item-times CSV; a fixed-point item's `kind` is
    `fixed-I` (its search, burnside::fixed_item I), or `fixed` in files of
    FORMAT 5, where item I was search I. Each row gets `fixed`: I, or None
    for a pair item."""
    with open(path) as f:
        rows = [
            {k: (v if k == "kind" else float(v)) for k, v in row.items()}
            for row in csv.DictReader(f)
        ]
    for row in rows:
        kind = row["kind"]
        row["fixed"] = (None if kind == "pair" else
                        int(row["item"]) if kind == "fixed" else int(kind.split("-")[1]))
    return rows


def solve(matrix, vector):
    """Gaussian elimination with partial pivoting."""
    size = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(size):
            if r != col and a[col][col] != 0:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col])]
    return [a[i][size] / a[i][i] if a[i][i] else 0.0 for i in range(size)]


def least_squares(xs, ys, weights):
    size = len(xs[0])
    ata = [[0.0] * size for _ in range(size)]
    atb = [0.0] * size
    for x, y, w in zip(xs, ys, weights):
        for i in range(size):
            atb[i] += w * x[i] * y
            for j in range(size):
                ata[i][j] += w * x[i] * x[j]
    return solve(ata, atb)


def linear_features(row):
    return [row["glue"], row["pairs"], 1.0]


def power_features(row):
    return [math.log(row["glue"] + 1), math.log(row["pairs"] + 1), 1.0]


class Linear:
    name = "linear"

    def __init__(self, rows):
        # Relative errors: weight 1/t^2 on the squared error.
        times = [max(r["seconds"], 1e-7) for r in rows]
        self.k = least_squares([linear_features(r) for r in rows], times,
                               [1 / (t * t) for t in times])

    def __call__(self, row):
        return sum(c * x for c, x in zip(self.k, linear_features(row)))

    def __str__(self):
        return f"seconds = {self.k[0]:.4e} glue + {self.k[1]:.4e} pairs + {self.k[2]:.4e}"


class Power:
    name = "power"

    def __init__(self, rows):
        self.k = least_squares([power_features(r) for r in rows],
                               [math.log(max(r["seconds"], 1e-9)) for r in rows],
                               [1.0] * len(rows))

    def __call__(self, row):
        return math.exp(sum(c * x for c, x in zip(self.k, power_features(row))))

    def __str__(self):
        return (f"ns = e^{self.k[2] + math.log(1e9):.4f} (glue+1)^{self.k[0]:.4f} "
                f"(pairs+1)^{self.k[1]:.4f}")


def shard_balance(costs, seconds, shards):
    """Slowest shard over the mean, cutting as exec::shard::ranges."""
    total = sum(costs)
    times, spent, current = [], 0.0, 0.0
    for cost, t in zip(costs, seconds):
        while len(times) + 1 < shards and spent >= total * (len(times) + 1) / shards:
            times.append(current)
            current = 0.0
        spent += cost
        current += t
    times.append(current)
    while len(times) < shards:
        times.append(0.0)
    return max(times) / (sum(times) / shards)


def progress_error(costs, seconds):
    """The most the share of the cost done differs from the share of the
    time done, over every prefix."""
    total_c, total_t = sum(costs), sum(seconds)
    worst, done_c, done_t = 0.0, 0.0, 0.0
    for c, t in zip(costs, seconds):
        done_c += c
        done_t += t
        worst = max(worst, abs(done_c / total_c - done_t / total_t))
    return worst


def fixed_fits(data):
    """ln ns = c + d n for the half turn's items (those that search: not a
    corner, not an odd board's middle column) and the quarter turn's, per
    parity for the half turn."""
    def fit(points):
        xs = [[n, 1.0] for n, _ in points]
        ys = [math.log(t * 1e9) for _, t in points]
        return least_squares(xs, ys, [1.0] * len(points))
    half, quarter = {0: [], 1: []}, []
    for n, rows in data.items():
        fixed = {r["fixed"]: r["seconds"] for r in rows if r["fixed"] is not None}
        searching = [fixed[c] for c in range(1, n - 1) if not (n % 2 and c == n // 2)]
        half[n % 2].append((n, sum(searching) / len(searching)))
        turns = [fixed[c] for c in range(n, 2 * n)]
        quarter.append((n, sum(turns) / len(turns)))
    lines = []
    for parity, points in half.items():
        if len(points) >= 2:
            d, c = fit(points)
            lines.append(f"half turn ({'even' if parity == 0 else 'odd'} n): ln ns = {c:.3f} + {d:.3f} n")
    if len(quarter) >= 2:
        d, c = fit(quarter)
        lines.append(f"quarter turn: ln ns = {c:.3f} + {d:.3f} n")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[18, 19, 20])
    parser.add_argument("--csv-dir", type=Path)
    parser.add_argument("--simd")
    args = parser.parse_args()
    folder = args.csv_dir or measure.results_dir("costs" + (f"-{args.simd}" if args.simd else ""))
    folder.mkdir(parents=True, exist_ok=True)
    data = {}
    for n in args.n:
        path = folder / f"item-times-{n}.csv"
        if not args.csv_dir:
            print(f"timing every item of n = {n} on one thread ...", file=sys.stderr)
            measure_items(n, path, args.simd)
        data[n] = load(path)
    print(f"machine: {measure.machine()['cpu']}; pair counter: {args.simd or 'the fastest here'}; "
          f"item times in {folder}")
    for n, rows in data.items():
        seconds = [r["seconds"] for r in rows]
        print(f"n = {n}: {len(rows)} items, {sum(seconds):.2f} s on one thread")
        fixed = sorted((r for r in rows if r["fixed"] is not None), key=lambda r: r["fixed"])
        pairs = [r for r in rows if r["fixed"] is None]
        big = max(seconds)
        print(f"  largest item {big * 1e3:.2f} ms = {100 * big / sum(seconds):.3f}% of the count; "
              f"fixed-point items {sum(r['seconds'] for r in fixed):.3f} s, the largest "
              f"{max(r['seconds'] for r in fixed) * 1e3:.2f} ms; largest pair item "
              f"{max(r['seconds'] for r in pairs) * 1e3:.2f} ms")
        total_cost = sum(r["cost"] for r in rows) * 1e-9
        print(f"  shipped costs add up to {total_cost:.2f} reference seconds "
              f"({total_cost / sum(seconds):.3f} of the time measured)")
        sorted_order = fixed + sorted(pairs, key=lambda r: -r["cost"])
        for name, order in (("engine's order (interleaved)", rows),
                            ("FORMAT 5's (sorted, searches first)", sorted_order)):
            c = [r["cost"] for r in order]
            t = [r["seconds"] for r in order]
            balance = "  ".join(f"{m}: {shard_balance(c, t, m):.3f}" for m in (16, 64, 256))
            print(f"    {name:36} slowest/mean shard {balance}; "
                  f"progress by cost off by {100 * progress_error(c, t):.1f}% of the time at worst")
    print("refitted on these times (what cost.rs would ship):")
    for parity in (0, 1):
        rows = [r for n, rs in data.items() if n % 2 == parity for r in rs if r["fixed"] is None]
        if rows:
            parity_name = "even" if parity == 0 else "odd"
            for model in (Power(rows), Linear(rows)):
                errors = sorted(abs(math.log(max(model(r), 1e-12) / max(r["seconds"], 1e-9)))
                                for r in rows)
                print(f"  pair items, {model.name} ({parity_name} n): {model}; "
                      f"median error of one item {100 * (math.exp(errors[len(errors) // 2]) - 1):.0f}%")
    for line in fixed_fits(data):
        print(f"  fixed-point items, {line}")


if __name__ == "__main__":
    main()
