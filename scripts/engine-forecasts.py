#!/usr/bin/env python3
"""Which engine costs less, board by board: `nqueens estimate N --threads 1
--json` with each engine forced (--algo parallel, the backtracker's Knuth
estimate; --algo join, timed items to n = 25 and sketched slots past it),
beside the engine `estimate N` picks on its own (the Job's automatic
choice). The automatic choice should be the cheaper engine wherever the
two forecasts' bands do not overlap; the script says where it is not.
Writes results/<date>-<host>-engines/ (engines.csv, README.md).

Usage: scripts/engine-forecasts.py [--from 16] [--to 32]
"""

import argparse
import csv
import io
import json
import subprocess
import sys

import measure


def estimate(n, *flags):
    command = [str(measure.BINARY), "estimate", str(n), "--threads", "1", "--json", *flags]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"error: {' '.join(command)} exited {done.returncode}: {done.stderr}")
    return json.loads(done.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--from", dest="low", type=int, default=16)
    parser.add_argument("--to", dest="high", type=int, default=32)
    args = parser.parse_args()
    measure.build_release()
    rows = []
    for n in range(args.low, args.high + 1):
        print(f"n = {n} ...", file=sys.stderr)
        row = {"n": n, "picked": estimate(n)["algorithm"]}
        for algo in ("parallel", "join"):
            f = estimate(n, "--algo", algo)
            row[f"{algo}_core_hours"] = f["one_thread_s"] / 3600
            row[f"{algo}_low"] = f["estimated_low_s"] / 3600
            row[f"{algo}_high"] = f["estimated_high_s"] / 3600
        cheaper = min(("parallel", "join"), key=lambda a: row[f"{a}_core_hours"])
        other = "join" if cheaper == "parallel" else "parallel"
        row["cheaper"] = cheaper
        row["apart"] = row[f"{cheaper}_high"] < row[f"{other}_low"]
        row["ratio"] = row["parallel_core_hours"] / row["join_core_hours"]
        rows.append(row)
    folder = measure.results_dir("engines")
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    measure.write_atomically(folder / "engines.csv", buffer.getvalue())
    wrong = [r["n"] for r in rows if r["apart"] and r["picked"] != r["cheaper"]]
    lines = [
        f"# Which engine costs less, n = {args.low}..{args.high}",
        "",
        f"Command: `scripts/engine-forecasts.py --from {args.low} --to {args.high}` "
        "(`nqueens estimate N --threads 1 --json --algo parallel|join`, and the engine "
        "`estimate N` picks).",
        "",
        "| n | backtracker: core-hours (band) | join: core-hours (band) | backtracker / join "
        "| picked |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        mark = "" if r["picked"] == r["cheaper"] or not r["apart"] else " (not the cheaper)"
        lines.append(
            f"| {r['n']} | {r['parallel_core_hours']:.3g} ({r['parallel_low']:.3g}–"
            f"{r['parallel_high']:.3g}) | {r['join_core_hours']:.3g} ({r['join_low']:.3g}–"
            f"{r['join_high']:.3g}) | {r['ratio']:.3g} | {r['picked']}{mark} |")
    lines += [
        "",
        "The automatic choice takes the cheaper engine wherever the bands are apart"
        if not wrong else f"The automatic choice is not the cheaper engine at n = {wrong}",
        "",
        measure.machine_section(measure.machine()),
    ]
    measure.write_atomically(folder / "README.md", "\n".join(lines))
    print("\n".join(lines[:len(rows) + 8]))
    if wrong:
        sys.exit(1)


if __name__ == "__main__":
    main()
