#!/usr/bin/env python3
"""Fits the join's cost model on measured item times, and says how well
each model cuts shards.

Every item of each board is timed on one thread (the ignored test
engine::join::fit::item_times, the fastest of a few passes, beside the
terms of its bound: the quarter pairs its glue may try, `glue`, and the
pairs of halves it may compare, `pairs`); then, per parity of n, two
models are fitted on the pair items: linear, seconds = a glue + b pairs +
c (least squares on relative errors), and power, seconds = e^c glue^a
pairs^b (least squares on the logs). Each model, and the shipped one (the
CSV's `cost` column), is judged by the shards it cuts: items in cost
order cut into M contiguous ranges of equal cost (as exec::shard::ranges
does), each shard's time the sum of its items' measured times, slowest
over mean; once with the fixed-point items costed as the largest pair
item (as the engine does), once at their measured times (what a model of
them would reach).

Usage: scripts/fit-costs.py [--n 18 19 20] [--csv-dir DIR]
   (with --csv-dir, reads item-times-N.csv there instead of measuring)
"""

import argparse
import csv
import math
import os
import subprocess
import sys
from pathlib import Path

import measure


def measure_items(n, path):
    env = dict(os.environ, NQUEENS_FIT_N=str(n), NQUEENS_FIT_OUT=str(path))
    subprocess.run(
        ["cargo", "test", "--release", "--quiet", "--lib", "--", "--ignored", "--exact",
         "engine::join::fit::item_times"],
        cwd=measure.ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


def load(path):
    with open(path) as f:
        return [
            {k: (v if k == "kind" else float(v)) for k, v in row.items()}
            for row in csv.DictReader(f)
        ]


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
        return f"seconds = e^{self.k[2]:.3f} (glue+1)^{self.k[0]:.3f} (pairs+1)^{self.k[1]:.3f}"


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[18, 19, 20])
    parser.add_argument("--csv-dir", type=Path)
    args = parser.parse_args()
    folder = args.csv_dir or measure.results_dir("costs")
    folder.mkdir(parents=True, exist_ok=True)
    data = {}
    for n in args.n:
        path = folder / f"item-times-{n}.csv"
        if not args.csv_dir:
            print(f"timing every item of n = {n} on one thread ...", file=sys.stderr)
            measure_items(n, path)
        data[n] = load(path)
    print(f"machine: {measure.machine()['cpu']}; item times in {folder}")
    models = {}
    for parity in (0, 1):
        rows = [r for n, rs in data.items() if n % 2 == parity for r in rs if r["kind"] == "pair"]
        if rows:
            models[parity] = (Linear(rows), Power(rows))
    for n, rows in data.items():
        seconds = [r["seconds"] for r in rows]
        print(f"n = {n}: {len(rows)} items, {sum(seconds):.2f} s on one thread")
        fixed = [r for r in rows if r["kind"] == "fixed"]
        pairs = [r for r in rows if r["kind"] == "pair"]
        big = max(seconds)
        print(f"  largest item {big * 1e3:.2f} ms = {100 * big / sum(seconds):.3f}% of the count; "
              f"fixed-point items {sum(r['seconds'] for r in fixed):.3f} s, the largest "
              f"{max(r['seconds'] for r in fixed) * 1e3:.2f} ms; largest pair item "
              f"{max(r['seconds'] for r in pairs) * 1e3:.2f} ms")
        shipped = lambda r: r["cost"]
        for model in (shipped, *models[n % 2]):
            name = getattr(model, "name", "shipped")
            if name != "shipped":
                print(f"  {name} fit ({'even' if n % 2 == 0 else 'odd'} n): {model}")
            for fixed_rule in ("largest", "measured"):
                costs = {id(r): model(r) for r in pairs}
                largest = max(costs.values())
                scale = sum(r["seconds"] for r in pairs) / sum(costs.values())
                for r in fixed:
                    costs[id(r)] = largest if fixed_rule == "largest" else r["seconds"] / scale
                order = fixed + sorted(pairs, key=lambda r: -costs[id(r)])
                c = [costs[id(r)] for r in order]
                t = [r["seconds"] for r in order]
                balance = "  ".join(f"{m}: {shard_balance(c, t, m):.3f}" for m in (16, 64, 256))
                print(f"    {name:8} fixed-point items at {fixed_rule:8}: slowest/mean shard {balance}")


if __name__ == "__main__":
    main()
