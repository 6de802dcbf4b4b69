#!/usr/bin/env python3
"""Runs every shard of a count as its own process and says how even they are.

`nqueens count N --shard I/M --threads 1 --out FILE` for I = 1..M, each a
process of its own (JOBS of them at a time), ROUNDS times over, each round in
an order of its own (forward, backward, then odd shards first, ...): this
machine is shared and its speed drifts over minutes, and a shard's time is
the median of its rounds. The shard files of the first round are merged
(`nqueens merge --unique`) and checked against OEIS.

Writes results/<date>-<host>-shards-N/{shards.csv,README.md}: per shard and
round the process's wall seconds; the slowest shard over the mean, per round
and of the medians (issue 17's target: at most 1.08 for 16 shards of n = 20).

Usage: scripts/shard-balance.py [--n 20] [--shards 16] [--rounds 3] [--jobs 2]
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import measure


def run_shard(n, index, shards, out):
    cmd = [str(measure.BINARY), "count", str(n), "--shard", f"{index}/{shards}",
           "--threads", "1", "--out", str(out), "--json"]
    start = time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=True)
    return time.perf_counter() - start


def round_order(shards, round_index):
    """Round 0 forward, 1 backward, then interleaved by a stride."""
    order = list(range(1, shards + 1))
    if round_index % 2 == 1:
        order.reverse()
    if round_index >= 2:
        order = order[round_index % 2::2] + order[1 - round_index % 2::2]
    return order


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--shards", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    info = measure.machine()
    folder = measure.results_dir(f"shards-{args.n}")
    times = {i: [] for i in range(1, args.shards + 1)}
    with tempfile.TemporaryDirectory() as tmp:
        first = []
        for r in range(args.rounds):
            outs = {i: Path(tmp) / f"round{r}-shard{i}.json" for i in times}
            order = round_order(args.shards, r)
            with ThreadPoolExecutor(max_workers=args.jobs) as pool:
                walls = dict(zip(order, pool.map(
                    lambda i: run_shard(args.n, i, args.shards, outs[i]), order)))
            for i, wall in walls.items():
                times[i].append(wall)
            mean = statistics.mean(walls.values())
            print(f"round {r + 1}: slowest/mean {max(walls.values()) / mean:.3f}, "
                  f"mean {mean:.2f} s", flush=True)
            if r == 0:
                first = [str(outs[i]) for i in sorted(outs)]
                merged = subprocess.run(
                    [str(measure.BINARY), "merge", "--unique", "--json", *first],
                    capture_output=True, text=True, check=True)
                result = json.loads(merged.stdout)
                if result.get("matches_oeis") is not True or result.get("matches_oeis_unique") is not True:
                    sys.exit(f"error: the merged shards do not match OEIS: {merged.stdout}")
                total, unique = result["total"], result["unique"]
    medians = {i: statistics.median(t) for i, t in times.items()}
    mean = statistics.mean(medians.values())
    per_round = [max(t[r] for t in times.values()) / statistics.mean(t[r] for t in times.values())
                 for r in range(args.rounds)]
    slowest = max(medians, key=medians.get)
    rows = ["shard," + ",".join(f"round{r + 1}_s" for r in range(args.rounds)) + ",median_s"]
    rows += [f"{i}," + ",".join(f"{t:.3f}" for t in times[i]) + f",{medians[i]:.3f}"
             for i in sorted(times)]
    measure.write_atomically(folder / "shards.csv", "\n".join(rows) + "\n")
    summary = (
        f"{args.shards} shards of n = {args.n}, each `count {args.n} --shard I/{args.shards} "
        f"--threads 1` as its own process, {args.jobs} at a time, {args.rounds} rounds: "
        f"slowest/mean of the per-shard medians {max(medians.values()) / mean:.3f} "
        f"(shard {slowest}, {medians[slowest]:.2f} s against a mean of {mean:.2f} s); "
        f"per round " + ", ".join(f"{x:.3f}" for x in per_round) + ". "
        f"Merged (round 1): total {total}, unique {unique}, both matching OEIS."
    )
    print(summary)
    readme = (
        f"# Shard balance, n = {args.n}\n\n"
        f"Command: `scripts/shard-balance.py --n {args.n} --shards {args.shards} "
        f"--rounds {args.rounds} --jobs {args.jobs}`\n\n{summary}\n\n"
        "shards.csv: each shard's process wall seconds per round (whole "
        "process: the layout, its items, writing its file) and their median. "
        "Rounds visit the shards in different orders so that the machine's "
        "drift does not fall on the same shards.\n\n"
        + measure.machine_section(info)
    )
    measure.write_atomically(folder / "README.md", readme)
    print(f"wrote {folder}")


if __name__ == "__main__":
    main()
