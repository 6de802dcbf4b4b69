#!/usr/bin/env bash
# The slow checks CI leaves out: the #[ignore]d tests, in release mode.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release -- --ignored
