#!/usr/bin/env python3
"""The join's sketch (src/engine/join/forecast/item.rs, what `estimate`
forecasts boards past n = 25 with) against counting the same items whole:
for each board, engine::join::order::fit::sketch_against_count sketches K pair
items (or drawn slots) spread over the order and then counts each one
whole, on one thread, one after the other (paired: whatever else the
machine does falls on both), and sketches the whole board as `estimate`
does. Writes results/<date>-<host>-sketch/ (sketch-N.csv, board-N.csv,
README.md): per board, the sketches' sum over the counts' sum, the median
and range of the per-item ratios, and the share of glue.

Usage: scripts/sketch-check.py [--summarize] [--label L] [N=K | N:U,U,... ...]
       (default 21=100 24=24 25=16 26=5 27=3; N:U,U names the units to
       take, e.g. those an earlier check took; --label L writes
       results/<date>-<host>-sketch-L/ instead; --summarize: only the
       README, from the CSVs already in that folder)
       scripts/sketch-check.py --against-sample N [N ...]
       (boards to 25 only: the whole board's sketch beside the forecast
       `estimate` makes by timing whole items, in results/<date>-<host>-
       sketch-boards/)
"""

import csv
import json
import os
import shutil
import statistics
import subprocess
import sys

import measure


def run_check(n, units, out, folder):
    """The ignored test engine::join::order::fit::sketch_against_count on the n×n
    board: `units` units (a number of them, or a list of units) into `out`,
    the whole board's sketch into folder/board-N.csv."""
    env = dict(os.environ, NQUEENS_FIT_N=str(n), NQUEENS_FIT_OUT=str(out))
    if isinstance(units, list):
        env["NQUEENS_UNITS"] = " ".join(map(str, units))
    else:
        env["NQUEENS_SKETCH_UNITS"] = str(units)
    subprocess.run(["cargo", "test", "--release", "--quiet", "--lib", "--", "--ignored",
                    "--exact", "engine::join::order::fit::sketch_against_count"],
                   env=env, check=True, cwd=measure.ROOT, stdout=subprocess.DEVNULL)
    shutil.move(f"{out}.board", folder / f"board-{n}.csv")


def board_sketch(n, folder):
    """The whole board's sketch (the test with no units), as a dict."""
    out = folder / f"units-{n}.csv"
    run_check(n, 0, out, folder)
    out.unlink()
    with open(folder / f"board-{n}.csv") as f:
        return next(csv.DictReader(f))


def against_sample(boards):
    measure.build_release()
    folder = measure.results_dir("sketch-boards")
    lines = [
        "# The join's sketch of a whole board against its timed sample",
        "",
        "Command: `scripts/sketch-check.py --against-sample " + " ".join(map(str, boards)) + "`",
        "(the board's sketch as `estimate` makes it past n = 25, 256 units or 20 s; beside",
        "`nqueens estimate N --algo join --threads 1 --json`, which times whole items).",
        "",
        "| n | sketch: core-hours (± rel. s.e.) | units sketched | timed sample: core-hours "
        "(± rel.) | items timed | sketch / sample |",
        "|---|---|---|---|---|---|",
    ]
    for n in boards:
        print(f"n = {n} ...", file=sys.stderr)
        board = board_sketch(n, folder)
        done = subprocess.run([str(measure.BINARY), "estimate", str(n), "--algo", "join",
                               "--threads", "1", "--json"],
                              capture_output=True, text=True, check=True)
        f = json.loads(done.stdout)
        sketch_h, sample_h = float(board["seconds"]) / 3600, f["one_thread_s"] / 3600
        spread = (f["estimated_high_s"] - f["estimated_s"]) / f["estimated_s"] / 2
        lines.append(f"| {n} | {sketch_h:.4g} (± {float(board['relative_error']):.1%}) | "
                     f"{board['sampled']} | {sample_h:.4g} (± {spread:.1%}) | "
                     f"{f['sampled_items']} | {sketch_h / sample_h:.3f} |")
    lines += ["", measure.machine_section(measure.machine())]
    measure.write_atomically(folder / "README.md", "\n".join(lines))
    print("\n".join(lines))


def main():
    args = sys.argv[1:]
    if args[:1] == ["--against-sample"]:
        return against_sample([int(a) for a in args[1:]])
    summarize = "--summarize" in args
    label = "sketch"
    if "--label" in args:
        at = args.index("--label")
        label = f"sketch-{args[at + 1]}"
        del args[at:at + 2]
    boards = []
    for a in args:
        if a == "--summarize":
            continue
        if ":" in a:
            n, units = a.split(":")
            boards.append((int(n), [int(u) for u in units.split(",")]))
        else:
            n, k = a.split("=")
            boards.append((int(n), int(k)))
    boards = boards or [(21, 100), (24, 24), (25, 16), (26, 5), (27, 3)]
    # The binary whose revision the README names, built from this tree.
    measure.build_release()
    folder = measure.results_dir(label)
    rows = []
    for n, k in boards:
        out = folder / f"sketch-{n}.csv"
        if not summarize:
            print(f"n = {n}: {k} units ...", file=sys.stderr)
            run_check(n, k, out, folder)
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
        "Command: `scripts/sketch-check.py "
        + ("" if label == "sketch" else f"--label {label[len('sketch-'):]} ")
        + " ".join(f"{n}:{','.join(map(str, k))}" if isinstance(k, list) else f"{n}={k}"
                   for n, k in boards) + "`",
        "(engine::join::order::fit::sketch_against_count: K units spread over the order, or those named, each",
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
