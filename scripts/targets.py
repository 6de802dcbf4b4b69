#!/usr/bin/env python3
"""The engine's speed and memory targets, measured side by side.

Suites (each writes results/<date>-<host>-<suite>/{pairs.csv,memory.csv,README.md}):

core      `count 16 --threads 1 --symmetry mirror` against the C yardstick
          refcount.c (gcc -O3 -march=native), target <= 1.0; `count 17` on 2
          threads against 1, target >= 1.9; peak RSS of `count 18` and of
          `solve 14`, target < 20 MiB each.
symmetry  `count 16` and `count 17` on one thread (full symmetry, the
          default) against refcount.c, target <= 0.40; `count 17` on 2 threads
          against 1, target >= 1.9; `count 16 --unique` against `count 16`,
          target <= 1.10; `count 16` under each symmetry mode, and with the
          scalar kernel (--simd none), against refcount.c.

layers    the layered engine (work items, bounded planning): `count 16
          --threads 1` against refcount.c, target <= 0.30; `count 17` on 2
          threads against 1, target >= 1.9; with --baseline, the same two
          commands against an older binary (no regression: about 1.0); peak
          RSS of `count 16 --depth 7` (< 200 MiB), of the first 10 s of
          `count 22` and `count 32` (< 100 MiB, still counting), and of the
          refusals of `count 20 --depth 9`, `count 24 --depth 14` and
          `count 32 --depth 16` (exit status 2).

join      the join engine (issue 11): `count N --algo join --threads 1`
          against `count N --algo parallel --threads 1` at n = 16, 17, 18
          (targets <= 0.20, 0.20, 0.10); the join on 2 threads against 1 at
          n = 18 and 19 (>= 1.9); peak RSS of the join at n = 18
          (< 256 MiB) and n = 20 (< 1 GiB, minutes on 2 cores).

crossover where the join overtakes backtracking: both on one thread for
          n = 6..14 (from 14 on the join is 3x faster and more), per path:
          --simd avx512 and --simd avx2 (both engines), and --simd none
          (portable pair counter, scalar kernel); JOIN_FROM in src/lib.rs
          is read off this table.

mpi       `count 20 --mpi --threads 2` under `mpirun -np 2` (every rank
          counting, rank 0 too), with mpirun's default binding (a core a
          rank: each counts on the one CPU it has) and with `--bind-to
          none`, against `count 20 --threads 2`: target at most 1.05 each
          (issue 35). The binary is built with --features mpi (OpenMPI
          installed, as .ci/run does).

kernels   the backtracker's lanes against its scalar kernel, on one
          thread: `count 16 --algo parallel --simd avx2` against `--simd
          none` under each symmetry mode and `count 17` (full), target
          <= 0.77 (1.3x as fast); `--simd avx512` against `--simd none` at
          n = 16 for scale. The AVX2 path is forced where the CPU also has
          AVX-512.

public    the join against the fastest public CPU counter,
          EvgenyKluev/N-Queens-Count-Sol, on one thread at n = 16, 17, 18
          (built by scripts/build-public-join.sh into --public DIR): target
          < 1 at each.

large     the join where lists are long (issue 17, item 2): `count N
          --threads 2` against the public counter on 2 threads at n = 18,
          19 and 20 (built by scripts/build-public-join.sh 18 19 20 into
          --public DIR), target <= 0.50 at n = 20; our growth per n from 18
          to 20 is no steeper than its when the ratio at 20 is at most the
          ratio at 18. With --baseline, `count 20 --threads 2` against the
          older binary.

simd      the join on each instruction-set path against the public
          counter built for the matching CPU, one thread, n = 16, 17, 18:
          --simd avx2 against the -march=haswell build (--public-haswell
          DIR), target <= 0.85; --simd avx512 against the -march=native
          build (--public DIR), target <= 0.45; and --simd none against
          --simd avx2 at n = 18, target <= 2. On a CPU with AVX-512 the
          AVX2 path is forced (--simd avx2): AVX2 code timed on an AVX-512
          machine, not on a CPU without AVX-512.

reach     the join past the whole quarter table (issue 17, item 1): from
          n = 24 each worker fills the row sets an item glues from. With
          --baseline (a build whose WHOLE_TABLE_BYTES lets it fill the
          whole table at n = 24), `count 24 --threads 2 --shard
          85000/170000` (4 middling items) against the baseline's: the
          cost of filling row sets again and again, and both must give
          the same tally. Peak RSS of `count 24` and `count 26` (the join,
          2 threads) stopped after 120 s and 150 s (exit 124), each
          against its memory plan (`--max-memory 1M` refusing with what
          it needs), target below it.

drawn     the join past n = 25 (issue 17, item 1): items drawn from their
          index, quarter cells searched one at a time. Peak RSS of
          `count N --algo join --threads 2 --max-memory 4G` for N = 26..32
          stopped after 60 s (exit 124), target below the 4 GiB it was
          given, beside the least plan the join makes (what `--max-memory
          1M`'s refusal says it needs). Without --max-memory a count plans
          for what the machine has available, filling larger row sets (up
          to 2^27 placements a thread), so its peak is not the least plan's.

house     the house moved (issue 15): `count N --algo A --threads 1` for
          N = 17, 18 and A = join, parallel against the same command of
          --baseline BINARY (the build before the move): target within 2%
          (0.98..1.02) each.

order     the join's items in FORMAT 6 (costed in reference nanoseconds,
          interleaved by cost) against --baseline BINARY (FORMAT 5: sorted
          by cost, largest first): `count N --threads 2` for N = 17, 18, 19
          (the pool over the whole count: its tail and its locality);
          target no regression, at most 1.02 each.
hostile   the third hostile round (issue 31): `count N` (the default
          engine, and --algo parallel, on every thread) for N = 16, 18
          against --baseline BINARY (the build before it): target within
          2% (0.98..1.02) each; laying out the join of n = 23 (a shard of
          one item: the layout and next to no count) against the
          baseline, target below 1; and how long the refusals take that
          came after the work or after long walks before: `count 20
          --depth 20 --threads 1`, `count 19 --shard 1/2 --out
          /nonexistent/x.json`, `status /dev/zero`, target within 2 s.

job       one job, resolved once (issue 32): `count N` (the default engine,
          on every thread) for N = 16, 18, 20 and `--algo parallel` for
          N = 16, 18 against --baseline BINARY (the build before it):
          target within 2% (0.98..1.02) each.

longrun   the journal's cost: `count 17 --threads 2 --checkpoint FILE` (a new
          journal every run) against the same count without one, target
          <= 1.01; the same for `count 16 --depth 7` (48,000 work items).

The suites written before the join (core, symmetry, layers, longrun) run the
backtracking engine (`--algo parallel`), which `count` no longer picks by
default from n = 7. Every run uses the path the binary picks (the lanes where the CPU has
AVX-512) unless the comparison names one (`--simd none`).

Every comparison runs its two commands alternately (a first in odd pairs, b
first in even ones) and reports the median of the per-pair ratios: this
machine is shared and noisy, and absolute times drift between runs.
Every run's count is checked against A000170 (and its unique count, where it
gives one, against A002562).

Usage: scripts/targets.py SUITE [--runs R] [--peers DIR] [--baseline BINARY] [--public DIR]
                          [--public-haswell DIR]
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

import measure

# Checks only: the counts each run must reproduce.
A000170 = {
    6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200, 13: 73712, 14: 365596, 15: 2279184, 16: 14772512, 17: 95815104,
    18: 666090624, 19: 4968057848, 20: 39029188884, 21: 314666222712, 22: 2691008701644,
}


def ours(n):
    def check(out):
        report = json.loads(out)
        got = report["total"]
        assert got == A000170[n], f"nqueens n={n}: {got}"
        # The unique count, where the count gives one, against A002562.
        assert report.get("matches_oeis_unique") in (True, None), f"nqueens n={n}: unique"
    return check


def theirs(n):
    def check(out):
        assert int(out) == A000170[n], f"refcount n={n}: {out}"
    return check


def public_count(n):
    """The public join's count, checked."""
    def check(out):
        got = int(out.split("Result:")[1].split()[0])
        assert got == A000170[n], f"public join n={n}: {got}"
    return check


