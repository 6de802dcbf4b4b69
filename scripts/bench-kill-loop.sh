#!/usr/bin/env bash
# Kills `nqueens bench` with SIGKILL at random moments, KILLS times (default
# 200), and checks after each kill that the sweep's CSV, JSON and README
# agree: the same points, row for row, and the README's count of them.
# Exits 1 on any disagreement. Usage: scripts/bench-kill-loop.sh [KILLS]
set -euo pipefail
cd "$(dirname "$0")/.."
kills="${1:-200}"
cargo build --release --quiet
nqueens="$PWD/target/release/nqueens"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mismatches=0
empty=0
for i in $(seq 1 "$kills"); do
    out="$work/sweep-$i"
    "$nqueens" bench --n 4..=11 --threads 1,2 --runs 1 --out "$out" >/dev/null 2>&1 &
    pid=$!
    # 3 to 60 ms: the sweep writes its files a few hundred times a second.
    sleep "0.0$(printf '%02d' $((RANDOM % 58 + 3)))"
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    status=0
    python3 - "$out" <<'PY' || status=$?
import csv, json, re, sys
from pathlib import Path
out = Path(sys.argv[1])
files = [out / name for name in ("sweep.csv", "sweep.json", "README.md")]
present = [f.exists() for f in files]
if not any(present):
    sys.exit(3)  # killed before the first point: nothing to agree
if not all(present):
    print(f"{out}: some files only: {present}")
    sys.exit(1)
rows = list(csv.DictReader(files[0].open()))
data = json.loads(files[1].read_text())["rows"]
key = lambda r: (r["algorithm"], str(r["n"]), str(r["threads"]), str(r["total"]))
readme = re.search(r"(\d+) of (\d+) points", files[2].read_text())
done = int(readme.group(1)) if readme else -1
if [key(r) for r in rows] != [key(r) for r in data] or done != len(rows):
    print(f"{out}: csv {len(rows)} rows, json {len(data)}, README {done}")
    sys.exit(1)
PY
    case "$status" in
        0) ;;
        3) empty=$((empty + 1)) ;;
        *) mismatches=$((mismatches + 1)) ;;
    esac
    rm -rf "$out"
done
echo "$kills kills: $mismatches mismatches ($empty killed before the first point)"
[ "$mismatches" -eq 0 ]
