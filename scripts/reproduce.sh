#!/usr/bin/env bash
# Counts Q(N) and its unique solutions (A000170, A002562) with a journal kept
# in the repository, results/reproduce-nN/nN.journal, so that work done is
# never lost: run the script again, on any machine, and it resumes where the
# journal stops; commit the journal as it grows. Every run appends a line to
# segments.log (when, where, which revision, how far it got); the run that
# finishes writes result.json and README.md. Exits as the count does: 0 when
# it matches OEIS, 1 on a mismatch.
# Usage: scripts/reproduce.sh N [more count flags, e.g. --threads 16]
source "$(dirname "$0")/common.sh"
n="$1"
shift
out="$ROOT/results/reproduce-n$n"
journal="$out/n$n.journal"
mkdir -p "$out"
# The count runs a copy of the binary: a rebuild meanwhile must not replace it.
bin="$(mktemp -d)/nqueens"
cp "$NQUEENS" "$bin"
cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
revision="$(git describe --always --dirty --abbrev=10)"
started="$(date -u '+%F %H:%M:%S')"
set +e
"$bin" count "$n" --unique --checkpoint "$journal" --json "$@" > "$out/.result.json.tmp"
status=$?
set -e
done_items="$("$bin" status --json "$journal" | python3 -c 'import json, sys; s = json.load(sys.stdin); print("%d/%d items" % (s["done_items"], s["total_items"]))' || echo "journal unreadable")"
echo "$started .. $(date -u '+%F %H:%M:%S') UTC | host $(hostname) | $cpu | $(getconf _NPROCESSORS_ONLN) logical cores | git $revision | count $n --unique $* | exit $status | $done_items" >> "$out/segments.log"
if [ "$status" -gt 1 ] || [ ! -s "$out/.result.json.tmp" ]; then
    rm -f "$out/.result.json.tmp"
    echo "count $n stopped (exit $status); run scripts/reproduce.sh $n again to resume" >&2
    exit "$status"
fi
mv "$out/.result.json.tmp" "$out/result.json"
python3 - "$out" "$n" <<'EOF'
import json, sys
from pathlib import Path
out, n = Path(sys.argv[1]), sys.argv[2]
r = json.loads((out / "result.json").read_text())
ok = lambda v: "matches" if v else "MISMATCH"
lines = [
    f"# Q({n}) reproduced",
    "",
    f"Command: `scripts/reproduce.sh {n}` (`nqueens count {n} --unique --checkpoint n{n}.journal --json`),",
    "resumed from the journal as often as segments.log shows; result.json is the last run's output.",
    "",
    "| | |",
    "|---|---|",
    f"| total | {r['total']} (A000170: {r.get('oeis_total')}, {ok(r.get('matches_oeis'))}) |",
    f"| unique | {r['unique']} (A002562: {r.get('oeis_unique')}, {ok(r.get('matches_oeis_unique'))}) |",
    f"| algorithm | {r['algorithm']}, simd {r['simd']}, {r['threads']} threads |",
    f"| work items | {r['items']} |",
    "",
    "Segments (each run of the script):",
    "",
    "```",
    (out / "segments.log").read_text().rstrip(),
    "```",
]
(out / "README.md").write_text("\n".join(lines) + "\n")
EOF
cat "$out/README.md"
exit "$status"