def boards(n):
    def check(out):
        assert out.count("Q") == n * A000170[n], f"solve {n} printed a wrong number of queens"
    return check


def count(binary, n, *flags):
    return [binary, "count", str(n), "--json", *flags]


def searched(binary, n, *flags):
    """count by the backtracking engine, whatever the default (the join
    from n = 7): what the suites before the join measure."""
    return count(binary, n, "--algo", "parallel", *flags)


def refused(out):
    assert out == "", f"a refused count printed {out!r}"


def core(binary, refcount, baseline=None):
    comparisons = [
        ("count 16 --threads 1 --symmetry mirror / refcount 16", "<= 1.0",
         searched(binary, 16, "--threads", "1", "--symmetry", "mirror"), ours(16),
         [refcount, "16"], theirs(16)),
        ("count 16 --threads 1 --symmetry mirror --simd none / refcount 16", "(reference)",
         searched(binary, 16, "--threads", "1", "--symmetry", "mirror", "--simd", "none"),
         ours(16), [refcount, "16"], theirs(16)),
        ("count 17 --threads 1 / count 17 --threads 2 (speedup)", ">= 1.9",
         searched(binary, 17, "--threads", "1", "--symmetry", "mirror"), ours(17),
         searched(binary, 17, "--threads", "2", "--symmetry", "mirror"), ours(17)),
    ]
    memory = [
        ("count 18", searched(binary, 18), ours(18), "< 20 MiB"),
        ("solve 14 (stdout to a pipe)", [binary, "solve", "14"], boards(14), "< 20 MiB"),
    ]
    return comparisons, memory


