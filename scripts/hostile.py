#!/usr/bin/env python3
"""A hostile run over every command: edited, truncated, swapped, duplicated
and special files, killed and resumed runs, bad flags over n = -1..33.

It makes genuine journals and shard files with the release binary, spoils
them in every way a long run meets (and a few only a forger would), hands
each to the commands that read it, and classifies what came back:

  ok        exit 0, and every total it printed is A000170's (merge, count)
  refused   exit 1 or 2 with one `error:` line on stderr, nothing on stdout
            (a report then exit 1 is allowed where the total differs from
            OEIS: the report shows it), and the file it was given left as
            it was
  BAD       anything else: a wrong total, a panic or abort, a run over the
            time limit (a read that blocks or never ends), a peak over the
            memory limit, several errors, or a refused run that changed
            its journal

Writes results/<date>-<host>-hostile/{README.md,outcomes.csv}: the corpus
size per kind and command, the outcomes, and every BAD case in full.
Exit status 1 if any case is BAD.

Usage: scripts/hostile.py [--seed S] [--cases K]   (standard library only)
"""

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import tempfile
import time
import zlib
from collections import Counter
from pathlib import Path

import measure

A000170 = {
    1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680,
    12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512, 17: 95815104,
}
TIME_LIMIT_S = 20
MEMORY_LIMIT_KIB = 200 * 1024
BINARY = str(measure.BINARY)


