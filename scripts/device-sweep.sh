#!/usr/bin/env bash
# The many-core sweep, for a machine without a Rust toolchain (the device
# machine): thread scaling at n = 17 and 18 with a prebuilt binary, plus the
# OpenMP yardstick on all cores when a C compiler with OpenMP is there.
#
# Here:   cargo build --release   (then carry target/release/nqueens over)
# There:  scripts/device-sweep.sh BINARY OUT_DIR [PEERS_DIR]
# Expect about 8 minutes on 16 cores; results land in OUT_DIR/n17 and
# OUT_DIR/n18, ready to copy into results/<date>-<host>-threads-*/.
set -euo pipefail
binary="${1:?usage: device-sweep.sh BINARY OUT_DIR [PEERS_DIR]}"
out="${2:?usage: device-sweep.sh BINARY OUT_DIR [PEERS_DIR]}"
peers="${3:-$(dirname "$0")/../../shared/peers}"
mkdir -p "$out"
"$binary" bench --n 17 --runs 3 --warmup 1 --out "$out/n17" | tee "$out/n17.txt"
"$binary" bench --n 18 --runs 1 --out "$out/n18" | tee "$out/n18.txt"
if [ -f "$peers/refcount_omp.c" ] && cc -O3 -march=native -fopenmp "$peers/refcount_omp.c" -o /tmp/refcount_omp 2>/dev/null; then
    cores=$(getconf _NPROCESSORS_ONLN)
    for t in 1 "$cores"; do
        start=$(date +%s.%N)
        total=$(OMP_NUM_THREADS=$t /tmp/refcount_omp 17)
        end=$(date +%s.%N)
        echo "refcount_omp 17 threads=$t total=$total wall_s=$(awk "BEGIN { print $end - $start }")"
    done | tee "$out/refcount_omp.txt"
fi