def layers(binary, refcount, baseline=None):
    comparisons = [
        ("count 16 --threads 1 / refcount 16", "<= 0.30",
         searched(binary, 16, "--threads", "1"), ours(16), [refcount, "16"], theirs(16)),
        ("count 17 --threads 1 / count 17 --threads 2 (speedup)", ">= 1.9",
         searched(binary, 17, "--threads", "1"), ours(17),
         searched(binary, 17, "--threads", "2"), ours(17)),
    ]
    if baseline:
        comparisons += [
            ("count 16 --threads 1 / baseline count 16 --threads 1", "about 1.0 (no regression)",
             searched(binary, 16, "--threads", "1"), ours(16),
             searched(baseline, 16, "--threads", "1"), ours(16)),
            ("count 17 --threads 2 / baseline count 17 --threads 2", "about 1.0 (no regression)",
             searched(binary, 17, "--threads", "2"), ours(17),
             searched(baseline, 17, "--threads", "2"), ours(17)),
        ]
    # (label, command, check, goal, timeout in seconds, expected exit status)
    memory = [
        ("count 16 --depth 7", searched(binary, 16, "--depth", "7"), ours(16), "< 200 MiB"),
        ("count 22, its first 10 s", searched(binary, 22), None, "< 100 MiB, still counting", 10, 124),
        ("count 32, its first 10 s", searched(binary, 32), None, "< 100 MiB, still counting", 10, 124),
        ("count 20 --depth 9 (refused)", searched(binary, 20, "--depth", "9"), refused,
         "exit 2 at once", None, 2),
        ("count 24 --depth 14 (refused)", searched(binary, 24, "--depth", "14"), refused,
         "exit 2 at once", None, 2),
        ("count 32 --depth 16 (refused)", searched(binary, 32, "--depth", "16"), refused,
         "exit 2 at once", None, 2),
        ("count 18", searched(binary, 18), ours(18), "< 20 MiB"),
    ]
    return comparisons, memory


def symmetry(binary, refcount, baseline=None):
    comparisons = [
        ("count 16 --threads 1 / refcount 16", "<= 0.40",
         searched(binary, 16, "--threads", "1"), ours(16), [refcount, "16"], theirs(16)),
        ("count 17 --threads 1 / refcount 17", "<= 0.40",
         searched(binary, 17, "--threads", "1"), ours(17), [refcount, "17"], theirs(17)),
        ("count 17 --threads 1 / count 17 --threads 2 (speedup)", ">= 1.9",
         searched(binary, 17, "--threads", "1"), ours(17),
         searched(binary, 17, "--threads", "2"), ours(17)),
        ("count 16 --threads 1 --unique / count 16 --threads 1", "<= 1.10",
         searched(binary, 16, "--threads", "1", "--unique"), ours(16),
         searched(binary, 16, "--threads", "1"), ours(16)),
        ("count 16 --threads 1 --symmetry mirror / refcount 16", "(reference)",
         searched(binary, 16, "--threads", "1", "--symmetry", "mirror"), ours(16),
         [refcount, "16"], theirs(16)),
        ("count 16 --threads 1 --symmetry none / refcount 16", "(reference)",
         searched(binary, 16, "--threads", "1", "--symmetry", "none"), ours(16),
         [refcount, "16"], theirs(16)),
        ("count 16 --threads 1 --simd none / refcount 16", "(reference)",
         searched(binary, 16, "--threads", "1", "--simd", "none"), ours(16),
         [refcount, "16"], theirs(16)),
        ("count 16 --threads 1 / count 16 --threads 1 --simd none", "(reference)",
         searched(binary, 16, "--threads", "1"), ours(16),
         searched(binary, 16, "--threads", "1", "--simd", "none"), ours(16)),
    ]
    return comparisons, []


