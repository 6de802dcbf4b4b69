#!/usr/bin/env bash
# Reproduces A000170 and A002562 for n = 1..=MAX (default 17) with the
# parallel engine; exits non-zero on any mismatch. Writes the verify table
# and what produced it to results/<date>-<host>-oeis/.
# Usage: scripts/oeis.sh [MAX]
source "$(dirname "$0")/common.sh"
max="${1:-17}"
out="$(results_dir oeis)"
mkdir -p "$out"
"$NQUEENS" verify --max "$max" --unique > "$out/.verify.txt.tmp"
mv "$out/.verify.txt.tmp" "$out/verify.txt"
{
    echo "# OEIS reproduction, n = 1..=$max"
    echo
    echo "Command: \`nqueens verify --max $max --unique\` (scripts/oeis.sh $max)"
    echo
    echo "| | |"
    echo "|---|---|"
    echo "| host | $(hostname) |"
    echo "| CPU | $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') |"
    echo "| logical cores | $(getconf _NPROCESSORS_ONLN) |"
    echo "| git revision | $(git describe --always --dirty --abbrev=10) |"
    echo "| rustc | $(rustc --version) |"
    echo "| build profile | release |"
    echo "| date (UTC) | $(date -u '+%F %H:%M') |"
    echo
    echo '```'
    cat "$out/verify.txt"
    echo '```'
} > "$out/.README.md.tmp"
mv "$out/.README.md.tmp" "$out/README.md"
tail -1 "$out/verify.txt"
