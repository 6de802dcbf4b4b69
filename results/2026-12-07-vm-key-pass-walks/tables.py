#!/usr/bin/env python3
"""Tables of this folder's README from its raw files (measures nothing).

- estimate-N.stderr: `nqueens estimate N` built with walk-breakdown.diff,
  one DBG line per key-pass item sketched;
- aim-*.csv: tests/sketch_spread.rs under aim.sh, built with
  key-bits-env.diff (NQ_EXTRA=e: key passes aim at 1/(16 * 2^e) of a list,
  capped at 12 + max(e, 0) bits).
"""
import csv
import statistics
import sys
from pathlib import Path

here = Path(__file__).parent
print("## Where a key-pass item's sketched seconds go (sum over the items sketched)\n")
print("| n | items | outer walks | inner walks | row sets filled | outer tests | pairs | key bits (median) | outer halves (median) | inner halves (median) | one walk of a side, s (median) |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for n in (28, 30):
    rows = []
    for line in (here / f"estimate-{n}.stderr").read_text().splitlines():
        if line.startswith("DBG"):
            rows.append({k: float(v) for k, v in (kv.split("=") for kv in line.split()[1:])})
    parts = {
        "outer walks": sum(r["outer_walk"] for r in rows),
        "inner walks": sum(r["inner_walk"] for r in rows),
        "filled": sum(r["ofill"] + r["ifill"] for r in rows),
        "tests": sum(r["otests"] for r in rows),
        "pairs": sum(r["pairs"] for r in rows),
    }
    total = sum(parts.values())
    share = [f"{v:,.0f} s ({v / total:.0%})" for v in parts.values()]
    med = lambda k: statistics.median(r[k] for r in rows)
    print(f"| {n} | {len(rows)} | " + " | ".join(share)
          + f" | {med('bits'):.0f} | {med('outer_h'):.2e} | {med('inner_h'):.2e} | {med('iwalk1'):.3f} |")
print()
print("## Key passes aimed at other shares of a list (the sketch's one-thread seconds, paired by seed)\n")
print("| n | e (aim 1/(16*2^e)) | seed | forecast, s | against e = 0 | glue share | units |")
print("|---|---|---|---|---|---|---|")
ratios = {}
for path in sorted(here.glob("aim-*.csv")):
    rows = list(csv.DictReader(path.open()))
    base = {(r["n"], r["seed"]): float(r["seconds"]) for r in rows if r["extra"] == "0"}
    for r in rows:
        ratio = float(r["seconds"]) / base[(r["n"], r["seed"])]
        if r["extra"] != "0":
            ratios.setdefault((r["n"], r["extra"]), []).append(ratio)
        print(f"| {r['n']} | {r['extra']} | {r['seed']} | {float(r['seconds']):.3e} | {ratio:.3f} | {float(r['glue_share']):.2f} | {r['sampled']} |")
print()
print("| n | e | median against e = 0 (4 seeds) |")
print("|---|---|---|")
for (n, e), rs in sorted(ratios.items()):
    print(f"| {n} | {e} | {statistics.median(rs):.3f} |")
print()
print("## What an inner side's walk keeps (kept-probe.diff, kept-probe.txt)\n")
print("| n | upper quarters kept | lower quarters kept |")
print("|---|---|---|")
text = (here / "kept-probe.txt").read_text().splitlines()
for head, line in zip(text[0::2], text[1::2]):
    n = head.split()[1]
    words = line.split()
    up = [int(x) for x in words[words.index("uppers") + 1].split("/")]
    low = [int(x) for x in words[words.index("lowers") + 1].split("/")]
    print(f"| {n} | {up[0] / up[1]:.1%} of {up[1]:,} | {low[0] / low[1]:.1%} of {low[1]:,} |")
