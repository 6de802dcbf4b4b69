#!/usr/bin/env python3
"""The plan of a frontier count (Q(28) by default) on a cluster, written
from `nqueens estimate N` and the measured cluster figures, never by hand.

From `estimate N --threads NODE_CORES --json` (this build, this CPU): the
core-hours with their band, the largest work item (no count ends sooner),
the memory one node plans for. Then, for clusters of 100 and 1,000 nodes of
NODE_CORES cores:

- **MPI**, one rank per node (`mpirun --map-by ppr:1:node:PE=64 ... count N
  --mpi --checkpoint FILE`): wall = core time / (cores x BUSY) + the
  largest item, where BUSY is the busy share the ranks kept in
  results/*-mpi-load (issue 35: 99.5 % and more at n = 20).
- **Shards**, one a node (`count N --shard I/M --threads 64 --checkpoint
  J --out F`): the join's items past n = 25 are blocks of slots drawn in a
  fixed pseudo-random order, so a shard of m slots strays from its share
  by the slots' spread over sqrt(m); the spread per slot comes from the
  sketch itself (its relative error over the slots it sketched, less the
  sketch's own error SKETCH_ERROR / 2 that estimate adds in quadrature).
  The slowest of M shards is then about 1 + E[max of M normals] x that,
  and never below the largest item.
- what it costs on rented cores, at the prices given (an assumption,
  stated; `--usd-per-core-hour`).

Writes results/<date>-<host>-plan-N/{plan.json,README.md}.

Usage: scripts/frontier-plan.py [--n 28] [--node-cores 64] [--node-memory 256]
                                [--busy 0.995] [--usd-per-core-hour 0.01 0.03]
                                [--budget S]

--budget S is estimate's: seconds of sketching (default 20); a longer
    sketch takes more slots and narrows the band.

--node-memory (GiB, default 256: 4 GiB a core) is what each node gives the
count (`--max-memory`): where it leaves room, each thread fills larger row
sets instead of searching their cells once for every key pass (n = 28, 29:
row sets of up to 2^25 placements, 1 GiB a thread).
"""

import argparse
import json
import math
import subprocess
import sys
import time

import measure

human = measure.human_duration

# Two standard errors of its own that a sketched forecast adds for the
# sketch's error against whole counts: engine::join::forecast::SKETCH_ERROR,
# which this must follow (0.40 since 9d31423; the plans of 2026-12-04 and
# -05 took 0.20 off and overstated one slot's spread).
SKETCH_ERROR = 0.40


def expected_max_of_normals(m):
    """E[max of m independent standard normals], Blom's approximation."""
    if m <= 1:
        return 0.0
    a = 0.375
    p = (m - a) / (m - 2 * a + 1)
    # The normal quantile by Acklam's rational approximation (|error| < 1e-9).
    return normal_quantile(p)


