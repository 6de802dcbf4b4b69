#!/usr/bin/env bash
# Count the N×N board as M shards in a Slurm job array, then merge them.
#
#   scripts/slurm-shards.sh N M OUT_DIR [sbatch options...]
#       submits an array of M tasks (one shard each, all cores of its node)
#       and a merge job that runs when every task has succeeded
#   scripts/slurm-shards.sh --local N M OUT_DIR
#       runs the same tasks one after another on this machine, then merges
#       (to try the pipeline, or for a machine without Slurm)
#
# Each task keeps a journal (OUT_DIR/shard-I.journal) beside its result
# (OUT_DIR/shard-I.json), and the array is submitted with --requeue: a
# preempted or failed task that runs again resumes where it stopped. The
# merge checks that the shards make one whole count (same plan, no gap, no
# overlap, duplicates agreeing) and writes OUT_DIR/result.json, the same
# JSON as `nqueens count N --unique --json`, checked against OEIS.
#
# NQUEENS names the binary (default: target/release/nqueens beside this
# script, which `cargo build --release` makes).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
nqueens="${NQUEENS:-$here/../target/release/nqueens}"

local_run=false
if [ "${1:-}" = "--local" ]; then
    local_run=true
    shift
fi
n="${1:?usage: slurm-shards.sh [--local] N M OUT_DIR [sbatch options...]}"
m="${2:?usage: slurm-shards.sh [--local] N M OUT_DIR [sbatch options...]}"
out="${3:?usage: slurm-shards.sh [--local] N M OUT_DIR [sbatch options...]}"
shift 3
mkdir -p "$out"
out="$(cd "$out" && pwd)"

# One shard: what every array task runs.
task() {
    local i="$1"
    "$nqueens" count "$n" --shard "$i/$m" \
        --checkpoint "$out/shard-$i.journal" --out "$out/shard-$i.json"
}

merge() {
    local files=()
    for i in $(seq 1 "$m"); do files+=("$out/shard-$i.json"); done
    "$nqueens" merge --unique --json "${files[@]}" > "$out/result.json.tmp"
    mv "$out/result.json.tmp" "$out/result.json"
    cat "$out/result.json"
}

if [ -n "${NQUEENS_SHARD_TASK:-}" ]; then
    task "$NQUEENS_SHARD_TASK"
    exit
fi
if [ -n "${NQUEENS_SHARD_MERGE:-}" ]; then
    merge
    exit
fi

if $local_run; then
    for i in $(seq 1 "$m"); do task "$i"; done
    merge
    exit
fi

command -v sbatch >/dev/null || { echo "error: sbatch not found; try --local" >&2; exit 2; }
export NQUEENS="$nqueens"
array=$(sbatch --parsable --array="1-$m" --requeue --nodes=1 --exclusive \
    --job-name="nqueens-$n" --output="$out/shard-%a.log" "$@" \
    --wrap="NQUEENS_SHARD_TASK=\$SLURM_ARRAY_TASK_ID '$here/slurm-shards.sh' $n $m '$out'")
merged=$(sbatch --parsable --dependency="afterok:$array" --job-name="nqueens-$n-merge" \
    --output="$out/merge.log" "$@" \
    --wrap="NQUEENS_SHARD_MERGE=1 '$here/slurm-shards.sh' $n $m '$out'")
echo "submitted shards as job $array and the merge as job $merged; result: $out/result.json"
