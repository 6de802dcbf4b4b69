"""Shared helpers for the measurement scripts: run a command and time it,
compare two commands in paired runs, describe the machine, write results.

Only the standard library: the scripts run wherever python3 does.
"""

import datetime
import os
import platform
import socket
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BINARY = ROOT / "target" / "release" / "nqueens"


def build_release(*features):
    """The release binary, with the cargo features given (e.g. "mpi")."""
    flags = ["--features", ",".join(features)] if features else []
    subprocess.run(["cargo", "build", "--release", "--quiet", *flags], cwd=ROOT, check=True)


def run_with_rss(cmd, check, timeout_s=None, expect_status=0):
    """Runs cmd under GNU time; checks its stdout with check(stdout) when it
    exits 0, and returns (wall seconds, peak RSS in KiB, exit status).

    With timeout_s, the command is stopped (SIGTERM, by coreutils' timeout)
    after that many seconds, which is exit status 124: for a count that
    would run for days, the peak of its first seconds. The exit status
    must be expect_status.

    The peak comes from GNU time, not from wait4 here: a child forked from
    Python inherits the interpreter's resident pages until it execs, and the
    kernel keeps that high-water mark across the exec. (Behind timeout, the
    peak GNU time reports is that of timeout's largest child, the count.)
    """
    gnu_time = shutil.which("time", path="/usr/bin:/bin") or sys.exit(
        "error: GNU time is needed for peak memory (apt-get install time)"
    )
    if timeout_s is not None:
        cmd = ["timeout", str(timeout_s), *cmd]
    with tempfile.NamedTemporaryFile("r") as report:
        start = time.perf_counter()
        done = subprocess.run(
            [gnu_time, "-f", "%M", "-o", report.name, *cmd],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        wall = time.perf_counter() - start
        if done.returncode != expect_status:
            sys.exit(f"error: {cmd} exited {done.returncode}, not {expect_status}: {done.stderr.decode()}")
        if done.returncode == 0:
            check(done.stdout.decode())
        return wall, int(report.read().split()[-1]), done.returncode


def timed(cmd, check):
    """Runs cmd, checks its output with check(stdout), returns wall seconds."""
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - start
    check(out)
    return wall


def paired(cmd_a, cmd_b, runs, check_a, check_b):
    """Runs a and b alternately (a first in odd pairs, b first in even ones);
    returns the list of (time_a, time_b) pairs."""
    pairs = []
    for i in range(runs):
        if i % 2 == 0:
            a = timed(cmd_a, check_a)
            b = timed(cmd_b, check_b)
        else:
            b = timed(cmd_b, check_b)
            a = timed(cmd_a, check_a)
        pairs.append((a, b))
        print(f"  pair {i + 1}/{runs}: {a:.3f} s vs {b:.3f} s, ratio {a / b:.3f}", flush=True)
    return pairs


def median_ratio(pairs):
    return statistics.median(a / b for a, b in pairs)


def machine():
    """What the figures were measured on, and with which build."""
    def cmd(args):
        try:
            return subprocess.run(args, capture_output=True, text=True, cwd=ROOT).stdout.strip()
        except OSError:
            return "unknown"

    cpu = "unknown"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    physical = cmd(["sh", "-c", "lscpu -p=core,socket | grep -v '^#' | sort -u | wc -l"])
    return {
        "host": socket.gethostname(),
        "cpu": cpu,
        "logical_cores": os.cpu_count(),
        "physical_cores": physical,
        "os": platform.platform(),
        "rustc": cmd(["rustc", "--version"]),
        "cc": (cmd(["cc", "--version"]).splitlines() or ["unknown"])[0],
        # What the binary says it was built from (build.rs: "-dirty" when
        # its sources differ from the commit; results/ and docs do not count).
        "git_revision": binary_revision(),
        "build_profile": "release (lto = fat, codegen-units = 1, panic = abort)",
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


def binary_revision():
    """The git revision the release binary was built from, as it reports it
    in `nqueens --version` ("0.1.0 (git REV, rustc …, release)")."""
    try:
        version = subprocess.run(
            [str(BINARY), "--version"], capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return version.split("(git ", 1)[-1].split(",", 1)[0] if "(git " in version else "unknown"


def results_dir(label):
    day = datetime.date.today().isoformat()
    path = ROOT / "results" / f"{day}-{socket.gethostname()}-{label}"
    path.mkdir(parents=True, exist_ok=True)
    return path


def write_atomically(path, text):
    """Writes text to path through a temporary file and a rename, so that an
    interrupted run leaves the old file or the new one, never half of one."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def human_duration(seconds):
    """Seconds as a reader takes them in: 42.0 s, 3.5 min, 7.1 h, 12.0 days,
    1.2e+03 years."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    if seconds < 86400:
        return f"{seconds / 3600:.1f} h"
    if seconds < 31557600:
        return f"{seconds / 86400:.1f} days"
    return f"{seconds / 31557600:.3g} years"


def machine_table(info):
    return "\n".join(f"| {k} | {v} |" for k, v in info.items())


def machine_section(info):
    """The README section every result ends with: what measured it."""
    return f"## Machine and build\n\n| | |\n|---|---|\n{machine_table(info)}\n"
