#!/usr/bin/env python3
"""Where an MPI count's time goes: each rank's busy share, its idle time
waiting on rank 0, its CPU time, the round trips and the tail.

Runs `count N --mpi --json` under mpirun in a few launches (`-np 2` with
mpirun's default binding and with `--bind-to none`, `-np 3`), beside a
plain `count N` on the same threads, for each N, ROUNDS times (launches in
a rotating order: the machine's speed drifts). Every figure comes from the
count's own JSON (`mpi`: what each rank reported to rank 0) and the wall
clock around the command.

Writes results/<date>-<host>-mpi-load/{runs.json,README.md}: per launch the
median wall time over the plain count's, and per rank of its median run:
threads, items, batches, busy share (thread-seconds counting over threads
times the wall time), seconds holding no batch, CPU seconds; the round
trips (and a second), rank 0's MPI thread's CPU, the tail.

Builds the release binary with --features mpi (OpenMPI and libclang needed:
Debian's libopenmpi-dev openmpi-bin libclang-dev).

Usage: scripts/mpi-load.py [--n 18 20] [--rounds 3] [--threads T]
       scripts/mpi-load.py --from-json results/DIR/runs.json   (the README
       again from recorded runs, measuring nothing)
"""

import argparse
import json
import os
import statistics
import subprocess
import time
from pathlib import Path

import measure

MPIRUN = ["mpirun", "--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])


def launches(threads):
    """(name, command prefix, threads a rank) for each launch measured."""
    return [
        (f"count --threads {threads}", [], threads),
        ("mpirun -np 2", MPIRUN + ["-np", "2"], threads),
        ("mpirun --bind-to none -np 2", MPIRUN + ["--bind-to", "none", "-np", "2"], threads),
        ("mpirun --bind-to none -np 3", MPIRUN + ["--bind-to", "none", "-np", "3"], 1),
    ]


def run(prefix, n, threads):
    mpi = ["--mpi"] if prefix else []
    cmd = prefix + [str(measure.BINARY), "count", str(n), "--threads", str(threads), "--json", *mpi]
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    result = json.loads(out.stdout)
    if result.get("matches_oeis") is not True:
        raise SystemExit(f"error: {' '.join(cmd)} does not match OEIS: {out.stdout}")
    # The command as a reader would type it: mpirun's own flags beside
    # the launch's name, the binary by name.
    shown = ["nqueens"] + cmd[len(prefix) + 1:]
    return {"wall_s": wall, "result": result, "command": " ".join(shown)}


def rank_rows(load):
    rows = []
    for r in load["ranks"]:
        cpu = "-" if r["cpu_s"] is None else f"{r['cpu_s']:.2f}"
        rows.append(f"| {r['rank']} | {r['threads']} | {r['items']} | {r['batches']} | "
                    f"{100 * r['busy_share']:.1f}% | {r['starved_s']:.3f} | {cpu} | "
                    f"{r['finished_s']:.2f} |")
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[18, 20])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--from-json", type=Path)
    args = parser.parse_args()
    if args.from_json:
        folder = args.from_json.parent
        recorded = json.loads(args.from_json.read_text())
        runs, info = recorded["runs"], recorded["machine"]
        args = argparse.Namespace(**recorded["args"])
    else:
        measure.build_release("mpi")
        info = measure.machine()
        folder = measure.results_dir("mpi-load")
        runs = {}
        for n in args.n:
            plan = launches(args.threads)
            runs[n] = {name: [] for name, _, _ in plan}
            for r in range(args.rounds):
                order = plan[r % len(plan):] + plan[:r % len(plan)]
                for name, prefix, threads in order:
                    one = run(prefix, n, threads)
                    runs[n][name].append(one)
                    print(f"n = {n} round {r + 1}: {name}: {one['wall_s']:.2f} s", flush=True)
        recorded = {"args": vars(args), "machine": info, "runs": runs}
        measure.write_atomically(folder / "runs.json", json.dumps(recorded, indent=1) + "\n")

    lines = [
        "# Where an MPI count's time goes",
        "",
        f"Command: `scripts/mpi-load.py --n {' '.join(map(str, args.n))} --rounds {args.rounds}"
        f" --threads {args.threads}` (runs.json: every run's JSON and wall time).",
        "",
        "Each launch's median wall time over the plain count's (same rounds); per",
        "rank, from its median run: busy = thread-seconds counting items over",
        "threads x rank 0's wall time; starved = seconds the rank held no batch",
        "while it waited for rank 0; CPU = the rank's process, user + system;",
        "finished = when its last results reached rank 0. Tail = last finished",
        "minus first. Round trips: results messages rank 0 answered.",
        "",
    ]
    for n, by_launch in runs.items():
        plain_name = launches(args.threads)[0][0]
        plain = statistics.median(one["wall_s"] for one in by_launch[plain_name])
        lines += [f"## n = {n}", "",
                  f"`{plain_name}`: median {plain:.2f} s.", ""]
        for name, ones in by_launch.items():
            if name == plain_name:
                continue
            walls = [one["wall_s"] for one in ones]
            median = sorted(ones, key=lambda one: one["wall_s"])[len(ones) // 2]
            load = median["result"]["mpi"]
            coordinator = load["coordinator_cpu_s"]
            launch = name.replace("mpirun", "mpirun" + "".join(
                f" {f}" for f in MPIRUN[1:] if f != "--allow-run-as-root"), 1)
            lines += [
                f"### `{launch} {median['command']}`",
                "",
                f"Median {statistics.median(walls):.2f} s = "
                f"{statistics.median(walls) / plain:.3f}x the plain count "
                f"(runs: {', '.join(f'{w:.2f}' for w in walls)}). Median run: "
                f"{load['round_trips']} round trips "
                f"({load['round_trips'] / max(load['wall_s'], 1e-9):.1f} a second), "
                f"tail {load['tail_s']:.3f} s, rank 0's MPI thread "
                f"{'-' if coordinator is None else f'{coordinator:.3f}'} s of CPU in "
                f"{load['wall_s']:.2f} s.",
                "",
                "| rank | threads | items | batches | busy | starved s | CPU s | finished s |",
                "|---|---|---|---|---|---|---|---|",
                *rank_rows(load),
                "",
            ]
    lines.append(measure.machine_section(info))
    measure.write_atomically(folder / "README.md", "\n".join(lines))
    print(f"wrote {folder}")


if __name__ == "__main__":
    main()