def run(args, touched=None):
    """Runs the binary with args under GNU time; returns (status, stdout,
    stderr, wall seconds, peak KiB, whether `touched` changed)."""
    before = Path(touched).read_bytes() if touched and Path(touched).is_file() else None
    with tempfile.NamedTemporaryFile("r") as report:
        start = time.perf_counter()
        try:
            done = subprocess.run(
                ["/usr/bin/time", "-f", "%M", "-o", report.name, BINARY, *args],
                capture_output=True, timeout=TIME_LIMIT_S, stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired:
            return None, "", "", time.perf_counter() - start, 0, False
        wall = time.perf_counter() - start
        text = report.read().split()
        peak = int(text[-1]) if text and text[-1].isdigit() else 0
    after = Path(touched).read_bytes() if touched and Path(touched).is_file() else None
    return (done.returncode, done.stdout.decode(errors="replace"),
            done.stderr.decode(errors="replace"), wall, peak, before != after)


def classify(args, n, status, out, err, wall, peak, changed, journal=False):
    """ok, refused, or BAD: why."""
    if status is None:
        return f"BAD: over {TIME_LIMIT_S} s (blocked or read for ever)"
    if peak > MEMORY_LIMIT_KIB:
        return f"BAD: peak {peak // 1024} MiB"
    if status not in (0, 1, 2) or "panicked" in err:
        return f"BAD: exit {status}: {err.strip()[:200]}"
    if status == 0:
        for total in totals(out):
            if n is not None and n in A000170 and total != A000170[n]:
                return f"BAD: total {total} for n = {n}"
        return "ok"
    if err.count("error:") != 1:
        return f"BAD: {err.count('error:')} errors: {err.strip()[:200]}"
    if out and not (status == 1 and "differs from OEIS" in err):
        return "BAD: a refusal printed on stdout"
    if journal and changed:
        return "BAD: a refused count changed its journal"
    return "refused"


def totals(out):
    """The totals a command printed: JSON lines' `total`, or text's first
    line `N solutions for n = M`."""
    found = []
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if isinstance(value, dict) and value.get("kind") is None and "total" in value:
                found.append(int(value["total"]))
        elif " solutions for n = " in line or " solution for n = " in line:
            found.append(int(line.split()[0]))
    return found


def line(value):
    body = json.dumps(value, separators=(",", ":"))
    return f"{body} {zlib.crc32(body.encode()):08x}\n"


def journal_mutations(text, rng, cases):
    """Spoilt copies of a journal's text: (kind, text)."""
    lines = text.splitlines(keepends=True)
    out = []
    for _ in range(cases):
        cut = rng.randrange(len(text) + 1)
        out.append(("truncated", text[:cut]))
        data = bytearray(text.encode())
        at = rng.randrange(len(data))
        data[at] ^= 1 << rng.randrange(8)
        out.append(("bit flipped", data.decode(errors="replace")))
    if len(lines) > 3:
        out.append(("record duplicated", "".join(lines + lines[2:3])))
        swapped = lines[:2] + [lines[3], lines[2]] + lines[4:]
        out.append(("records swapped", "".join(swapped)))
        out.append(("record removed", "".join(lines[:2] + lines[3:])))
    out.append(("CR LF", text.replace("\n", "\r\n")))
    out.append(("empty", ""))
    out.append(("header prefix", text[: rng.randrange(1, len(lines[0]) + len(lines[1]))]))
    out.append(("garbage appended", text + "\x00" * 5000))
    header = json.loads(lines[1].rsplit(" ", 1)[0])
    forged_headers = [
        ("fingerprint", "n", 25), ("fingerprint", "n", 33), ("fingerprint", "depth", 0),
        ("fingerprint", "format", 99), ("fingerprint", "engine", "join"),
        (None, "total_items", 1 << 40), (None, "items", [0, 1 << 40]), (None, "items", [5, 2]),
    ]
    for parent, field, value in forged_headers:
        forged = json.loads(json.dumps(header))
        (forged[parent] if parent else forged)[field] = value
        out.append((f"header {field} forged", lines[0] + line(forged) + "".join(lines[2:])))
    for field, value in [("items", [0, 1 << 40]), ("wall_s", -1), ("items", [3, 3])]:
        if len(lines) > 2:
            record = json.loads(lines[2].rsplit(" ", 1)[0])
            record[field] = value
            out.append((f"record {field} forged", "".join(lines[:2]) + line(record) + "".join(lines[3:])))
    if len(lines) > 2:
        record = json.loads(lines[2].rsplit(" ", 1)[0])
        record["tally"].pop("fixed", None)
        record["tally"]["weighted"] = 2 ** 127
        out.append(("record tally forged", "".join(lines[:2]) + line(record) + line(record)))
    return out


def shard_mutations(text, rng, cases):
    """Spoilt copies of a shard file's text, sealed or not: (kind, text)."""
    out = []
    for _ in range(cases):
        out.append(("truncated", text[: rng.randrange(len(text))]))
        data = bytearray(text.encode())
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        out.append(("bit flipped", data.decode(errors="replace")))
    original = json.loads(text)
    edits = [
        ("total", str(int(original["total"]) + 8)), ("items", [0, original["total_items"]]),
        ("total_items", original["total_items"] + 1), ("shard", [2, 1]), ("elapsed_s", -1.0),
        ("format", 1), ("kind", "nqueens-journal"), ("cpu", "\x1b[31mred\nline"),
    ]
    for field, value in edits:
        edited = json.loads(text)
        edited[field] = value
        out.append((f"{field} edited", json.dumps(edited, indent=2)))
    return out


def genuine_files(dir, rng):
    """Genuine journals (complete and killed) and shard sets; returns
    (journals: [(n, path, count args)], shard sets: [(n, [paths])])."""
    journals, shard_sets = [], []
    for n, flags in [(10, ["--algo", "parallel", "--depth", "4"]), (12, ["--algo", "join"]),
                     (13, ["--algo", "parallel", "--symmetry", "mirror"])]:
        path = dir / f"n{n}.journal"
        subprocess.run([BINARY, "count", str(n), *flags, "--checkpoint", str(path), "--json"],
                       check=True, capture_output=True)
        journals.append((n, path, flags))
    # A killed count: its journal holds some records.
    path = dir / "n16-killed.journal"
    child = subprocess.Popen([BINARY, "count", "16", "--algo", "parallel", "--threads", "1",
                              "--checkpoint", str(path)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline and (not path.exists() or path.read_text().count("\n") < 4):
        time.sleep(0.02)
    child.send_signal(signal.SIGKILL)
    child.wait()
    journals.append((16, path, ["--algo", "parallel", "--threads", "1"]))
    for n, algo, cuts in [(8, "parallel", (1, 2, 8, 32)), (10, "join", (1, 3, 7))]:
        for m in cuts:
            names = []
            for i in range(1, m + 1):
                name = dir / f"n{n}-{algo}-{i}-of-{m}.json"
                subprocess.run([BINARY, "count", str(n), "--algo", algo, "--shard", f"{i}/{m}",
                                "--out", str(name)], check=True, capture_output=True)
                names.append(name)
            shard_sets.append((n, names))
    return journals, shard_sets


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--cases", type=int, default=20, help="random cuts and flips per file")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    # A rating saved to a place that takes it runs: in 2 s, not a minute.
    os.environ["NQUEENS_RATE_WINDOW_MS"] = "20"
    measure.build_release()
    info = measure.machine()
    started = time.perf_counter()
    rows = []

    def record(kind, command, n, result, journal=False, file=None):
        status, out, err, wall, peak, changed = result
        verdict = classify(command, n, status, out, err, wall, peak, changed, journal)
        rows.append((kind, command[0], n, status, f"{wall:.3f}", peak, verdict,
                     " ".join(map(str, command)), file or ""))

    with tempfile.TemporaryDirectory() as tmp:
        dir = Path(tmp)
        journals, shard_sets = genuine_files(dir, rng)
        spoilt = dir / "spoilt"
        spoilt.mkdir()
        # Journals, spoilt: status, and the count that would resume them.
        for n, path, flags in journals:
            for i, (kind, text) in enumerate(journal_mutations(path.read_text(), rng, args.cases)):
                copy = spoilt / f"{path.stem}-{i}.journal"
                copy.write_bytes(text.encode(errors="replace"))
                record(f"journal {kind}", ["status", str(copy)], None, run(["status", str(copy)]))
                command = ["count", str(n), *flags, "--checkpoint", str(copy), "--json"]
                record(f"journal {kind}", command, n, run(command, touched=copy), journal=True,
                       file=copy.name)
        # Killed and resumed, on another thread count: the same total.
        for n, path, flags in journals:
            copy = spoilt / f"{path.stem}-resumed.journal"
            shutil.copy(path, copy)
            flags = " ".join(flags).replace("--threads 1", "").split()
            command = ["count", str(n), *flags, "--threads", "2", "--checkpoint", str(copy),
                       "--json"]
            record("journal resumed", command, n, run(command))
        # Shard sets: whole, spoilt, mixed across cuts, duplicated, swapped.
        for n, names in shard_sets:
            record("shards whole", ["merge", *map(str, names), "--json"], n,
                   run(["merge", *map(str, names), "--json"]))
            record("shards duplicated", ["merge", *map(str, names + names[:1]), "--json"], n,
                   run(["merge", *map(str, names + names[:1]), "--json"]))
            if len(names) > 1:
                record("shard missing", ["merge", *map(str, names[1:])], n,
                       run(["merge", *map(str, names[1:])]))
            for i, (kind, text) in enumerate(shard_mutations(names[0].read_text(), rng, args.cases)):
                copy = spoilt / f"{names[0].stem}-{i}.json"
                copy.write_text(text)
                command = ["merge", str(copy), *map(str, names[1:]), "--json"]
                record(f"shard {kind}", command, n, run(command))
                record(f"shard {kind}", ["status", str(copy)], None, run(["status", str(copy)]))
        by_n = {}
        for n, names in shard_sets:
            by_n.setdefault(n, []).extend(names)
        for n, names in by_n.items():
            for _ in range(args.cases * 2):
                pick = rng.sample(names, rng.randrange(1, len(names) + 1))
                record("shards of mixed cuts", ["merge", *map(str, pick), "--json"], n,
                       run(["merge", *map(str, pick), "--json"]))
        # Special files, wherever a file is read or written.
        fifo = dir / "fifo"
        os.mkfifo(fifo)
        link_loop = dir / "loop"
        os.symlink(link_loop, link_loop)
        for special in ["/dev/zero", "/dev/null", str(fifo), str(dir), str(link_loop),
                        str(dir / "missing"), str(dir / "missing" / "x")]:
            for command in (["status", special], ["merge", special], ["rate", "--compare", special],
                            ["count", "10", "--checkpoint", special],
                            ["count", "10", "--shard", "1/2", "--out", special],
                            ["rate", "--save", special, "--threads", "1"]):
                result = run(command)
                record("special file", command, 10 if command[0] == "count" else None, result)
        # Bad flags over n = -1..33, every subcommand.
        bad = [["--depth", "0"], ["--depth", "99"], ["--threads", "0"], ["--threads", "5000"],
               ["--shard", "3/2", "--out", str(dir / "s.json")], ["--shard", "1/0", "--out", "x"],
               ["--max-memory", "1K"], ["--max-memory", "-5G"], ["--simd", "sse9"],
               ["--algo", "magic"], ["--symmetry", "half"], ["--depth", "4", "--algo", "join"],
               ["--unique", "--shard", "1/2", "--out", str(dir / "u.json")], ["--out", "x"]]
        for n in range(-1, 34):
            # A split as deep as the board: counted, or refused at once.
            deep = [["--depth", str(max(n, 1)), "--threads", "1"]]
            for flags in rng.sample(bad, 3) + deep:
                command = ["count", str(n), *flags]
                record("bad flags", command, n if 1 <= n <= 17 else None, run(command))
            for command in (["estimate", str(n), "--algo", "set", "--threads", "0"],
                            ["solve", str(n), "--limit", "0"], ["verify", "--max", str(n + 34)],
                            ["audit", str(n), "--items", "0"]):
                record("bad flags", command, None, run(command))

    elapsed = time.perf_counter() - started
    bad_rows = [r for r in rows if r[6].startswith("BAD")]
    out = measure.results_dir("hostile-corpus")
    header = "kind,command,n,exit,wall_s,peak_kib,outcome,args,file\n"
    measure.write_atomically(out / "outcomes.csv", header + "".join(
        ",".join(f'"{str(v).replace(chr(34), chr(39))}"' for v in row) + "\n" for row in rows))
    kinds = Counter((r[0], r[1]) for r in rows)
    outcomes = Counter((r[1], r[6].split(":")[0]) for r in rows)
    slowest = max((float(r[4]), r[7]) for r in rows if not r[6].startswith("ok"))
    table = "\n".join(f"| {cmd} | {outcome} | {k} |" for (cmd, outcome), k in sorted(outcomes.items()))
    kind_table = "\n".join(f"| {kind} | {cmd} | {k} |" for (kind, cmd), k in sorted(kinds.items()))
    readme = f"""# A hostile run over every command

`scripts/hostile.py --seed {args.seed} --cases {args.cases}`: {len(rows)} cases in
{elapsed:.0f} s. Genuine journals (n = 10, 12 join, 13 mirror, and n = 16
killed while counting) and shard sets (n = 8 in 1, 2, 8 and 32 shards; n = 10
join in 1, 3 and 7), spoilt in every way below; special files where a file
is read or written; bad flags for n = -1..33 on every subcommand. A case is
BAD on a wrong total, a panic or abort, a run over {TIME_LIMIT_S} s, a peak
over {MEMORY_LIMIT_KIB // 1024} MiB, more than one error line, output on stdout with a
refusal, or a refused count that changed its journal.

**{len(bad_rows)} BAD of {len(rows)}.** The slowest refusal: {slowest[0]:.2f} s (`{slowest[1]}`).

| command | outcome | cases |
|---|---|---|
{table}

The corpus, by kind of file or input and command:

| kind | command | cases |
|---|---|---|
{kind_table}

Every case, with its exit status, time and peak memory: `outcomes.csv`.
{"".join(chr(10) + "- BAD: `" + r[7] + "`: " + r[6] for r in bad_rows)}

{measure.machine_section(info)}"""
    measure.write_atomically(out / "README.md", readme)
    print(readme)
    raise SystemExit(1 if bad_rows else 0)


if __name__ == "__main__":
    main()
