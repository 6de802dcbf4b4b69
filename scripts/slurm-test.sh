#!/usr/bin/env bash
# Slurm for real: brings up a one-node Slurm cluster on this machine (munge,
# slurmctld, slurmd, as root), runs scripts/slurm-shards.sh N M against it,
# requeues one shard task while it runs (after its journal has recorded
# work), and checks that the merged total and unique count match OEIS and
# that the requeued task ran twice. Stops the daemons it started, whatever
# happens. Needs root and Debian's slurm-wlm and munge (.ci/run installs
# them); takes about a minute at the default n = 19, 4 shards.
# Usage: scripts/slurm-test.sh [N [M]]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
n="${1:-19}"
m="${2:-4}"
[ "$(id -u)" = 0 ] || { echo "error: slurm-test.sh starts slurmd and munged: run it as root" >&2; exit 2; }
for tool in munged slurmctld slurmd sbatch scontrol; do
    command -v "$tool" >/dev/null || { echo "error: $tool not found (apt-get install slurm-wlm munge)" >&2; exit 2; }
done
cargo build --release --quiet
export NQUEENS="$ROOT/target/release/nqueens"

dir="$(mktemp -d /tmp/nqueens-slurm.XXXXXX)"
chmod 755 "$dir"
host="$(hostname -s)"
started=()
stop_daemons() {
    # Jobs first (so no task outlives the test), then the daemons we started.
    scancel --quiet --user=root 2>/dev/null || true
    for name in "${started[@]}"; do
        [ -f "$dir/$name.pid" ] && kill "$(cat "$dir/$name.pid")" 2>/dev/null || true
    done
    sleep 1
    # Logs stay for a failure to be read; a pass leaves nothing behind.
    if [ "$passed" = yes ]; then rm -rf "$dir"; else echo "logs: $dir" >&2; fi
}
passed=no
trap stop_daemons EXIT

# munge: the system's key (the package makes one), our own socket.
if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
fi
mkdir -p "$dir/munge"
chown munge:munge "$dir/munge"
runuser -u munge -- munged --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed"
cp "$dir/munge/munged.pid" "$dir/munged.pid"
started+=(munged)
munge --socket="$dir/munge/munge.socket" -n | unmunge --socket="$dir/munge/munge.socket" >/dev/null

mkdir -p "$dir/state" "$dir/spool"
cat > "$dir/slurm.conf" <<EOF
ClusterName=nqueens-test
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
MinJobAge=600
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF"
started+=(slurmctld)
slurmd -f "$SLURM_CONF"
started+=(slurmd)
for _ in $(seq 60); do
    state="$(sinfo -h -o %T 2>/dev/null || true)"
    [ "$state" = idle ] && break
    sleep 1
done
[ "$state" = idle ] || { echo "error: the node did not come up (state '$state'); logs in $dir" >&2; exit 1; }
echo "== one-node cluster up ($host, $(nproc) CPUs); counting n = $n as $m shards"

out="$dir/out"
submitted="$("$ROOT/scripts/slurm-shards.sh" "$n" "$m" "$out")"
echo "$submitted"
array="$(echo "$submitted" | sed -n 's/.*shards as job \([0-9]*\).*/\1/p')"

# Requeue the first shard task seen running with work in its journal.
requeued=""
for _ in $(seq 600); do
    for i in $(seq 1 "$m"); do
        state="$(squeue -h -j "${array}_$i" -o %T 2>/dev/null || true)"
        if [ "$state" = RUNNING ] && [ -s "$out/shard-$i.journal" ] \
            && "$NQUEENS" status --json "$out/shard-$i.journal" 2>/dev/null | grep -q '"done_items":[1-9]'; then
            scontrol requeue "${array}_$i"
            requeued="$i"
            echo "== requeued task $i while it ran, its journal holding $("$NQUEENS" status "$out/shard-$i.journal" | grep -m1 'items done' | sed 's/^ *items done *//')"
            break 2
        fi
    done
    [ -z "$(squeue -h -j "$array" 2>/dev/null)" ] && break
    sleep 0.2
done
[ -n "$requeued" ] || { echo "error: no shard task was caught running; try a larger N" >&2; exit 1; }
# Slurm holds a requeued job back for a couple of minutes: let it start now.
for _ in $(seq 50); do
    [ "$(squeue -h -j "${array}_$requeued" -o %T 2>/dev/null)" = PENDING ] && break
    sleep 0.2
done
scontrol update JobId="${array}_$requeued" StartTime=now

for _ in $(seq 900); do
    [ -s "$out/result.json" ] && [ -z "$(squeue -h 2>/dev/null)" ] && break
    sleep 1
done
[ -s "$out/result.json" ] || { echo "error: no merged result; logs in $dir" >&2; squeue >&2; exit 1; }
cat "$out/result.json"
restarts="$(scontrol show job "${array}_$requeued" | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p')"
resumed="$(sed -n 's/^ *resumed *//p' "$out/shard-$requeued.log")"
echo "== the requeued task's second run: resumed $resumed"
python3 - "$out/result.json" "$restarts" "$resumed" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
restarts = int(sys.argv[2] or 0)
resumed = sys.argv[3]
problems = []
if r.get("matches_oeis") is not True:
    problems.append(f"total {r['total']} does not match A000170 ({r.get('oeis_total')})")
if r.get("matches_oeis_unique") is not True:
    problems.append(f"unique {r.get('unique')} does not match A002562 ({r.get('oeis_unique')})")
if restarts < 1:
    problems.append("the requeued task did not run again (Restarts=0)")
elif "items done before, from the journal" not in resumed:
    problems.append(f"the requeued task did not resume its journal (resumed: {resumed!r})")
if problems:
    sys.exit("slurm-test FAILED: " + "; ".join(problems))
print(f"slurm-test passed: total {r['total']}, unique {r['unique']}, requeued task ran {restarts + 1} times")
EOF
passed=yes
