#!/usr/bin/env bash
# The whole GPU suite with this checkout's runtime, and the staging effect before and after the
# held last chunk, in one device call (issue 13):
#   bench/staging/final.sh build DIR   # here
#   bash DIR/final.sh run DIR          # GPU machine (carry DIR)
# Runs: probe.c (event stamps of a kernel after each kind of copy, with the held chunk),
# the per-call floors (raw OpenCL, CUDA), the whole suite (bench/gpu/run.sh: every program,
# every reference), then stream and stencil again with TRANSLATE_STAGING=off and with main's
# runtime (their _copies rows show the kernel right after each call's copies).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
dir=${2:?usage: $0 build|run DIR}
case "$1" in
build)
  rm -rf "$dir"; mkdir -p "$dir"
  cp "$here"/bench/staging/{probe.c,floor_cl.c,floor_cuda.cu,final.sh} "$dir/"
  cp "$here/bench/gpu/run.sh" "$dir/run.sh"
  SUITE=$dir/suite bash "$here/bench/gpu/run.sh" build
  for v in off main; do
    mkdir -p "$dir/suite_$v"
    cp -r "$dir/suite/stream" "$dir/suite/stencil" "$dir/suite/rt" "$dir/suite/compare.py" \
        "$dir/suite/references.py" "$dir/suite_$v/"
  done
  for f in c h; do
    git -C "$here" show "main:translator/runtime/translate_rt.$f" \
        > "$dir/suite_main/rt/translate_rt.$f"
  done ;;
run)
  dir=$(cd "$dir" && pwd); cd "$dir"
  mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/icd TRANSLATE_DEVICE=gpu
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc; date -u
  gcc -O2 -std=gnu99 probe.c -lOpenCL -lpthread -o probe
  gcc -O2 -std=gnu99 floor_cl.c -lOpenCL -o floor_cl
  nvcc -O2 floor_cuda.cu -o floor_cuda || echo "nvcc failed"
  echo "== probe"; ./probe 25 3
  echo "== floors"; ./floor_cl 100000; [ -x floor_cuda ] && ./floor_cuda 100000
  mkdir -p all off old
  echo "== suite (this runtime, default staging) $(date -u +%T)"
  SUITE=$dir/suite OUT=$dir/all bash run.sh run 2>&1 | grep -v '^profile' || true
  echo "== stream, stencil with TRANSLATE_STAGING=off $(date -u +%T)"
  TRANSLATE_STAGING=off SUITE=$dir/suite_off REFS_ARGS=only=none OUT=$dir/off bash run.sh run \
      2>&1 | grep -v '^profile' || true
  echo "== stream, stencil with main's runtime (default staging) $(date -u +%T)"
  SUITE=$dir/suite_main REFS_ARGS=only=none OUT=$dir/old bash run.sh run 2>&1 \
      | grep -v '^profile' || true
  echo "== end $(date -u +%T)"
  for v in all off old; do cp $v/gpu_suite.txt "${OUT:-/tmp}/suite_$v.txt" || true; done ;;
*) echo "usage: $0 build|run DIR" >&2; exit 2 ;;
esac
