#!/usr/bin/env bash
# The staging effect and the per-call floor, in one device call (issue 13):
#   bench/staging/probe.sh build DIR   # here: the probes, floors, and stream/stencil/overhead
#                                      # translated with this checkout (bench/gpu/run.sh build)
#   bash DIR/probe.sh run DIR          # GPU machine (carry DIR): everything below, in one go
# Prints: GPU clocks while it runs (clocks.txt), probe.c's event stamps per variant, the floors
# of one tiny region call (raw OpenCL, CUDA, CuPy) next to the runtime's (overhead.c), a gprof
# profile of the runtime's share, and stream/stencil (resident and copies) against CuPy/CUDA,
# with the default staging and with TRANSLATE_STAGING=off.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
dir=${2:?usage: $0 build|run DIR}
case "$1" in
build)
  rm -rf "$dir"; mkdir -p "$dir"
  cp "$here"/bench/staging/{probe.c,floor_cl.c,floor_cuda.cu,floor_cupy.py,probe.sh} "$dir/"
  cp "$here/bench/gpu/run.sh" "$dir/run.sh"
  SUITE=$dir/suite bash "$here/bench/gpu/run.sh" build
  for stem in gemm polybench; do rm -rf "$dir/suite/$stem"; done
  # stream with main's runtime, for the staging effect before and after, in the same run
  mkdir -p "$dir/suite_main/rt"; cp -r "$dir/suite/stream" "$dir/suite/compare.py" \
      "$dir/suite/references.py" "$dir/suite_main/"
  for f in c h; do
    git -C "$here" show "main:translator/runtime/translate_rt.$f" \
        > "$dir/suite_main/rt/translate_rt.$f"
  done
  # the runtime without the clFlush after a call on present data (to price that flush)
  mkdir -p "$dir/rt_noflush"; cp "$dir/suite/rt/translate_rt.h" "$dir/rt_noflush/"
  sed 's/check(call->region, clFlush(rt.queue), "clFlush");/;/' "$dir/suite/rt/translate_rt.c" \
      > "$dir/rt_noflush/translate_rt.c"
  ! cmp -s "$dir/suite/rt/translate_rt.c" "$dir/rt_noflush/translate_rt.c" ;;
run)
  dir=$(cd "$dir" && pwd); cd "$dir"
  mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/icd TRANSLATE_DEVICE=gpu
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,pstate --format=csv,noheader \
      -lms 200 > "${OUT:-/tmp}/clocks.txt" 2>&1 &
  smi=$!
  gcc -O2 -std=gnu99 probe.c -lOpenCL -lpthread -o probe
  gcc -O2 -std=gnu99 floor_cl.c -lOpenCL -o floor_cl
  nvcc -O2 floor_cuda.cu -o floor_cuda || echo "nvcc failed"
  s=suite/overhead rt=suite/rt
  gcc -O2 -std=gnu99 -I$rt $s/overhead.c $s/overhead.host.c $rt/translate_rt.c -lOpenCL \
      -lpthread -o overhead
  gcc -O2 -std=gnu99 -Irt_noflush $s/overhead.c $s/overhead.host.c rt_noflush/translate_rt.c \
      -lOpenCL -lpthread -o overhead_noflush
  gcc -O2 -pg -std=gnu99 -I$rt $s/overhead.c $s/overhead.host.c $rt/translate_rt.c -lOpenCL \
      -lpthread -o overhead_pg
  echo "== probe $(date +%s.%N)"; ./probe 25 4; echo "== probe end $(date +%s.%N)"
  echo "== floors"
  for k in 1 2; do
    ./floor_cl 100000; [ -x floor_cuda ] && ./floor_cuda 100000; ./overhead 100000
    ./overhead_noflush 100000 | sed 's/^/noflush /'
  done
  python3 floor_cupy.py 100000 || echo "floor_cupy failed"
  echo "== gprof (runtime's own functions while overhead runs)"
  ./overhead_pg 100000 && gprof -b -p overhead_pg gmon.out | head -25 || true
  mkdir -p def off old
  echo "== suite, staging default $(date +%s.%N)"
  SUITE=$dir/suite REFS_ARGS=only=stream,stencils OUT=$dir/def bash run.sh run 2>&1 \
      | grep -v '^profile' || true
  echo "== suite, TRANSLATE_STAGING=off $(date +%s.%N)"
  TRANSLATE_STAGING=off SUITE=$dir/suite REFS_ARGS=only=none OUT=$dir/off \
      bash run.sh run 2>&1 | grep -v '^profile' || true
  echo "== stream with main's runtime, staging default $(date +%s.%N)"
  SUITE=$dir/suite_main REFS_ARGS=only=stream OUT=$dir/old bash run.sh run 2>&1 \
      | grep -v '^profile' || true
  echo "== end $(date +%s.%N)"
  kill $smi || true
  for v in def off old; do cp $v/gpu_suite.txt "${OUT:-/tmp}/suite_$v.txt" || true; done ;;
*) echo "usage: $0 build|run DIR" >&2; exit 2 ;;
esac
