#!/usr/bin/env bash
# Thread scaling of the parallel engine at n = 16 and 17: 1, 2, 4, ... threads
# up to the logical cores, plus the physical core count (nqueens' default).
# Usage: scripts/sweep-threads.sh [extra nqueens bench flags]
source "$(dirname "$0")/common.sh"
"$NQUEENS" bench --n 16,17 --runs 3 --warmup 1 --out "$(results_dir threads)" "$@"
