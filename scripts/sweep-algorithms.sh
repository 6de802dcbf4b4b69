#!/usr/bin/env bash
# Algorithms against n: every algorithm for n = 6..=12 (the textbook solvers
# take about a second at 12), then the bitmask family and the engine for
# n = 12..=16.
# Usage: scripts/sweep-algorithms.sh [extra nqueens bench flags]
source "$(dirname "$0")/common.sh"
cores=$(getconf _NPROCESSORS_ONLN)
"$NQUEENS" bench --n 6..=12 --algo set,board,bitmask,bitmask-iter,parallel \
    --threads "1,$cores" --runs 3 --out "$(results_dir algorithms-reference)" "$@"
"$NQUEENS" bench --n 12..=16 --algo bitmask,bitmask-iter,parallel \
    --threads "1,$cores" --runs 3 --out "$(results_dir algorithms-bitmask)" "$@"
