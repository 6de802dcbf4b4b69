#!/usr/bin/env python3
"""How far the join's whole-board sketch (what `estimate` forecasts n >= 26
with) moves with its draw: the ignored test tests/sketch_spread.rs sketches
each board under several seeds, on all the threads and with estimate's
budget, for a base build and for this tree, one seed at a time, the order
of the two swapped from seed to seed, so that whatever else the machine does
falls on both. The spread of the forecasts over the seeds is the sketch's
real error; the error each sketch reports should match it. Writes
results/<date>-<host>-sketch-spread-<label>/ (runs.csv, README.md).

Usage: scripts/sketch-spread.py --base REV --label LABEL [--seeds 8]
       [--budget 20] N [N ...]
       (the base revision is checked out into a worktree under /tmp and
       built there, with this tree's copy of the test)
"""

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

import measure

TEST = "tests/sketch_spread.rs"


def run_seed(tree, target, n, seed, budget):
    """One sketch of board n with seed `seed` in `tree`: its CSV row."""
    with tempfile.NamedTemporaryFile(suffix=".csv") as out:
        env = dict(os.environ, CARGO_TARGET_DIR=str(target), NQUEENS_FIT_N=str(n),
                   NQUEENS_SEEDS=str(seed), NQUEENS_BUDGET=str(budget), NQUEENS_FIT_OUT=out.name)
        subprocess.run(["cargo", "test", "--release", "--quiet", "--test", "sketch_spread", "--",
                        "--ignored", "--exact", "sketch_seeds"],
                       env=env, check=True, cwd=tree, stdout=subprocess.DEVNULL)
        with open(out.name) as f:
            return next(csv.DictReader(f))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True, help="the revision to compare against")
    parser.add_argument("--label", required=True)
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--budget", type=float, default=20.0)
    parser.add_argument("boards", nargs="+", type=int)
    args = parser.parse_args()
    base = Path(f"/tmp/sketch-spread-base-{args.base}")
    if not base.exists():
        subprocess.run(["git", "worktree", "add", "-f", str(base), args.base],
                       cwd=measure.ROOT, check=True)
    shutil.copy(measure.ROOT / TEST, base / TEST)
    trees = {"base": (base, Path(f"{base}-target")), "here": (measure.ROOT, measure.ROOT / "target")}
    measure.build_release()
    rows = []
    for n in args.boards:
        for seed in range(1, args.seeds + 1):
            order = ["base", "here"] if seed % 2 else ["here", "base"]
            for name in order:
                tree, target = trees[name]
                got = run_seed(tree, target, n, seed, args.budget)
                rows.append({"n": n, "seed": seed, "build": name, **got})
                print(f"n = {n} seed {seed} {name}: {float(got['seconds']):.4g} s "
                      f"({got['sampled']} units, ±{float(got['relative_error']):.3f})", flush=True)
    folder = measure.results_dir(f"sketch-spread-{args.label}")
    fields = ["n", "seed", "build", "sampled", "sketched_s", "seconds", "relative_error",
              "glue_share", "largest_s"]
    with open(folder / "runs.csv", "w") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    lines = [
        f"# The join's sketch under {args.seeds} seeds: {args.label}",
        "",
        f"Command: `scripts/sketch-spread.py --base {args.base} --label {args.label} "
        f"--seeds {args.seeds} --budget {args.budget:g} " + " ".join(map(str, args.boards)) + "`",
        f"(tests/sketch_spread.rs: `Join::sketch` of each board with seeds 1..{args.seeds}, "
        f"a budget of {args.budget:g} s on all the threads, as `estimate` sketches; the base "
        f"build, {args.base}, and this one, one after the other, the order swapped from seed "
        "to seed). Spread: the standard deviation of the forecasts over the seeds, relative "
        "to their mean, beside the mean relative error the sketches report.",
        "",
        "| n | build | units sketched (mean) | forecast, mean (core-hours) | min | max "
        "| spread | reported error |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for n in args.boards:
        for name in ("base", "here"):
            mine = [r for r in rows if r["n"] == n and r["build"] == name]
            hours = [float(r["seconds"]) / 3600 for r in mine]
            mean = statistics.mean(hours)
            spread = statistics.stdev(hours) / mean if len(hours) > 1 else 0.0
            reported = statistics.mean(float(r["relative_error"]) for r in mine)
            sampled = statistics.mean(int(r["sampled"]) for r in mine)
            lines.append(f"| {n} | {name} | {sampled:.0f} | {mean:,.4g} | {min(hours):,.4g} "
                         f"| {max(hours):,.4g} | {spread:.3f} | {reported:.3f} |")
    lines += ["", "Per run: runs.csv.", "", measure.machine_section(measure.machine())]
    measure.write_atomically(folder / "README.md", "\n".join(lines))
    print(folder)


if __name__ == "__main__":
    main()
