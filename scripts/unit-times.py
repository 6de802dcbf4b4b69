#!/usr/bin/env python3
"""Two builds of the join counting the same units whole, paired: for each
unit, the base build's count and this tree's, one after the other on one
thread (the ignored test engine::join::order::fit::unit_times, one unit a
run, the order of the two swapped from unit to unit), so that whatever else
the machine does falls on both. The tallies must agree. Writes
results/<date>-<host>-unit-times-<label>/ (units.csv, README.md): per unit
both times and their ratio, the median ratio and the ratio of the sums.

Usage: scripts/unit-times.py --base REV --label LABEL N=UNIT[,UNIT...] ...
       (the base revision is checked out into a worktree under /tmp and
       built there; the test must exist at it: add it there by hand if
       it is older than the test)
"""

import argparse
import csv
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

import measure


def run_units(tree, target, n, units):
    """The ignored test in `tree` (built into `target`) on these units:
    a list of (unit, tally, seconds)."""
    with tempfile.NamedTemporaryFile(suffix=".csv") as out:
        env = dict(os.environ, CARGO_TARGET_DIR=str(target), NQUEENS_FIT_N=str(n),
                   NQUEENS_UNITS=" ".join(map(str, units)), NQUEENS_FIT_OUT=out.name)
        subprocess.run(["cargo", "test", "--release", "--quiet", "--lib", "--", "--ignored",
                        "--exact", "engine::join::order::fit::unit_times"],
                       env=env, check=True, cwd=tree, stdout=subprocess.DEVNULL)
        with open(out.name) as f:
            return [(int(r["unit"]), int(r["tally"]), float(r["count_s"]))
                    for r in csv.DictReader(f)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True, help="the revision to compare against")
    parser.add_argument("--base-tree", help="a worktree of it already prepared")
    parser.add_argument("--label", required=True)
    parser.add_argument("boards", nargs="+", help="N=UNIT,UNIT,...")
    args = parser.parse_args()
    base = Path(args.base_tree or f"/tmp/unit-times-base-{args.base}")
    if not base.exists():
        subprocess.run(["git", "worktree", "add", "-f", str(base), args.base],
                       cwd=measure.ROOT, check=True)
    base_target = Path(f"{base}-target")
    here_target = measure.ROOT / "target"
    measure.build_release()
    rows = []
    for board in args.boards:
        n, units = board.split("=")
        for k, unit in enumerate(int(u) for u in units.split(",")):
            # The two builds in turn, the first swapped from unit to unit.
            order = [("base", base, base_target), ("here", measure.ROOT, here_target)]
            if k % 2 == 1:
                order.reverse()
            got = {name: run_units(tree, target, int(n), [unit])[0]
                   for name, tree, target in order}
            if got["base"][1] != got["here"][1]:
                raise SystemExit(f"n = {n}, unit {unit}: tallies differ: {got}")
            rows.append((int(n), unit, got["base"][1], got["base"][2], got["here"][2]))
            print(f"n = {n} unit {unit}: base {got['base'][2]:.2f} s, here {got['here'][2]:.2f} s",
                  flush=True)
    folder = measure.results_dir(f"unit-times-{args.label}")
    with open(folder / "units.csv", "w") as f:
        f.write("n,unit,tally,base_s,here_s,ratio\n")
        for n, unit, tally, b, h in rows:
            f.write(f"{n},{unit},{tally},{b:.6f},{h:.6f},{h / b:.4f}\n")
    lines = [
        f"# Whole units counted by two builds: {args.label}",
        "",
        "Command: `scripts/unit-times.py --base " + args.base + " --label " + args.label + " "
        + " ".join(args.boards) + "`",
        "(engine::join::order::fit::unit_times: each unit counted whole on one thread by the "
        f"base build, {args.base}, and by this one, one after the other, the order swapped "
        "from unit to unit; the tallies agree). Ratio: this build's time over the base's.",
        "",
        "| n | units | base (s) | this build (s) | sum ratio | median ratio | range |",
        "|---|---|---|---|---|---|---|",
    ]
    for n in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == n]
        ratios = [r[4] / r[3] for r in mine]
        base_s, here_s = sum(r[3] for r in mine), sum(r[4] for r in mine)
        lines.append(f"| {n} | {len(mine)} | {base_s:.2f} | {here_s:.2f} | {here_s / base_s:.3f} "
                     f"| {statistics.median(ratios):.3f} | {min(ratios):.2f}–{max(ratios):.2f} |")
    lines += ["", "Per unit: units.csv.", "", measure.machine_section(measure.machine())]
    measure.write_atomically(folder / "README.md", "\n".join(lines))
    print(folder)


if __name__ == "__main__":
    main()
