#!/usr/bin/env bash
# The slow checks CI leaves out: the #[ignore]d tests, in release mode
# (tests/slow.rs, and the audits of n = 20 and 21 in tests/audit.rs), but
# for engine::join::fit::item_times, a measurement that
# scripts/fit-costs.py runs.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release -- --ignored --skip engine::join::fit::item_times
