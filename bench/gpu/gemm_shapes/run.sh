#!/usr/bin/env bash
# GEMM shape exploration (h1, issue 13).  Build here, run on the GPU machine:
#
#   bench/gpu/gemm_shapes/run.sh build   # hand kernels + translated recipe variants into
#                                        # bench/gpu_build/gemm_shapes/ (carry that path)
#   bench/gpu/gemm_shapes/run.sh run     # on the device: times all at n=4096, registers, cuBLAS
#
# shapes.c times each kernel of a manifest (OpenCL event profiling, mean of 10 calls after one
# warm-up), checks 4 rows against a CPU product and can dump the program binary (PTX on NVIDIA).
set -euo pipefail
here=$(cd "$(dirname "$0")/../../.." && pwd)
build=$here/bench/gpu_build/gemm_shapes
case "${1:-}" in
build)
  rm -rf "$build"; mkdir -p "$build"
  cp "$here"/bench/gpu/gemm_shapes/shapes.c "$here"/bench/gpu/references.py "$build/"
  (cd "$build" && python3 "$here/bench/gpu/gemm_shapes/hand.py")
  python3 "$here/bench/gpu/gemm_shapes/recipes.py" "$build"
  "${TRANSLATE:-$here/.venv/bin/translate}" "$build/recipes.c" -o "$build/out" -Wno-uncoalesced
  cp "$build/out/recipes.cl" "$build/"
  cat "$build/manifest.txt" >> "$build/all.txt"
  ;;
run)
  mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/icd TRANSLATE_DEVICE=gpu
  cd "$build"
  gcc -O2 -std=gnu99 shapes.c -lOpenCL -o shapes
  mkdir -p /tmp/ptx
  ./shapes all.txt 4096 10 /tmp/ptx
  # registers per kernel: the PTX loaded through CuPy (the same ptxas as the driver's JIT)
  python3 -c '
import cupy as cp, glob, os
for f in sorted(glob.glob("/tmp/ptx/*.ptx")):
    name = os.path.basename(f)[:-4]
    fn = cp.RawModule(path=f).get_function(name)
    print("regs", name, fn.num_regs, "spill bytes", fn.local_size_bytes)'
  python3 references.py only=gemm
  ;;
*) echo "usage: $0 build|run" >&2; exit 2 ;;
esac
