#!/usr/bin/env python3
"""How far the join's cost model (src/engine/join/order/cost.rs, fitted on
n <= 20) drifts from measured item times as n grows: for each CSV of item
times (engine::join::order::fit::item_times; all items, or every k-th with
NQUEENS_FIT_STRIDE=k), the pair items' summed time against their summed
model cost (reference seconds), and the power law log t = c + a log(glue+1)
+ b log(pairs+1) fitted on all of them and on the tenth with most pairs
(where an item's time goes: the model's exponents were fitted where small
items' overheads weigh). Pure Python (no numpy).

Usage: scripts/model-drift.py N=FILE [N=FILE ...]   (FILE may be .xz)
"""

import csv
import lzma
import math
import sys


def solve(rows, ys):
    """Least squares for y = x . beta (3 unknowns), by the normal equations."""
    k = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(k)] + [sum(r[i] * y for r, y in zip(rows, ys))]
         for i in range(k)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(k):
            if r != col:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [a[i][k] / a[i][i] for i in range(k)]


def power(items):
    rows = [(1.0, math.log(g + 1), math.log(p + 1)) for g, p, t, c in items]
    return solve(rows, [math.log(t) for g, p, t, c in items])


def main():
    for arg in sys.argv[1:]:
        n, path = arg.split("=", 1)
        opener = lzma.open if path.endswith(".xz") else open
        with opener(path, "rt") as f:
            items = [(float(r["glue"]), float(r["pairs"]), float(r["seconds"]), float(r["cost"]))
                     for r in csv.DictReader(f) if r["kind"] == "pair" and float(r["seconds"]) > 0]
        time = sum(t for g, p, t, c in items)
        model = sum(c for g, p, t, c in items) * 1e-9
        _, a, b = power(items)
        top = sorted(items, key=lambda i: i[1])[-max(len(items) // 10, 3):]
        _, ta, tb = power(top)
        share = sum(t for g, p, t, c in top) / time
        print(f"n = {n}: {len(items)} pair items, {time:.1f} s measured, model {model:.1f} "
              f"reference s, measured/model {time / model:.3f}; fitted a (glue) {a:.3f}, "
              f"b (pairs) {b:.3f}; on the tenth with most pairs ({share:.0%} of the time) "
              f"a {ta:.3f}, b {tb:.3f}")


if __name__ == "__main__":
    main()
