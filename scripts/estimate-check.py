#!/usr/bin/env python3
"""The estimator against the truth: for each n, `nqueens estimate N --exact`
(estimated and exactly counted nodes of the engine's search) and the
measured time of `nqueens count N --algo parallel`, on this machine's default threads.

Writes results/<date>-<host>-estimate/{estimates.csv,README.md}: the error
of the node estimate and of the time estimate for every n, and their
medians (target: median time error within 25%).

With --join: the join's forecast instead, `nqueens estimate N --algo join`
(256 of its work items timed on one thread, carried over by estimated cost)
against `nqueens count N --algo join`; results/<date>-<host>-estimate-join/.

Usage: scripts/estimate-check.py [--from 12] [--to 18] [--join]
"""

import argparse
import json
import statistics
import subprocess

import measure

A000170 = {12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512,
           17: 95815104, 18: 666090624, 19: 4968057848}


def join_check(args, info, binary):
    rows = []
    for n in range(args.first, args.last + 1):
        est = json.loads(subprocess.run(
            [binary, "estimate", str(n), "--algo", "join", "--json"],
            capture_output=True, text=True, check=True).stdout)
        out = json.loads(subprocess.run([binary, "count", str(n), "--algo", "join", "--json"],
                                        capture_output=True, text=True, check=True).stdout)
        wall = out["elapsed_s"]
        assert out["total"] == A000170[n], f"count {n}: {out['total']}"
        error = (est["estimated_s"] - wall) / wall
        rows.append((n, est, wall, error))
        print(f"n = {n}: {est['estimated_s']:.3f} s vs {wall:.3f} s ({100 * error:+.1f}%)", flush=True)
    out = measure.results_dir("estimate-join")
    measure.write_atomically(
        out / "estimates.csv",
        "n,threads,items,sampled_items,sampled_s,estimated_s,estimated_low_s,estimated_high_s,"
        "measured_s,time_error,total\n"
        + "".join(f"{n},{e['threads']},{e['items']},{e['sampled_items']},{e['sampled_s']:.4f},"
                  f"{e['estimated_s']:.4f},{e['estimated_low_s']:.4f},{e['estimated_high_s']:.4f},"
                  f"{w:.4f},{te:.4f},{A000170[n]}\n"
                  for n, e, w, te in rows))
    median = statistics.median(abs(r[3]) for r in rows)
    table = "\n".join(
        f"| {n} | {e['sampled_items']} of {e['items']} | {e['estimated_s']:.3f} "
        f"({e['estimated_low_s']:.3f}..{e['estimated_high_s']:.3f}) | {w:.3f} | {100 * te:+.1f}% |"
        for n, e, w, te in rows)
    readme = f"""# The join's forecast against its counts

Measured by `scripts/estimate-check.py --join --from {args.first} --to {args.last}`: for each n,
`nqueens estimate N --algo join --json` (a sample of the join's work items
timed on one thread, spread over their order by estimated cost, carried over
to all items by cost; two standard errors either side) against the wall time
`nqueens count N --algo join --json` reports, on the default threads. Every
count was checked against A000170.

Median time error: {100 * median:.1f}%.

| n | items timed | estimated s (range) | measured s | error |
|---|---|---|---|---|
{table}

Raw figures: `estimates.csv`.

{measure.machine_section(info)}"""
    measure.write_atomically(out / "README.md", readme)
    print(readme)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="first", type=int, default=12)
    parser.add_argument("--to", dest="last", type=int, default=18)
    parser.add_argument("--join", action="store_true", help="check the join's forecast")
    args = parser.parse_args()
    measure.build_release()
    info = measure.machine()
    binary = str(measure.BINARY)
    if args.join:
        return join_check(args, info, binary)
    rows = []
    for n in range(args.first, args.last + 1):
        est = json.loads(subprocess.run(
            [binary, "estimate", str(n), "--exact", "--json"],
            capture_output=True, text=True, check=True).stdout)
        # The estimator probes the backtracking engine's tree: time that
        # engine (the default count takes the join from n = 7).
        out = json.loads(subprocess.run([binary, "count", str(n), "--algo", "parallel", "--json"],
                                        capture_output=True, text=True, check=True).stdout)
        # The count's own wall time, planning included, process start not:
        # what the estimate predicts.
        wall = out["elapsed_s"]
        total = out["total"]
        assert total == A000170[n], f"count {n}: {total}"
        node_error = (est["nodes"] - est["exact_nodes"]) / est["exact_nodes"]
        time_error = (est["estimated_s"] - wall) / wall
        rows.append((n, est, wall, node_error, time_error))
        print(f"n = {n}: nodes {est['nodes']:.4g} vs {est['exact_nodes']} ({100 * node_error:+.1f}%), "
              f"time {est['estimated_s']:.3f} s vs {wall:.3f} s ({100 * time_error:+.1f}%)", flush=True)

    out = measure.results_dir("estimate")
    measure.write_atomically(
        out / "estimates.csv",
        "n,threads,estimated_nodes,exact_nodes,node_error,estimated_s,measured_s,time_error,"
        "calibration_n,nodes_per_s_per_thread,total\n"
        + "".join(f"{n},{e['threads']},{e['nodes']:.6g},{e['exact_nodes']},{ne:.4f},"
                  f"{e['estimated_s']:.4f},{w:.4f},{te:.4f},{e['calibration_n']},"
                  f"{e['nodes_per_s_per_thread']:.4g},{A000170[n]}\n"
                  for n, e, w, ne, te in rows))
    median_nodes = statistics.median(abs(r[3]) for r in rows)
    median_time = statistics.median(abs(r[4]) for r in rows)
    table = "\n".join(
        f"| {n} | {e['nodes']:.4g} | {e['exact_nodes']} | {100 * ne:+.1f}% | "
        f"{e['estimated_s']:.3f} | {w:.3f} | {100 * te:+.1f}% |"
        for n, e, w, ne, te in rows)
    readme = f"""# Estimator check

Measured by `scripts/estimate-check.py --from {args.first} --to {args.last}`: for each n,
`nqueens estimate N --exact --json` (Knuth's estimator, 20,000 probes, calibrated
by a short timed count on one thread; and the nodes counted exactly) against the
wall time `nqueens count N --json` reports (`elapsed_s`: planning included,
process start-up not) on the default threads. Every count
was checked against A000170.

Median error: nodes {100 * median_nodes:.1f}%, time {100 * median_time:.1f}% (target: time within 25%).

| n | estimated nodes | exact nodes | error | estimated s | measured s | error |
|---|---|---|---|---|---|---|
{table}

Raw figures: `estimates.csv`.

{measure.machine_section(info)}"""
    measure.write_atomically(out / "README.md", readme)
    print(readme)


if __name__ == "__main__":
    main()
