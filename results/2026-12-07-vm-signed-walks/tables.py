#!/usr/bin/env python3
"""Tables of this folder's README from its raw files (measures nothing).

probe-N-seedS-MODE.stderr: tests/sketch_spread.rs (`sketch_seeds`, board N,
seed S, 20 s budget) built at 07ee528 with walk-probe.diff, MODE `signed`
(as committed) or `placed` (NQ_NOSIGN=1: every quarter placed and tested,
as before). Each real pass the sketch counts writes its inner walks
(INNERWALK), then the count's setup and passes (SIGN), then the pass
(REALPASS-END: item, value, pairs seconds). The same seed draws the same
items and passes in both builds; passes found in both are paired.
"""
import re
import statistics
from pathlib import Path

here = Path(__file__).parent


def load(path):
    passes, inner, halves, walks = {}, 0.0, 0, 0
    last = None
    for line in path.read_text().splitlines():
        m = re.match(r"INNERWALK s=([\d.]+) halves=(\d+)", line)
        if m:
            inner += float(m.group(1))
            halves += int(m.group(2))
            walks += 1
            continue
        m = re.match(r"SIGN sign=([\d.]+) passes=([\d.]+) quarters=(\d+)", line)
        if m:
            last = dict(sign=float(m.group(1)), passes=float(m.group(2)),
                        quarters=int(m.group(3)), inner=inner, halves=halves, walks=walks)
            inner, halves, walks = 0.0, 0, 0
            continue
        m = re.match(r"REALPASS-END n=(\d+) item=(.*) value=(\w+) glue=([\d.]+) pairs=([\d.]+)", line)
        if m and last:
            pairs = float(m.group(5))
            passes[(m.group(2), m.group(3))] = dict(
                last, pairs=pairs, outer=last["passes"] - pairs - last["inner"])
    return passes


print("## The count's walks, signed against placed (real passes the sketch counts, paired)\n")
print("| n | seed | passes paired | inner walks, s (signed / placed) | ratio | outer walks, s | ratio "
      "| pairs, s | ratio | halves glued equal | signatures worked out, s (mean a pass's item) "
      "| quarters signed (mean) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
totals = {}
for path in sorted(here.glob("probe-*-signed.stderr")):
    n, seed = re.match(r"probe-(\d+)-seed(\d+)-signed", path.stem).groups()
    a = load(path)
    b = load(path.with_name(path.name.replace("-signed", "-placed")))
    both = [k for k in a if k in b]
    if not both:
        continue
    s = lambda d, f: sum(d[k][f] for k in both)
    row = [f"{s(a, f):.3f} / {s(b, f):.3f} | {s(a, f) / s(b, f):.3f}" for f in ("inner", "outer", "pairs")]
    same = all(a[k]["halves"] == b[k]["halves"] for k in both)
    print(f"| {n} | {seed} | {len(both)} | " + " | ".join(row) + f" | {'yes' if same else 'NO'} "
          f"| {statistics.mean(a[k]['sign'] for k in both):.3f} "
          f"| {statistics.mean(a[k]['quarters'] for k in both):.3g} |")
    t = totals.setdefault(n, {"a": {}, "b": {}})
    for f in ("inner", "outer", "pairs"):
        t["a"][f] = t["a"].get(f, 0) + s(a, f)
        t["b"][f] = t["b"].get(f, 0) + s(b, f)
print()
print("| n | inner walks, signed / placed | outer walks | both walks | walks and pairs |")
print("|---|---|---|---|---|")
for n, t in sorted(totals.items()):
    a, b = t["a"], t["b"]
    walks = (a["inner"] + a["outer"]) / (b["inner"] + b["outer"])
    whole = sum(a.values()) / sum(b.values())
    print(f"| {n} | {a['inner'] / b['inner']:.3f} | {a['outer'] / b['outer']:.3f} | {walks:.3f} | {whole:.3f} |")
