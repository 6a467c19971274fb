#!/bin/sh
# The GPU check of docs/gpu.md, run on a GPU host that has no network, no npm and no Node:
# the offline pack is how inferbench gets there.
#
#   tools/gpu-check.sh PACK.tar.xz DEB_DIR OUT_DIR
#
# PACK.tar.xz  `npm run pack:offline -- --engines onnx-cpu,onnx-webgpu,transformers-js-webgpu,tfjs-webgpu --out PACK.tar.xz`
# DEB_DIR      Debian's libvulkan1 .deb (and glvnd's, for the NVIDIA ICD), unpacked into / when the host lacks the loader
# OUT_DIR      gets check.log (everything printed), run-CONFIG.tar.gz, run-CONFIG-text.tar.gz and run-default.tar.gz (the run folders) and torch.jsonl
#
# Steps: the Vulkan loader; the NVIDIA ICD (VK_ICD_FILENAMES, set here by the user's script,
# never by inferbench); `inferbench engines`; the CONFIG sweep (default bert-base, seq 128,
# batches 1,8,32) with onnx-cpu beside the WebGPU engines; the PyTorch reference on the same
# generated weights (tools/torch-reference.py); the same model on the dataset's text for
# transformers-js-webgpu (it skips synthetic inputs) beside onnx-webgpu; the default sweep.
# Each step has its own time limit so that one hang still leaves the rest and the logs.
#
# Environment (for a dry run on a machine without a GPU): GPU_CHECK_ICD (an ICD file instead of
# NVIDIA's), GPU_CHECK_CONFIG, GPU_CHECK_BATCHES, GPU_CHECK_LIMIT, GPU_CHECK_SKIP_DEFAULT=1, PYTHON.
set -u
PACK=$1 DEBS=$2 OUT=$3
CONFIG=${GPU_CHECK_CONFIG:-bert-base}
BATCHES=${GPU_CHECK_BATCHES:-1,8,32}
LIMIT=${GPU_CHECK_LIMIT:-32}
PY=${PYTHON:-python3}
HERE=$(cd "$(dirname "$0")" && pwd)
ENGINES=onnx-cpu,onnx-webgpu,transformers-js-webgpu,tfjs-webgpu
WORK=$(mktemp -d /tmp/gpu-check.XXXXXX)
mkdir -p "$OUT"
exec >"$OUT/check.log" 2>&1
start=$(date +%s)
step() { echo; echo "== [$(( $(date +%s) - start )) s] $*"; }

step "host"
uname -srm
nvidia-smi --query-gpu=name,driver_version,memory.total,power.limit --format=csv 2>&1 || echo "no nvidia-smi"
nproc

step "Vulkan loader"
# Debian's libvulkan1 (and glvnd, which NVIDIA's ICD loads through) into /, as the device README does.
for f in "$DEBS"/*.deb; do dpkg -x "$f" /; done
ldconfig
ldconfig -p | grep libvulkan.so.1 || echo "no libvulkan.so.1"
ICD=${GPU_CHECK_ICD:-}
if [ -z "$ICD" ]; then
  for f in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
    [ -f "$f" ] && { ICD=$f; break; }
  done
fi
echo "ICD: ${ICD:-none found}"
[ -n "$ICD" ] && cat "$ICD"
export VK_ICD_FILENAMES="$ICD" VK_DRIVER_FILES="$ICD"
[ -f /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ] && export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json

step "unpack"
tar -xJf "$PACK" -C "$WORK"
IB="$WORK/inferbench/inferbench"
export INFERBENCH_CACHE="$WORK/cache"
du -sh "$WORK/inferbench"

step "engines"
timeout 120 "$IB" engines --wide

step "$CONFIG sweep"
timeout 240 "$IB" run --config "$CONFIG" --sequence-lengths 128 --batch-sizes "$BATCHES" --limit "$LIMIT" \
  --rounds 2 --min-time 0.5 --min-batches 10 --max-time 8 --engines "$ENGINES" --wide --out "$WORK/runs/$CONFIG"
echo "exit $?"
tar -czf "$OUT/run-$CONFIG.tar.gz" -C "$WORK/runs" "$CONFIG"

step "PyTorch reference"
MODEL=$(ls -d "$INFERBENCH_CACHE"/models/arch-"$CONFIG"-* 2>/dev/null | head -n 1)
echo "model: $MODEL"
[ -n "$MODEL" ] && PYTHONUNBUFFERED=1 timeout 90 "$PY" "$HERE/torch-reference.py" "$MODEL" --batch-sizes "$BATCHES" | tee "$OUT/torch.jsonl"

# transformers.js runs its pipeline on raw text, so it skips synthetic --sequence-lengths cells: the same model on the
# dataset's text, with onnx-webgpu beside it on the same rows.
step "$CONFIG text sweep"
timeout 120 "$IB" run --config "$CONFIG" --batch-sizes "$BATCHES" --limit "$LIMIT" --rounds 2 --min-time 0.5 --min-batches 10 \
  --max-time 8 --engines onnx-webgpu,transformers-js-webgpu --wide --out "$WORK/runs/$CONFIG-text"
echo "exit $?"
tar -czf "$OUT/run-$CONFIG-text.tar.gz" -C "$WORK/runs" "$CONFIG-text"

if [ "${GPU_CHECK_SKIP_DEFAULT:-}" != 1 ]; then
  step "default sweep"
  timeout 120 "$IB" run --engines "$ENGINES" --wide --out "$WORK/runs/default"
  echo "exit $?"
  tar -czf "$OUT/run-default.tar.gz" -C "$WORK/runs" default
fi

step "files"
ls -la "$OUT"
step "done"
