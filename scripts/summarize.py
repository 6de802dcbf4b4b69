#!/usr/bin/env python3
"""Writes results/README.md from the result folders: a table of the latest
figures and the plots, every number read from the files the runs wrote
(never typed by hand).

Usage: scripts/summarize.py
"""

import csv
import json
import statistics
from pathlib import Path

import measure

RESULTS = measure.ROOT / "results"


def targets_rows(folder):
    """(comparison, median ratio or peak, goal) from a targets.py folder."""
    rows = []
    goals = {}
    for line in (folder / "README.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`"):
            goals[cells[0].strip("`")] = cells[2]
    pairs = {}
    with open(folder / "pairs.csv") as f:
        for row in csv.DictReader(f):
            pairs.setdefault(row["comparison"], []).append(float(row["ratio_a_over_b"]))
    for label, ratios in pairs.items():
        goal = goals.get(label, "")
        rows.append((f"`{label}`", f"{statistics.median(ratios):.3f} (median of {len(ratios)} pairs)", goal))
    memory = folder / "memory.csv"
    if memory.exists():
        with open(memory) as f:
            for row in csv.DictReader(f):
                label = f"peak RSS `{row['command']}`"
                goal = goals.get(f"peak RSS {row['command']}", "< 20 MiB")
                figure = f"{int(row['peak_rss_kib']) / 1024:.1f} MiB"
                if row.get("exit_status", "0") != "0":
                    figure += f", exit status {row['exit_status']} after {float(row['wall_s']):.1f} s"
                rows.append((label, figure, goal))
    return rows


def sweep_rows(folder):
    """Headline figures of an `nqueens bench` folder."""
    data = json.loads((folder / "sweep.json").read_text())
    rows = []
    for r in data["rows"]:
        threads = r["threads"]
        depth = "" if r["depth_requested"] is None else f", depth {r['depth_requested']}"
        what = f"`{r['algorithm']}` n = {r['n']}, {threads} thread{'s' if threads > 1 else ''}{depth}"
        figures = f"{r['wall_s']:.4f} s"
        if r["speedup"] is not None and threads > 1:
            figures += f", speedup {r['speedup']:.2f}, efficiency {100 * r['efficiency']:.1f}%"
        rows.append((what, figures, f"total {r['total']}"))
    return data["machine"], data["command"], rows


def main():
    # Targets first (the headline figures), then OEIS runs, then sweeps.
    def kind(folder):
        if (folder / "pairs.csv").exists():
            return 0
        if (folder / "verify.txt").exists() or (folder / "estimates.csv").exists():
            return 1
        return 2

    folders = sorted((p for p in RESULTS.iterdir() if p.is_dir()), key=lambda p: (kind(p), p.name))
    out = [
        "# Results",
        "",
        "Every folder is one measured run, with its machine, command and git",
        "revision in its own README. This page is generated from those files by",
        "`scripts/summarize.py`; no number here is typed by hand. Timings from",
        "this 2-core development machine are noisy: comparisons are paired runs",
        "within one invocation (median ratio), never times from different runs.",
        "",
    ]
    for folder in folders:
        name = folder.name
        if (folder / "pairs.csv").exists():
            out += [f"## {name}", "", f"Targets measured by `scripts/targets.py` ([details]({name}/README.md)).", ""]
            out += ["| comparison (a / b) | measured | goal |", "|---|---|---|"]
            out += [f"| {a} | {b} | {c} |" for a, b, c in targets_rows(folder)]
            out.append("")
        elif (folder / "sweep.json").exists():
            machine, command, rows = sweep_rows(folder)
            out += [
                f"## {name}",
                "",
                f"`{command}` on {machine['cpu_model']} ({machine['physical_cores']} cores / "
                f"{machine['logical_cores']} threads), git {machine['git_revision']} "
                f"([details]({name}/README.md), [CSV]({name}/sweep.csv)).",
                "",
                "| point | median wall time | check |",
                "|---|---|---|",
            ]
            out += [f"| {a} | {b} | {c} |" for a, b, c in rows]
            out.append("")
            for svg in ["speedup.svg", "time_vs_n.svg", "efficiency_vs_depth.svg"]:
                if (folder / svg).exists():
                    out += [f"![{svg}]({name}/{svg})", ""]
        elif (folder / "estimates.csv").exists():
            median = next(line for line in (folder / "README.md").read_text().splitlines()
                          if line.startswith("Median"))
            what = ("`nqueens estimate --algo join` against measured times"
                    if name.endswith("-join") else
                    "`nqueens estimate` against exact nodes and measured times")
            out += [f"## {name}", "", f"{what}: {median} ([table]({name}/README.md)).", ""]
        elif (folder / "verify.txt").exists():
            last = (folder / "verify.txt").read_text().strip().splitlines()[-1]
            out += [f"## {name}", "", f"`nqueens verify --unique`: {last} ([table]({name}/README.md)).", ""]
    measure.write_atomically(RESULTS / "README.md", "\n".join(out))
    print(f"wrote {RESULTS / 'README.md'}")


if __name__ == "__main__":
    main()
