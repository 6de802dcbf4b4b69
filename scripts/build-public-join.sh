#!/usr/bin/env bash
# Builds the fastest public CPU counter we know of, EvgenyKluev/N-Queens-Count-Sol
# (a half-board join, like ours), once per board size, for side-by-side runs
# (`scripts/targets.py public|simd --public OUT`). Its board size is a
# compile-time constant: each size gets its own binary, OUT/nq<N>, built with
# the settings its solcounter.h table gives for that size (sieve cuts, match
# size, BMI2 intrinsics, prefetch), for the CPU MARCH names.
#
# Usage: [MARCH=native|haswell|...] scripts/build-public-join.sh CHECKOUT OUT [N...]
#   N: 16..21 (default 16 17 18); MARCH: gcc's -march (default native).
#   MARCH=haswell builds for AVX2 + BMI2 without AVX-512: the yardstick for
#   our --simd avx2 path, run on any machine that has AVX2.
# CHECKOUT is a clone of https://github.com/EvgenyKluev/N-Queens-Count-Sol.
# Nothing of it enters this project: it is built under OUT and measured.
set -euo pipefail
src=$1
out=$2
shift 2
[ $# -gt 0 ] && sizes=("$@") || sizes=(16 17 18)
march=${MARCH:-native}
mkdir -p "$out"
for n in "${sizes[@]}"; do
    # Its table (solcounter.h): n -> sieve cuts, match min size, BMI2, prefetch.
    case $n in
        16|17|18) cuts=0 match=40 bmi=false prefetch=1 ;;
        19) cuts=0 match=40 bmi=true prefetch=1 ;;
        20) cuts=3 match=60 bmi=true prefetch=1 ;;
        21) cuts=3 match=60 bmi=true prefetch=0 ;;
        *) echo "build-public-join.sh: n = $n is outside its settings table (16..21)" >&2; exit 2 ;;
    esac
    work=$(mktemp -d)
    cp "$src"/*.h "$src"/*.cpp "$work"/
    if [ "$bmi" = true ]; then
        sed -i 's|^//#include "bmi2.h"|#include "bmi2.h"|' "$work/bmintrin.h"
    fi
    if [ "$prefetch" = 1 ]; then
        sed -i 's|^//#include "prefetchx86.h"|#include "prefetchx86.h"|' "$work/prefetch.h"
    fi
    sed -i -e "s/inline constexpr int size = [0-9]*;/inline constexpr int size = $n;/" \
        -e "s/\.sieveCuts = [0-9]*,/.sieveCuts = $cuts,/" \
        -e "s/\.matchMinSize = [0-9]*,/.matchMinSize = $match,/" \
        -e "s/\.bmiIntrin = [a-z]*,/.bmiIntrin = $bmi,/" "$work/solcounter.h"
    grep -q "inline constexpr int size = $n;" "$work/solcounter.h"
    grep -q "\.sieveCuts = $cuts," "$work/solcounter.h"
    grep -q "\.bmiIntrin = $bmi," "$work/solcounter.h"
    g++ -std=c++20 -O3 -march="$march" "$work/main.cpp" -o "$out/nq$n"
    rm -rf "$work"
    echo "built $out/nq$n (-march=$march, sieve cuts $cuts, match $match, BMI2 $bmi, prefetch $prefetch)"
done