def normal_quantile(p):
    a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
         1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00]
    b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
         6.680131188771972e+01, -1.328068155288572e+01]
    c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
         -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00]
    d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
         3.754408661907416e+00]
    low = 0.02425
    if p < low:
        q = math.sqrt(-2 * math.log(p))
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / \
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    if p > 1 - low:
        return -normal_quantile(1 - p)
    q = p - 0.5
    r = q * q
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / \
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=28)
    parser.add_argument("--node-cores", type=int, default=64)
    parser.add_argument("--node-memory", type=int, default=256,
                        help="GiB one node gives the count (its --max-memory): the join fills "
                        "larger row sets where it leaves room")
    parser.add_argument("--busy", type=float, default=0.995)
    parser.add_argument("--usd-per-core-hour", type=float, nargs="+", default=[0.01, 0.03])
    parser.add_argument("--nodes", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--budget", type=int, help="estimate's --budget, seconds")
    args = parser.parse_args()
    measure.build_release()
    info = measure.machine()
    n, cores = args.n, args.node_cores
    memory_flag = f"{args.node_memory}G"
    command = [str(measure.BINARY), "estimate", str(n), "--threads", str(cores),
               "--max-memory", memory_flag, "--json"]
    if args.budget:
        command += ["--budget", str(args.budget)]
    clock = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True)
    took = time.monotonic() - clock
    if done.returncode != 0:
        sys.exit(f"error: {' '.join(command)} exited {done.returncode}: {done.stderr}")
    f = json.loads(done.stdout)
    core_s = f["one_thread_s"]
    # The band estimate gives (two standard errors) on one thread.
    low_s = core_s * f["estimated_low_s"] / f["estimated_s"]
    high_s = core_s * f["estimated_high_s"] / f["estimated_s"]
    largest = f.get("largest_item_s", 0.0)
    relative = (high_s - low_s) / (4 * core_s)
    sketched = "sampled_units" in f
    if sketched:
        units, sampled = f["units"], f["sampled_units"]
        sketch_only = math.sqrt(max(relative ** 2 - (SKETCH_ERROR / 2) ** 2, 0.0))
        spread = sketch_only * math.sqrt(sampled)
    else:
        units, sampled, spread = f["items"], f["sampled_items"], relative * math.sqrt(f["sampled_items"])

    clusters = []
    for nodes in args.nodes:
        total_cores = nodes * cores
        mpi_s = core_s / (total_cores * args.busy) + largest
        row = {"nodes": nodes, "cores": total_cores, "mpi_wall_s": mpi_s}
        shards = nodes
        m = units / shards
        sd = spread / math.sqrt(m)
        slowest = max(1 + expected_max_of_normals(shards) * sd, 1.0)
        mean_s = core_s / shards / cores
        row["shards"] = {
            "shards": shards, "slots_per_shard": m, "shard_sd": sd,
            "slowest_over_mean": max(slowest, largest / mean_s if mean_s else 1.0),
            "mean_shard_s": mean_s, "wall_s": max(slowest * mean_s, largest),
        }
        clusters.append(row)
    plan = {
        "n": n, "estimate": f, "estimate_took_s": took, "node_cores": cores,
        "node_memory_gib": args.node_memory, "busy": args.busy,
        "core_hours": core_s / 3600, "core_hours_low": low_s / 3600,
        "core_hours_high": high_s / 3600, "spread_per_unit": spread, "clusters": clusters,
        "usd_per_core_hour": args.usd_per_core_hour,
    }
    folder = measure.results_dir(f"plan-{n}")
    measure.write_atomically(folder / "plan.json", json.dumps(plan, indent=1) + "\n")

    memory = f.get("planned_bytes")
    lines = [
        f"# The plan of Q({n})",
        "",
        f"Command: `scripts/frontier-plan.py --n {n} --node-cores {cores} --busy {args.busy} "
        f"--usd-per-core-hour {' '.join(map(str, args.usd_per_core_hour))}"
        + (f" --budget {args.budget}" if args.budget else "") + "` "
        f"(`{' '.join(['nqueens'] + command[1:])}`, "
        f"{took:.0f} s; plan.json holds it).",
        "Every figure below follows from that forecast and the measured cluster figures "
        "the command line names; nothing is typed in.",
        "",
        "## The work",
        "",
        f"- **{core_s / 3600:,.0f} core-hours** of this machine's cores "
        f"({f['algorithm']}, {f.get('layout', '-')} layout, {f['simd']} pair counter), "
        f"between {low_s / 3600:,.0f} and {high_s / 3600:,.0f} (two standard errors, the "
        f"sketch's own error against whole counts included).",
        f"- Basis: {'a sketch of ' + format(sampled, ',') + ' of ' + format(units, ',') + ' slots' if sketched else 'a sample of ' + format(sampled, ',') + ' of ' + format(units, ',') + ' items'}"
        f"; one slot's time spreads by {spread:.1f}x its mean (standard deviation over mean).",
        f"- The largest work item: {human(largest)} on one thread: no count, on any number "
        f"of cores, ends sooner.",
        f"- Memory one node of {cores} threads plans for: "
        f"{'%.2f GiB' % (memory / 2**30) if memory else 'not reported'} of the "
        f"{args.node_memory} GiB it is given (the join's plan on {cores} threads: its lists "
        f"and row sets a thread, and the row sets shared).",
        "",
        f"## On a cluster of {cores}-core nodes like this machine's cores",
        "",
        "| nodes | MPI, one rank a node: wall | one shard a node: slowest / mean | "
        "one shard a node: wall |",
        "|---|---|---|---|",
    ]
    for c in clusters:
        one = c["shards"]
        lines.append(
            f"| {c['nodes']:,} | {human(c['mpi_wall_s'])} | {one['slowest_over_mean']:.3f} | "
            f"{human(one['wall_s'])} |")
    lines += [
        "",
        f"MPI: core time / (cores x {args.busy}) + the largest item ({args.busy:.3f} is the "
        "busy share every rank kept at n = 20, results/2026-12-03-vm-mpi-load). Shards: "
        "a shard of m slots strays from its share by the slots' spread over sqrt(m); the "
        "slowest of M is about 1 + E[max of M normals] x that (the cut itself, on listed "
        "boards, was measured at 1.005-1.03 for 16 shards on AVX-512, AVX2 and the portable "
        "path: results/2026-12-03-vm-costs, -costs-none, -shards-20).",
        "",
        "## Running it",
        "",
        f"- **Journaled**: every node runs `nqueens count {n} --shard I/M --threads {cores} "
        f"--checkpoint shard-I.journal --out shard-I.json` (or one MPI job with "
        f"`--checkpoint`): a killed node resumes from its journal, losing at most the items "
        "it was counting (each at most the largest item above).",
        "- **Merged**: `nqueens merge --unique shard-*.json`: the shard files are sealed, "
        "every item must be covered once, and two copies of a shard counted on different "
        "machines must agree (a copy that disagrees is named with its twin, exit 1): count "
        "every shard twice, on machines of different CPUs, and the merge checks them "
        "against each other.",
        f"- **Audited**: `nqueens audit` recounts sampled items with none of the join's code, "
        f"but only on listed boards (n up to 25) today: for n = {n} that audit is missing, "
        "and the doubled shards above are the check.",
        "",
        "## What it would cost on rented cores",
        "",
        "| USD per core-hour (assumed) | the count | doubled (every shard twice) |",
        "|---|---|---|",
    ]
    for price in args.usd_per_core_hour:
        cost = core_s / 3600 * price
        lines.append(f"| {price} | {cost:,.0f} USD | {2 * cost:,.0f} USD |")
    lines += ["", measure.machine_section(info)]
    measure.write_atomically(folder / "README.md", "\n".join(lines))
    print(f"wrote {folder}")


if __name__ == "__main__":
    main()