def journaled(binary, n, *flags, journal=True):
    """count with a new journal each run (the old one removed first), or,
    with journal=False, the same command line without one, behind the same
    shell and rm, so that only the journal differs."""
    path = f"/tmp/nqueens-targets-{n}.journal"
    extra = ["--checkpoint", path] if journal else []
    words = " ".join([binary, "count", str(n), "--algo", "parallel", "--json", *flags, *extra])
    return ["sh", "-c", f"rm -f {path} && exec {words}"]


def longrun(binary, refcount, baseline=None):
    comparisons = [
        ("count 17 --threads 2 --checkpoint / count 17 --threads 2", "<= 1.01",
         journaled(binary, 17, "--threads", "2"), ours(17),
         journaled(binary, 17, "--threads", "2", journal=False), ours(17)),
        ("count 16 --depth 7 --checkpoint / count 16 --depth 7", "<= 1.01",
         journaled(binary, 16, "--depth", "7"), ours(16),
         journaled(binary, 16, "--depth", "7", journal=False), ours(16)),
    ]
    return comparisons, []


def join(binary, refcount, baseline=None):
    def algo(n, name, threads):
        return count(binary, n, "--algo", name, "--threads", str(threads))

    comparisons = [
        (f"count {n} --algo join --threads 1 / count {n} --algo parallel --threads 1", goal,
         algo(n, "join", 1), ours(n), algo(n, "parallel", 1), ours(n))
        for n, goal in [(16, "<= 0.20"), (17, "<= 0.20"), (18, "<= 0.10")]
    ] + [
        (f"count {n} --algo join --threads 1 / --threads 2 (speedup)", ">= 1.9",
         algo(n, "join", 1), ours(n), algo(n, "join", 2), ours(n))
        for n in (18, 19)
    ]
    memory = [
        ("count 18 --algo join", count(binary, 18, "--algo", "join"), ours(18), "< 256 MiB"),
        ("count 20 --algo join", count(binary, 20, "--algo", "join"), ours(20), "< 1 GiB"),
    ]
    return comparisons, memory


def same_tally(key, seen={}):
    """A shard's tally: the same wherever `key` is checked again."""
    def check(out):
        tally = json.loads(out)["total"]
        assert seen.setdefault(key, tally) == tally, f"{key}: {tally} against {seen[key]}"
    return check


