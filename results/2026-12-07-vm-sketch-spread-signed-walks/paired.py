#!/usr/bin/env python3
"""Per-seed ratios of this folder's runs.csv (here / base): the README's
paired table (measures nothing)."""
import csv
import statistics
from pathlib import Path

rows = list(csv.DictReader(open(Path(__file__).parent / "runs.csv")))
print("| n | seed | here / base | units here, base | glue share here, base |")
print("|---|---|---|---|---|")
for n in sorted({r["n"] for r in rows}, key=int):
    ratios = []
    for seed in sorted({r["seed"] for r in rows if r["n"] == n}, key=int):
        run = {r["build"]: r for r in rows if r["n"] == n and r["seed"] == seed}
        ratio = float(run["here"]["seconds"]) / float(run["base"]["seconds"])
        ratios.append(ratio)
        print(f"| {n} | {seed} | {ratio:.3f} | {run['here']['sampled']}, {run['base']['sampled']} "
              f"| {float(run['here']['glue_share']):.2f}, {float(run['base']['glue_share']):.2f} |")
    print(f"| {n} | median | {statistics.median(ratios):.3f} | | |")
