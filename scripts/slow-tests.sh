#!/usr/bin/env bash
# The slow checks CI leaves out: the #[ignore]d tests that assert, in
# release mode (tests/slow.rs, and the audits of n = 20 and 21 in
# tests/audit.rs). Each join layout forced counts n = 4..22 there (about
# two hours on 2 cores; NQUEENS_SLOW_LAYOUTS_TO=21 stops sooner). The
# measurements in engine::join::order::fit (item_times,
# sketch_against_count) and engine::join::forecast::parts assert nothing:
# scripts/fit-costs.py, scripts/sketch-check.py and scripts/join-parts.py
# run them.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release -- --ignored --skip engine::join::order::fit:: --skip engine::join::forecast::parts::