def planned(binary, n, threads):
    """The join's memory plan for n on `threads` threads, as its refusal says."""
    done = subprocess.run(
        [binary, "count", str(n), "--algo", "join", "--threads", str(threads), "--max-memory", "1M"],
        capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    return done.stderr.split("needs: ")[1].split(" (")[0]


def reach(binary, refcount, baseline=None):
    shard = ["--threads", "2", "--shard", "85000/170000", "--out", "/tmp/nqueens-reach-shard.json"]
    comparisons = []
    if baseline:
        comparisons.append(
            ("count 24 --shard 85000/170000 --threads 2: row sets / whole table (baseline)", "(measured)",
             count(binary, 24, *shard), same_tally(24),
             count(baseline, 24, *shard), same_tally(24)))
    memory = [
        (f"count {n} --algo join --threads 2, first {seconds} s", count(binary, n, "--algo", "join", "--threads", "2"),
         None, f"< its plan, {planned(binary, n, 2)}", seconds, 124)
        for n, seconds in [(24, 120), (26, 150)]
    ]
    return comparisons, memory


def drawn(binary, refcount, baseline=None):
    memory = [
        (f"count {n} --algo join --threads 2 --max-memory 4G, first 60 s",
         count(binary, n, "--algo", "join", "--threads", "2", "--max-memory", "4G"),
         None, f"< 4 GiB; the least plan {planned(binary, n, 2)}", 60, 124)
        for n in range(26, 33)
    ]
    return [], memory


def house(binary, refcount, baseline=None):
    if not baseline:
        sys.exit("error: the house suite compares with --baseline BINARY")

    def algo(program, n, name):
        return count(program, n, "--algo", name, "--threads", "1")

    comparisons = [
        (f"count {n} --algo {name} --threads 1 / baseline", "0.98..1.02",
         algo(binary, n, name), ours(n), algo(baseline, n, name), ours(n))
        for n in (17, 18)
        for name in ("join", "parallel")
    ]
    return comparisons, []


def hostile(binary, refcount, baseline=None):
    if not baseline:
        sys.exit("error: the hostile suite compares with --baseline BINARY")

    def shard(program, n):
        return [program, "count", str(n), "--algo", "join", "--shard", "1/1048576",
                "--out", f"/tmp/nqueens-layout-{Path(program).name}-{n}.json"]

    comparisons = [
        (f"count {n}{' ' if flags else ''}{' '.join(flags)} / baseline", "0.98..1.02",
         count(binary, n, *flags), ours(n), count(baseline, n, *flags), ours(n))
        for n in (16, 18)
        for flags in ((), ("--algo", "parallel"))
    ]
    comparisons.append(("count 23 --algo join --shard 1/1048576 (the layout) / baseline", "< 1",
                        shard(binary, 23), lambda out: None, shard(baseline, 23), lambda out: None))
    memory = [
        ("count 20 --depth 20 --threads 1 (refused)", count(binary, 20, "--depth", "20", "--threads", "1"),
         refused, "< 2 s, exit 2", None, 2),
        ("count 19 --shard 1/2 --out /nonexistent/x.json (refused)",
         count(binary, 19, "--shard", "1/2", "--out", "/nonexistent/x.json"), refused,
         "< 1 s, exit 2", None, 2),
        ("status /dev/zero (refused)", [binary, "status", "/dev/zero"], refused,
         "< 1 s and 200 MiB, exit 2", None, 2),
    ]
    return comparisons, memory


def job(binary, refcount, baseline=None):
    if not baseline:
        sys.exit("error: the job suite compares with --baseline BINARY")
    comparisons = [
        (f"count {n}{' ' if flags else ''}{' '.join(flags)} / baseline", "0.98..1.02",
         count(binary, n, *flags), ours(n), count(baseline, n, *flags), ours(n))
        for n, flagsets in ((16, ((), ("--algo", "parallel"))),
                            (18, ((), ("--algo", "parallel"))),
                            (20, ((),)))
        for flags in flagsets
    ]
    return comparisons, []


def order(binary, refcount, baseline=None):
    if not baseline:
        sys.exit("error: the order suite compares with --baseline BINARY")
    comparisons = [
        (f"count {n} --threads 2 / baseline", "<= 1.02",
         count(binary, n, "--threads", "2"), ours(n), count(baseline, n, "--threads", "2"), ours(n))
        for n in (17, 18, 19)
    ]
    return comparisons, []


def public_join(public):
    def suite(binary, refcount, baseline=None):
        comparisons = [
            (f"count {n} --algo join --threads 1 / public join {n} (1 thread)", "< 1",
             count(binary, n, "--algo", "join", "--threads", "1"), ours(n),
             [str(public / f"nq{n}"), "1"], public_count(n))
            for n in (16, 17, 18)
        ]
        return comparisons, []
    return suite


LARGE_SIZES = (18, 19, 20)


def large_join(public, sizes=LARGE_SIZES):
    goals = {18: "at 20 <= at 18", 19: "at 20 <= at 18", 20: "<= 0.50"}

    def suite(binary, refcount, baseline=None):
        comparisons = [
            (f"count {n} --threads 2 / public join {n} (2 threads)",
             goals.get(n, "(measured)"),
             count(binary, n, "--threads", "2"), ours(n),
             [str(public / f"nq{n}"), "2"], public_count(n))
            for n in sizes
        ]
        if baseline:
            comparisons.append(
                ("count 20 --threads 2 / the baseline's", "< 1",
                 count(binary, 20, "--threads", "2"), ours(20),
                 count(baseline, 20, "--threads", "2"), ours(20)))
        return comparisons, []
    return suite


def crossover(binary, refcount, baseline=None):
    def algo(n, name, simd):
        return count(binary, n, "--algo", name, "--threads", "1", "--simd", simd)

    # (the join's path, the backtracker's).
    paths = [("avx512", "avx512"), ("avx2", "avx2"), ("none", "none")]
    comparisons = []
    for join_simd, search_simd in paths:
        for n in range(6, 15):
            comparisons.append(
                (f"count {n} --algo join --simd {join_simd} / --algo parallel "
                 f"--simd {search_simd} (1 thread)",
                 "< 1: the join is faster", algo(n, "join", join_simd), ours(n),
                 algo(n, "parallel", search_simd), ours(n)))
    return comparisons, []


def kernels(binary, refcount, baseline=None):
    def search(n, simd, symmetry):
        return count(binary, n, "--algo", "parallel", "--threads", "1",
                     "--simd", simd, "--symmetry", symmetry)

    comparisons = [
        (f"count {n} --algo parallel --symmetry {symmetry} --simd {simd} / --simd none "
         "(1 thread)", goal, search(n, simd, symmetry), ours(n),
         search(n, "none", symmetry), ours(n))
        for n, symmetry, simd, goal in [
            (16, "full", "avx2", "<= 0.77"),
            (16, "mirror", "avx2", "<= 0.77"),
            (16, "none", "avx2", "<= 0.77"),
            (17, "full", "avx2", "<= 0.77"),
            (16, "full", "avx512", "(for scale)"),
        ]
    ]
    return comparisons, []


def mpi(binary, refcount, baseline=None):
    mpirun = ["mpirun", "--allow-run-as-root", "--oversubscribe"]
    plain = count(binary, 20, "--threads", "2")
    comparisons = [
        (f"mpirun{' ' if bind else ''}{' '.join(bind)} -np 2 count 20 --mpi --threads 2 / "
         "count 20 --threads 2", "<= 1.05",
         mpirun + list(bind) + ["-np", "2"] + count(binary, 20, "--mpi", "--threads", "2"),
         ours(20), plain, ours(20))
        for bind in ((), ("--bind-to", "none"))
    ]
    return comparisons, []


def simd_paths(public, public_haswell):
    def suite(binary, refcount, baseline=None):
        def join(n, simd):
            return count(binary, n, "--algo", "join", "--threads", "1", "--simd", simd)

        comparisons = [
            (f"count {n} --algo join --simd avx2 --threads 1 / public join {n} "
             "-march=haswell (1 thread)", "<= 0.85",
             join(n, "avx2"), ours(n), [str(public_haswell / f"nq{n}"), "1"], public_count(n))
            for n in (16, 17, 18)
        ]
        comparisons += [
            (f"count {n} --algo join --simd avx512 --threads 1 / public join {n} "
             "-march=native (1 thread)", "<= 0.45",
             join(n, "avx512"), ours(n), [str(public / f"nq{n}"), "1"], public_count(n))
            for n in (16, 17, 18)
        ]
        comparisons.append(
            ("count 18 --algo join --simd none / --simd avx2 (1 thread)", "<= 2",
             join(18, "none"), ours(18), join(18, "avx2"), ours(18)))
        return comparisons, []
    return suite


SUITES = {
    "core": core,
    "symmetry": symmetry,
    "layers": layers,
    "longrun": longrun,
    "join": join,
    "crossover": crossover,
    "kernels": kernels,
    "mpi": mpi,
    "house": house,
    "hostile": hostile,
    "job": job,
    "order": order,
    "reach": reach,
    "drawn": drawn,
    "public": None,  # needs --public
    "large": None,  # needs --public
    "simd": None,  # needs --public and --public-haswell
}


def suite_text(suite):
    """What the module's docstring says of `suite`: its paragraph, unindented."""
    lines = __doc__.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(suite + " "))
    paragraph = []
    for line in lines[start:]:
        if not line.strip():
            break
        paragraph.append(line[len(suite):].strip() if line is lines[start] else line.strip())
    return " ".join(paragraph)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", choices=sorted(SUITES))
    parser.add_argument("--runs", type=int, default=5, help="pairs per comparison")
    parser.add_argument(
        "--peers",
        type=Path,
        default=measure.ROOT.parent / "shared" / "peers",
        help="folder holding refcount.c",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        help="an older nqueens binary to compare with (layers, house, hostile, order, large and "
        "reach suites)",
    )
    parser.add_argument(
        "--public",
        type=Path,
        help="folder of the public join's binaries nq16..nq20 (public and large suites; "
        "scripts/build-public-join.sh makes them)",
    )
    parser.add_argument(
        "--public-haswell",
        type=Path,
        help="folder of the public join's binaries built with MARCH=haswell "
        "(simd suite)",
    )
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        help="the boards of the large suite (default 18 19 20; others go to a "
        "folder named after them, e.g. large-n21)",
    )
    args = parser.parse_args()
    if args.runs < 1:
        sys.exit("error: --runs must be at least 1")
    if args.suite == "public":
        if not args.public:
            sys.exit("error: the public suite needs --public DIR")
        SUITES["public"] = public_join(args.public.resolve())
    if args.suite == "large":
        if not args.public:
            sys.exit("error: the large suite needs --public DIR")
        SUITES["large"] = large_join(args.public.resolve(), tuple(args.sizes or LARGE_SIZES))
    if args.suite == "simd":
        if not (args.public and args.public_haswell):
            sys.exit("error: the simd suite needs --public DIR and --public-haswell DIR")
        SUITES["simd"] = simd_paths(args.public.resolve(), args.public_haswell.resolve())

    measure.build_release(*(["mpi"] if args.suite == "mpi" else []))
    info = measure.machine()  # now, while the tree is the one just built
    binary = str(measure.BINARY)
    refcount = "/tmp/nqueens-refcount"
    subprocess.run(
        ["cc", "-O3", "-march=native", str(args.peers / "refcount.c"), "-o", refcount],
        check=True,
    )
    baseline = str(args.baseline.resolve()) if args.baseline else None
    comparisons, memory = SUITES[args.suite](binary, refcount, baseline)

    rows, summary = [], []
    for label, goal, cmd_a, check_a, cmd_b, check_b in comparisons:
        print(label, flush=True)
        pairs = measure.paired(cmd_a, cmd_b, args.runs, check_a, check_b)
        rows += [(label, i, a, b) for i, (a, b) in enumerate(pairs)]
        summary.append((label, f"{measure.median_ratio(pairs):.3f}", goal))
    peaks = []
    for label, cmd, check, goal, *limits in memory:
        timeout_s, status = limits if limits else (None, 0)
        wall, rss_kib, status = measure.run_with_rss(cmd, check, timeout_s, status)
        peaks.append((label, wall, rss_kib, status))
        summary.append((f"peak RSS {label}", f"{rss_kib / 1024:.1f} MiB, {wall:.1f} s, exit {status}", goal))
        print(f"{label}: {rss_kib / 1024:.1f} MiB peak, {wall:.1f} s, exit {status}", flush=True)

    label = args.suite
    if args.sizes and tuple(args.sizes) != LARGE_SIZES:
        label += "-n" + "-".join(map(str, args.sizes))
    out = measure.results_dir(label)
    measure.write_atomically(
        out / "pairs.csv",
        "comparison,pair,time_a_s,time_b_s,ratio_a_over_b\n"
        + "".join(f'"{c}",{i},{a:.4f},{b:.4f},{a / b:.4f}\n' for c, i, a, b in rows),
    )
    if peaks:
        measure.write_atomically(
            out / "memory.csv",
            "command,wall_s,peak_rss_kib,exit_status\n"
            + "".join(f'"{label}",{w:.3f},{k},{x}\n' for label, w, k, x in peaks),
        )
    table = "\n".join(f"| `{label}` | {value} | {goal} |" for label, value, goal in summary)
    what = suite_text(args.suite)
    readme = f"""# Targets: {args.suite}

{what}

Measured by `scripts/targets.py {args.suite} --runs {args.runs}{" --sizes " + " ".join(map(str, args.sizes)) if args.sizes else ""}{" --baseline " + args.baseline.name if args.baseline else ""}`. Ratios are
the median over {args.runs} alternating pairs of (time of the first command) /
(time of the second); every finished run's count was checked: a board's
total against A000170 and its unique count, where it gives one, against
A002562; a shard's tally against the same shard's from the other build.
Runs stopped by a timeout (exit 124) are not checked.

| comparison (a / b) | median ratio or peak | goal |
|---|---|---|
{table}

Raw pairs: `pairs.csv`{"; peak memory: `memory.csv`" if peaks else ""}.

{measure.machine_section(info)}"""
    measure.write_atomically(out / "README.md", readme)
    print(readme)


if __name__ == "__main__":
    main()
