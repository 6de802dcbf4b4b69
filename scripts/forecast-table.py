#!/usr/bin/env python3
"""Forecasts of every count from n = 19 to 32 on this machine: `nqueens
estimate N --json` with the engine `count` would run (the join wherever
its memory plan fits), its core time, and the wall time on
this machine's threads and on clusters of 100 and 1,000 nodes of 64 cores,
max(core time / (0.97 cores), largest item) (the join's largest item
bounds it; the backtracker's forecast has no such floor). The join's
forecast times whole items to n = 25 and sketches slots past it
(`basis`); `estimate_s` is how long `estimate` itself took. Writes
results/<date>-<host>-forecasts/ (forecasts.csv, README.md).

Usage: scripts/forecast-table.py [--from 19] [--to 32] [--label L] [--budget S]
(--label L writes results/<date>-<host>-forecasts-L/ instead, so a second
table of the day does not overwrite the first; --budget S is passed to
`estimate`: a longer sketch, a narrower band.)
"""

import argparse
import csv
import io
import json
import subprocess
import sys
import time

import measure

human = measure.human_duration

NODE_CORES = 64
EFFICIENCY = 0.97


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--from", dest="low", type=int, default=19)
    parser.add_argument("--to", dest="high", type=int, default=32)
    parser.add_argument("--label", help="suffix of the results folder")
    parser.add_argument("--budget", type=int, help="estimate's --budget, seconds")
    args = parser.parse_args()
    measure.build_release()
    threads = measure.machine()["logical_cores"]
    rows = []
    for n in range(args.low, args.high + 1):
        print(f"estimate {n} ...", file=sys.stderr)
        command = [str(measure.BINARY), "estimate", str(n), "--json"]
        if args.budget:
            command += ["--budget", str(args.budget)]
        clock = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True)
        took = time.monotonic() - clock
        if done.returncode != 0:
            sys.exit(f"error: estimate {n} exited {done.returncode}: {done.stderr}")
        f = json.loads(done.stdout)
        basis = "sketch" if "sampled_units" in f else "sample" if "sampled_items" in f else "search"
        core = f["one_thread_s"]
        floor = f.get("largest_item_s", 0.0)
        wall = lambda cores: max(core / (EFFICIENCY * cores), floor)
        rows.append({
            "n": n,
            "algorithm": f["algorithm"],
            "basis": basis,
            "estimate_s": round(took, 1),
            "simd": f["simd"],
            "threads": f["threads"],
            "wall_s": f["estimated_s"],
            "wall_low_s": f["estimated_low_s"],
            "wall_high_s": f["estimated_high_s"],
            "core_hours": core / 3600,
            "largest_item_s": floor,
            "wall_100_nodes_s": wall(100 * NODE_CORES),
            "wall_1000_nodes_s": wall(1000 * NODE_CORES),
        })
    folder = measure.results_dir(f"forecasts-{args.label}" if args.label else "forecasts")
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    measure.write_atomically(folder / "forecasts.csv", buffer.getvalue())
    lines = [
        f"# Forecasts, n = {args.low}..{args.high}",
        "",
        f"Command: `scripts/forecast-table.py --from {args.low} --to {args.high}"
        + (f" --label {args.label}" if args.label else "")
        + (f" --budget {args.budget}" if args.budget else "") + "` "
        "(`nqueens estimate N --json` for each n: the engine `count` would run).",
        f"Cluster columns: nodes of {NODE_CORES} cores like this machine's, "
        f"max(core time / ({EFFICIENCY} cores), largest item).",
        "",
        f"| n | engine | wall on {threads} threads (two standard errors) | core-hours | "
        "largest item | 100 nodes | 1,000 nodes | forecast by (took) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        largest = human(r["largest_item_s"]) if r["largest_item_s"] else "–"
        lines.append(
            f"| {r['n']} | {r['algorithm']} ({r['simd']}) | {human(r['wall_s'])} "
            f"({human(r['wall_low_s'])} – {human(r['wall_high_s'])}) | {r['core_hours']:.3g} | "
            f"{largest} | {human(r['wall_100_nodes_s'])} | {human(r['wall_1000_nodes_s'])} | "
            f"{r['basis']} ({r['estimate_s']:.0f} s) |")
    lines += ["", measure.machine_section(measure.machine())]
    measure.write_atomically(folder / "README.md", "\n".join(lines))
    print("\n".join(lines[:len(rows) + 8]))


if __name__ == "__main__":
    main()
