#!/usr/bin/env python3
"""The join's sketch (src/engine/join/glue/sketch.rs, what `estimate`
forecasts boards past n = 25 with) against counting the same items whole:
for each board, engine::join::fit::sketch_against_count sketches K pair
items (or drawn slots) spread over the order and then counts each one
whole, on one thread, one after the other (paired: whatever else the
machine does falls on both), and sketches the whole board as `estimate`
does. Writes results/<date>-<host>-sketch/ (sketch-N.csv, board-N.csv,
README.md): per board, the sketches' sum over the counts' sum, the median
and range of the per-item ratios, and the share of glue.

Usage: scripts/sketch-check.py [N=K ...]   (default 21=100 24=24 25=16 26=5 27=3)
"""

import csv
import os
import shutil
import statistics
import subprocess
import sys

import measure


def main():
    boards = [tuple(int(x) for x in a.split("=")) for a in sys.argv[1:]] or [
        (21, 100), (24, 24), (25, 16), (26, 5), (27, 3)]
    folder = measure.results_dir("sketch")
    rows = []
    for n, k in boards:
        out = folder / f"sketch-{n}.csv"
        print(f"n = {n}: {k} units ...", file=sys.stderr)
        env = dict(os.environ, NQUEENS_FIT_N=str(n), NQUEENS_FIT_OUT=str(out),
                   NQUEENS_SKETCH_UNITS=str(k))
        subprocess.run(["cargo", "test", "--release", "--quiet", "--lib", "--", "--ignored",
                        "--exact", "engine::join::fit::sketch_against_count"],
                       env=env, check=True, cwd=measure.ROOT, stdout=subprocess.DEVNULL)
        shutil.move(f"{out}.board", folder / f"board-{n}.csv")
        with open(out) as f:
            units = list(csv.DictReader(f))
        with open(folder / f"board-{n}.csv") as f:
            board = next(csv.DictReader(f))
        sketch = sum(float(u["sketch_s"]) for u in units)
        count = sum(float(u["count_s"]) for u in units)
        glue = sum(float(u["glue_s"]) for u in units)
        ratios = [float(u["sketch_s"]) / float(u["count_s"]) for u in units]
        rows.append((n, len(units), sketch, count, sketch / count, statistics.median(ratios),
                     min(ratios), max(ratios), glue / sketch,
                     sum(float(u["sketched_in_s"]) for u in units) / len(units),
                     float(board["seconds"]) / 3600, float(board["relative_error"]),
                     int(board["sampled"]), float(board["sketched_s"])))
        print(f"  sketch {sketch:.2f} s, count {count:.2f} s, ratio {sketch / count:.3f}",
              file=sys.stderr)
    lines = [
        "# The join's sketch against whole counts",
        "",
        "Command: `scripts/sketch-check.py " + " ".join(f"{n}={k}" for n, k in boards) + "`",
        "(engine::join::fit::sketch_against_count: K units spread over the order, each",
        "sketched and then counted whole on one thread; and the whole board sketched as",
        "`estimate` does, 256 units or 20 s).",
        "",
        "| n | units | sketches (s) | counts (s) | sum ratio | median ratio | range | glue share | sketch of one (s) | board: core-hours (± rel. s.e.) | board: units sketched (s) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for (n, k, sk, ct, ratio, med, lo, hi, glue, per, hours, err, sampled, took) in rows:
        lines.append(f"| {n} | {k} | {sk:.2f} | {ct:.2f} | {ratio:.3f} | {med:.3f} | "
                     f"{lo:.2f}–{hi:.2f} | {glue:.0%} | {per:.3f} | {hours:.4g} (± {err:.1%}) | "
                     f"{sampled} ({took:.1f}) |")
    lines += ["", measure.machine_section(measure.machine())]
    measure.write_atomically(folder / "README.md", "\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
