#!/usr/bin/env bash
# bench/matmul/run.sh build   (here: translate + compile into bench/gpu_build/matmul)
# bench/matmul/run.sh run     (GPU machine: translated kernels via NVIDIA OpenCL, then CuPy refs)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=$here/bench/gpu_build/matmul
case "${1:-}" in
build)
  mkdir -p "$out"; cd "$out"
  RT=$("$here/.venv/bin/translate" --runtime-dir)
  "$here/.venv/bin/translate" "$here/bench/matmul/matmul_bench.c" -o tr
  gcc -O2 -std=c99 tr/matmul_bench.c tr/matmul_bench.host.c "$RT/translate_rt.c" -I"$RT" \
      -lOpenCL -lm -o matmul_bench
  gcc -O2 "$here/bench/matmul/handwritten_cl.c" -lOpenCL -o handwritten_cl
  rm -rf tr ;;
run)
  mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/icd TRANSLATE_DEVICE=gpu TRANSLATE_PROFILE=1
  "$out/matmul_bench"
  "$out/handwritten_cl" 2048
  python3 "$here/bench/matmul/cupy_ref.py" 2048 ;;
*) echo "usage: $0 build|run" >&2; exit 2 ;;
esac
