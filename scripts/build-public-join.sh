#!/usr/bin/env bash
# Builds the fastest public CPU counter we know of, EvgenyKluev/N-Queens-Count-Sol
# (a half-board join, like ours), once per board size, for side-by-side runs
# (`scripts/targets.py public --public OUT`). Its board size is a compile-time
# constant: each size gets its own binary, OUT/nq<N>. Prefetch is switched on
# as its solcounter.h table recommends for n = 16..19; BMI2 stays off there.
#
# Usage: scripts/build-public-join.sh CHECKOUT OUT [N...]   (default N: 16 17 18)
# CHECKOUT is a clone of https://github.com/EvgenyKluev/N-Queens-Count-Sol.
# Nothing of it enters this project: it is built under OUT and measured.
set -euo pipefail
src=$1
out=$2
shift 2
[ $# -gt 0 ] && sizes=("$@") || sizes=(16 17 18)
mkdir -p "$out"
for n in "${sizes[@]}"; do
    work=$(mktemp -d)
    cp "$src"/*.h "$src"/*.cpp "$work"/
    sed -i 's|^//#include "prefetchx86.h"|#include "prefetchx86.h"|' "$work/prefetch.h"
    sed -i "s/inline constexpr int size = [0-9]*;/inline constexpr int size = $n;/" "$work/solcounter.h"
    grep -q "inline constexpr int size = $n;" "$work/solcounter.h"
    g++ -std=c++20 -O3 -march=native "$work/main.cpp" -o "$out/nq$n"
    rm -rf "$work"
    echo "built $out/nq$n"
done
