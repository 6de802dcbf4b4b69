#!/usr/bin/env bash
# The GPU pair counter against the CPU on a machine with an NVIDIA GPU and
# 16 cores and no Rust toolchain (the device machine): n = 16..22 counted
# with --gpu, n = 16..21 on 16 CPU threads, each command under a timeout
# inside the machine's 10 minutes a call. Writes OUT_DIR/summary.csv (n,
# mode, seconds, exact, adapter, pairs on the GPU, GPU busy share, GPU
# pairs a second), each count's JSON, the last board's `estimate --gpu`
# JSON, and machine.txt.
#
# Here:   cargo build --release --features gpu
#         mkdir -p .gpu-bin && cp target/release/nqueens .gpu-bin/
#         (and once, the Vulkan loader: /work/.library/device/README.md,
#         the .gl folder of .deb files)
# There:  scripts/device-gpu.sh .gpu-bin/nqueens "$OUT" [gpu|cpu|both] [LAST_N]
#         (carry .gpu-bin and .gl)
#
# It refuses to time a software adapter (llvmpipe, lavapipe, SwiftShader):
# NQUEENS_ALLOW_SOFTWARE=1 runs it anyway, for a dry run of the script
# itself at small n (`... both 14`), never for figures.
set -euo pipefail
binary="${1:?usage: device-gpu.sh BINARY OUT_DIR [gpu|cpu|both] [LAST_N]}"
out="${2:?usage: device-gpu.sh BINARY OUT_DIR [gpu|cpu|both] [LAST_N]}"
modes="${3:-both}"
last="${4:-22}"
limit_s="${NQUEENS_DEVICE_LIMIT_S:-540}"
mkdir -p "$out"

# The Vulkan loader, unpacked where the machine has none.
if ! ldconfig -p | grep -q libvulkan.so.1 && compgen -G ".gl/*.deb" >/dev/null; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
fi
nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -f "$nvidia_icd" ] && [ -z "${VK_DRIVER_FILES:-}" ]; then
    export VK_DRIVER_FILES="$nvidia_icd"
fi
# Mesa prints an error line at every start without it.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"

{
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "binary: $("$binary" --version 2>/dev/null | head -1)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
    echo "cores: $(getconf _NPROCESSORS_ONLN)"
    nvidia-smi -L 2>/dev/null || echo "nvidia-smi: none"
} >"$out/machine.txt"

adapter=$("$binary" count 12 --gpu --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["gpu"]["adapter"])')
echo "adapter: $adapter" >>"$out/machine.txt"
case "$adapter" in
*llvmpipe* | *lavapipe* | *SwiftShader* | *softpipe*)
    if [ "${NQUEENS_ALLOW_SOFTWARE:-0}" != 1 ]; then
        echo "device-gpu.sh: $adapter is a software adapter: no figures from it" >&2
        exit 2
    fi
    ;;
esac

echo "n,mode,seconds,exact,adapter,gpu_pairs,gpu_busy,gpu_pairs_per_s" >"$out/summary.csv"
# One count: its JSON kept, its line in the summary; a count past the
# timeout ends the sweep of that mode (the next board takes longer).
count() {
    local n=$1 mode=$2
    shift 2
    local json="$out/$mode-$n.json"
    if ! timeout "$limit_s" "$binary" count "$n" --json "$@" >"$json"; then
        echo "$n,$mode,timeout>${limit_s},,,,," >>"$out/summary.csv"
        return 1
    fi
    python3 - "$json" "$n" "$mode" >>"$out/summary.csv" <<'EOF'
import json, sys
path, n, mode = sys.argv[1:]
c = json.load(open(path))
gpu = c.get("gpu") or {}
pairs = gpu.get("pairs", 0)
rate = pairs / c["elapsed_s"] if c["elapsed_s"] > 0 else 0
print(f'{n},{mode},{c["elapsed_s"]:.3f},{c["matches_oeis"]},"{gpu.get("adapter", "")}",'
      f'{pairs},{gpu.get("busy", 0):.3f},{rate:.4g}')
EOF
}

if [ "$modes" != cpu ]; then
    for n in $(seq 16 "$last"); do count "$n" gpu --gpu --threads 16 || break; done
    # The forecast of the last board on the GPU (about 20 s), to set
    # against its count above.
    timeout "$limit_s" "$binary" estimate "$last" --gpu --threads 16 --json \
        >"$out/estimate-gpu-$last.json" || echo "estimate $last --gpu failed" >&2
fi
if [ "$modes" != gpu ]; then
    for n in $(seq 16 $((last < 21 ? last : 21))); do count "$n" cpu --threads 16 || break; done
fi
cat "$out/summary.csv"
