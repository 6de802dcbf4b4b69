#!/usr/bin/env python3
"""Where the join's time goes, part by part, for each layout.

Runs the ignored test engine::join::forecast::parts (one thread): for each
board and layout (the table to n = 25, searched on every board), a sample
of SAMPLES units of the order, each pair item sketched as `estimate`
sketches it, scaled to the whole count:

- layout: laying the board out and, for the table, filling the quarter
  table once (seconds, once a process);
- glue: gluing halves from quarter cells, the cells read from the table,
  from row sets filled, or searched, included;
- pairs: counting the disjoint pairs of halves (the sieve included), and
  how many pairs of halves that compares, so the seconds per pair.

Writes results/<date>-<host>-parts/{parts.csv,README.md}.

Usage: scripts/join-parts.py [--n 20 21 22 24 26 28] [--samples 512]
       scripts/join-parts.py --from-csv results/DIR/parts.csv   (the README
       again from a recorded CSV, measuring nothing; --n and --samples
       should be the ones it was made with)
"""

import argparse
import csv
import os
import subprocess
from pathlib import Path

import measure


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[20, 21, 22, 24, 26, 28])
    parser.add_argument("--samples", type=int, default=512)
    parser.add_argument("--from-csv", type=Path)
    args = parser.parse_args()
    info = measure.machine()
    if args.from_csv:
        out = args.from_csv
        folder = out.parent
    else:
        folder = measure.results_dir("parts")
        out = folder / "parts.csv"
        env = dict(os.environ, NQUEENS_PARTS_N=" ".join(map(str, args.n)),
                   NQUEENS_PARTS_SAMPLES=str(args.samples), NQUEENS_PARTS_OUT=str(out))
        subprocess.run(
            ["cargo", "test", "--release", "--quiet", "--lib", "--", "--ignored", "--exact",
             "engine::join::forecast::parts::parts"],
            cwd=measure.ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    rows = list(csv.DictReader(out.open()))
    lines = [
        "# Where the join's time goes, part by part",
        "",
        f"Command: `scripts/join-parts.py --n {' '.join(map(str, args.n))} --samples "
        f"{args.samples}` (the ignored test engine::join::forecast::parts, one thread; "
        "parts.csv is its output).",
        "",
        "Each board and layout: a sample of units drawn one from each equal stretch of the",
        "order, each pair item sketched as `estimate` sketches it (glue and pairs done in",
        "part and timed), scaled to every unit: one-thread seconds of the whole count. Layout:",
        "laying the board out (and filling the quarter table, for the table layout), once.",
        "",
        "| n | layout | layout s | glue s | pairs s | glue share | pairs compared | ps a pair "
        "| all, s | searched / table |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    table_total = {}
    for r in rows:
        n, layout = int(r["n"]), r["layout"]
        glue, pairs_s, pairs = float(r["glue_s"]), float(r["pairs_s"]), float(r["pairs"])
        layout_s = float(r["layout_s"])
        total = layout_s + glue + pairs_s
        if layout == "table":
            table_total[n] = total
        ratio = f"{total / table_total[n]:.2f}" if layout == "searched" and n in table_total else "-"
        share = glue / (glue + pairs_s) if glue + pairs_s > 0 else 0.0
        per_pair = pairs_s / pairs * 1e12 if pairs > 0 else float("nan")
        lines.append(f"| {n} | {layout} | {layout_s:.2f} | {glue:.4g} | {pairs_s:.4g} | "
                     f"{share:.1%} | {pairs:.3g} | {per_pair:.3f} | {total:.4g} | {ratio} |")
    lines += [
        "",
        "Pairs compared: the pairs of halves the pair counter weighs (the product of the",
        "two lists' lengths over each item's runs), so picoseconds a pair is the counter's",
        "pace over the sieve and the bit-sliced blocks together.",
        "",
        measure.machine_section(info),
    ]
    measure.write_atomically(folder / "README.md", "\n".join(lines))
    print(f"wrote {folder}")


if __name__ == "__main__":
    main()
