# Sourced by the sweep scripts: builds the release binary and names a results
# folder results/<date>-<host>-<label>/ for this machine.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
cargo build --release --quiet
NQUEENS="$ROOT/target/release/nqueens"
results_dir() {
    echo "$ROOT/results/$(date -u +%F)-$(hostname)-$1"
}
