#!/usr/bin/env python3
"""What a pair unit's sketched seconds follow: pair units of each board
sketched one by one on one thread (the ignored test
engine::join::order::fit::sketch_against_count with NQUEENS_SKETCH_ONLY=1,
which writes each unit's group and row sets), then the share of their
variance left within strata for a few candidate keys (how many of the
unit's rows lie north, its group, both): what a stratified sketch
(forecast/board.rs) gains over one mean over all. Writes
results/<date>-<host>-sketch-strata[-LABEL]/ (sketch-N.csv, README.md).

Usage: scripts/sketch-strata.py [--label L] N=UNITS [N=UNITS ...]
       scripts/sketch-strata.py --csv-dir DIR N ...   (analyse only)
"""

import argparse
import csv
import os
import statistics
import subprocess
from collections import defaultdict
from pathlib import Path

import measure


def north(row):
    return bin(int(row["north"])).count("1")


KEYS = [
    ("rows north", north),
    ("group", lambda r: r["group"]),
    ("group and rows north", lambda r: (r["group"], north(r))),
]


def within_share(rows, key):
    """The variance of the sketched seconds left within the strata of
    `key`, over all of it; the strata and how many hold fewer than 4."""
    values = [float(r["sketch_s"]) for r in rows]
    strata = defaultdict(list)
    for r, v in zip(rows, values):
        strata[key(r)].append(v)
    within = sum(sum((v - statistics.mean(vs)) ** 2 for v in vs) for vs in strata.values())
    total = statistics.pvariance(values) * len(values)
    return within / total, len(strata), sum(1 for vs in strata.values() if len(vs) < 4)


def sketch(n, units, out):
    env = dict(os.environ, NQUEENS_FIT_N=str(n), NQUEENS_SKETCH_ONLY="1",
               NQUEENS_SKETCH_NO_BOARD="1", NQUEENS_SKETCH_UNITS=str(units),
               NQUEENS_FIT_OUT=str(out))
    subprocess.run(["cargo", "test", "--release", "--quiet", "--lib", "--", "--ignored",
                    "--exact", "engine::join::order::fit::sketch_against_count"],
                   env=env, check=True, cwd=measure.ROOT, stdout=subprocess.DEVNULL)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--label")
    parser.add_argument("--csv-dir", help="analyse sketch-N.csv files already written")
    parser.add_argument("boards", nargs="+", help="N=UNITS (or N with --csv-dir)")
    args = parser.parse_args()
    label = "sketch-strata" + (f"-{args.label}" if args.label else "")
    folder = Path(args.csv_dir) if args.csv_dir else measure.results_dir(label)
    if not args.csv_dir:
        measure.build_release()
    lines = [
        "# What a pair unit's sketched seconds follow",
        "",
        "Command: `scripts/sketch-strata.py " + " ".join(
            (["--label", args.label] if args.label else [])
            + (["--csv-dir", args.csv_dir] if args.csv_dir else []) + args.boards) + "`",
        "(pair units drawn at random, empty slots skipped, each sketched on one thread: "
        "engine::join::order::fit::sketch_against_count with NQUEENS_SKETCH_ONLY=1). "
        "Within: the variance of the units' sketched seconds left within the strata of each "
        "key, over the whole variance; a stratified sketch's variance is about that share of "
        "one mean's over all, for as many units.",
        "",
        "| n | units | mean (s) | spread | key | strata | strata under 4 units | within |",
        "|---|---|---|---|---|---|---|---|",
    ]
    tables = []
    for board in args.boards:
        n, _, units = board.partition("=")
        path = folder / f"sketch-{n}.csv"
        if not args.csv_dir:
            sketch(int(n), int(units), path)
        with open(path) as f:
            rows = list(csv.DictReader(f))
        values = [float(r["sketch_s"]) for r in rows]
        mean = statistics.mean(values)
        for name, key in KEYS:
            share, strata, thin = within_share(rows, key)
            lines.append(f"| {n} | {len(rows)} | {mean:.4g} | {statistics.pstdev(values) / mean:.2f} "
                         f"| {name} | {strata} | {thin} | {share:.3f} |")
        by = defaultdict(list)
        for r, v in zip(rows, values):
            by[north(r)].append(v)
        tables += ["", f"n = {n}, by rows north:", "",
                   "| rows north | units | mean (s) | spread |", "|---|---|---|---|"]
        for k in sorted(by):
            vs = by[k]
            sd = statistics.pstdev(vs) / statistics.mean(vs) if len(vs) > 1 else 0.0
            tables.append(f"| {k} | {len(vs)} | {statistics.mean(vs):.4g} | {sd:.2f} |")
    lines += tables + ["", "Per unit: sketch-N.csv.", "", measure.machine_section(measure.machine())]
    measure.write_atomically(folder / "README.md", "\n".join(lines))
    print(folder)


if __name__ == "__main__":
    main()
