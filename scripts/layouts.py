#!/usr/bin/env python3
"""The join's two layouts side by side on the same boards: counted, and
forecast.

- Counted (`--count`, default n = 18 20): `count N --layout table` and
  `--layout searched` on THREADS threads, in paired runs (table first in
  odd pairs, searched first in even ones): each run's wall seconds and CPU
  seconds (user + system of the process, from the OS), the median ratio
  searched / table, and each layout's `estimate N --layout L` one-thread
  seconds against the CPU seconds its counts took (issue 33 item 4:
  within +-25 %).
- Forecast (`--estimate`, default n = 20..25): `estimate N --layout L
  --json` for both layouts: one-thread seconds and their ratio, where
  the boards take too long to count here.

Writes results/<date>-<host>-layouts/{layouts.json,README.md}.

Usage: scripts/layouts.py [--count 18 20] [--estimate 20 21 22 23 24 25]
                          [--runs 3] [--threads 2]
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import time

import measure

LAYOUTS = ("table", "searched")


def counted(n, layout, threads):
    """(wall s, CPU s, JSON) of one count."""
    cmd = [str(measure.BINARY), "count", str(n), "--layout", layout,
           "--threads", str(threads), "--json"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    result = json.loads(out)
    if result.get("matches_oeis") is not True or result.get("layout") != layout:
        raise SystemExit(f"error: {' '.join(cmd)}: {out}")
    return wall, cpu, result


def estimated(n, layout, threads):
    cmd = [str(measure.BINARY), "estimate", str(n), "--layout", layout,
           "--threads", str(threads), "--json"]
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True)
    took = time.perf_counter() - start
    if out.returncode != 0:
        return {"refused": out.stderr.strip(), "took_s": took}
    result = json.loads(out.stdout)
    result["took_s"] = took
    return result


def hours(seconds):
    return f"{seconds / 3600:.3g}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, nargs="*", default=[18, 20])
    parser.add_argument("--estimate", type=int, nargs="*", default=list(range(20, 26)))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    args = parser.parse_args()
    info = measure.machine()
    folder = measure.results_dir("layouts")
    data = {"counts": {}, "estimates": {}}
    for n in args.count:
        runs = []
        for r in range(args.runs):
            order = LAYOUTS if r % 2 == 0 else LAYOUTS[::-1]
            pair = {}
            for layout in order:
                wall, cpu, _ = counted(n, layout, args.threads)
                pair[layout] = {"wall_s": wall, "cpu_s": cpu}
                print(f"count {n} --layout {layout}: {wall:.2f} s, {cpu:.2f} CPU s", flush=True)
            runs.append(pair)
        forecasts = {layout: estimated(n, layout, args.threads) for layout in LAYOUTS}
        data["counts"][n] = {"runs": runs, "estimates": forecasts}
    for n in args.estimate:
        data["estimates"][n] = {layout: estimated(n, layout, args.threads) for layout in LAYOUTS}
        print(f"estimate {n}: " + ", ".join(
            f"{layout} {hours(e['one_thread_s']) if 'one_thread_s' in e else 'refused'} core-h"
            for layout, e in data["estimates"][n].items()), flush=True)
    measure.write_atomically(folder / "layouts.json", json.dumps(data, indent=1) + "\n")

    lines = [
        "# The join's layouts side by side",
        "",
        f"Command: `scripts/layouts.py --count {' '.join(map(str, args.count))} --estimate "
        f"{' '.join(map(str, args.estimate))} --runs {args.runs} --threads {args.threads}` "
        "(layouts.json: every run and forecast).",
        "",
        "`table`: items listed and costed, quarter cells read from the table filled first",
        "(row sets past n = 23). `searched`: items drawn from their index, nothing filled first",
        "(the default past n = 25); how it finds its cells is in `nqueens count --help`.",
        "",
    ]
    if data["counts"]:
        lines += [
            f"## Counted ({args.threads} threads, {args.runs} paired runs)",
            "",
            "| n | table wall s (median) | searched wall s | searched / table (median of pairs) "
            "| table CPU s | searched CPU s | estimate / CPU, table | estimate / CPU, searched |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for n, c in data["counts"].items():
            med = {layout: statistics.median(r[layout]["wall_s"] for r in c["runs"])
                   for layout in LAYOUTS}
            cpu = {layout: statistics.median(r[layout]["cpu_s"] for r in c["runs"])
                   for layout in LAYOUTS}
            ratio = statistics.median(r["searched"]["wall_s"] / r["table"]["wall_s"]
                                      for r in c["runs"])
            honest = {layout: c["estimates"][layout].get("one_thread_s", float("nan")) / cpu[layout]
                      for layout in LAYOUTS}
            lines.append(f"| {n} | {med['table']:.2f} | {med['searched']:.2f} | {ratio:.3f} | "
                         f"{cpu['table']:.2f} | {cpu['searched']:.2f} | {honest['table']:.3f} | "
                         f"{honest['searched']:.3f} |")
        lines.append("")
    if data["estimates"]:
        lines += [
            f"## Forecast (`estimate N --layout L`, one-thread core-hours)",
            "",
            "| n | table | searched | searched / table | table's basis | searched's basis |",
            "|---|---|---|---|---|---|",
        ]
        for n, e in data["estimates"].items():
            t, s = e["table"], e["searched"]

            def basis(x):
                if "refused" in x:
                    return "refused: " + x["refused"].replace("|", "/")[:90]
                kind = "sketch" if "sampled_units" in x else "sample"
                return f"{kind} ({x['took_s']:.0f} s)"
            ratio = (f"{s['one_thread_s'] / t['one_thread_s']:.2f}"
                     if "one_thread_s" in t and "one_thread_s" in s else "-")
            lines.append(f"| {n} | {hours(t['one_thread_s']) if 'one_thread_s' in t else '-'} | "
                         f"{hours(s['one_thread_s']) if 'one_thread_s' in s else '-'} | {ratio} | "
                         f"{basis(t)} | {basis(s)} |")
        lines.append("")
    lines.append(measure.machine_section(info))
    measure.write_atomically(folder / "README.md", "\n".join(lines))
    print(f"wrote {folder}")


if __name__ == "__main__":
    main()
