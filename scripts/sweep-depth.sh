#!/usr/bin/env bash
# The split depth against time and parallel efficiency at n = 16, on 1 thread
# and on every logical core.
# Usage: scripts/sweep-depth.sh [extra nqueens bench flags]
source "$(dirname "$0")/common.sh"
cores=$(getconf _NPROCESSORS_ONLN)
"$NQUEENS" bench --n 16 --depth 1..=7 --threads "1,$cores" --runs 3 --out "$(results_dir depth)" "$@"
