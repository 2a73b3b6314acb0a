#!/usr/bin/env bash
# Float division and sqrt on the OpenCL device against gcc (bench/RESULTS.md, "Float division
# and square root on NVIDIA").  Build here, run on the GPU machine:
#
#   bench/gpu/fdiv/run.sh build DIR   # fdiv_check.c, and fdiv.c: gcc's program and the
#                                     # translated one linked with this checkout's runtime
#   bash DIR/run.sh run               # on the device (NVIDIA's ICD only)
set -euo pipefail
here=$(cd "$(dirname "$0")/../../.." && pwd)
case "${1:-}" in
build)
  dir=${2:?build folder}; rm -rf "$dir"; mkdir -p "$dir"
  src=$here/bench/gpu/fdiv
  cp "$src/fdiv_check.c" "$0" "$dir/"
  gcc -O2 "$src/fdiv.c" -lm -o "$dir/fdiv_orig"
  "$here/.venv/bin/translate" "$src/fdiv.c" -o "$dir/out"
  rt=$("$here/.venv/bin/translate" --runtime-dir)
  gcc -O2 "$dir/out/fdiv.c" "$dir/out/fdiv.host.c" "$rt/translate_rt.c" -I"$rt" -lOpenCL -lm \
      -o "$dir/fdiv_translated"
  ;;
run)
  cd "$(dirname "$0")"
  mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/icd OCL_ICD_FILENAMES=libnvidia-opencl.so.1 TRANSLATE_DEVICE=gpu
  export TRANSLATE_KERNEL_CACHE=off
  gcc -O2 fdiv_check.c -lOpenCL -lm -o fdiv_check && ./fdiv_check 16777216
  echo "gcc:        $(./fdiv_orig)"
  echo "translated: $(./fdiv_translated)"
  ;;
*) echo "usage: $0 build DIR | run" >&2; exit 2 ;;
esac
