#!/usr/bin/env bash
# bench/staging/run.sh build DIR  (here: translate overhead.c, heat, heat_data into DIR; copy the
#                                  runtime of this checkout and, for comparison, main's runtime)
# bench/staging/run.sh run DIR    (GPU machine: host cost per call, old and new runtime; copy
#                                  bandwidth with and without pinned staging; heat and heat_data
#                                  with staging off and on, against OpenMP, in one go)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
dir=${2:?usage: $0 build|run DIR}
case "$1" in
build)
  python=${PYTHON:-/work/main/.venv/bin/python}
  mkdir -p "$dir/rt" "$dir/rt_main" "$dir/ov"
  RT=$(PYTHONPATH=$here "$python" -m translator.cli --runtime-dir)
  cp "$RT/translate_rt.c" "$RT/translate_rt.h" "$dir/rt/"
  git -C "$here" show main:translator/runtime/translate_rt.c > "$dir/rt_main/translate_rt.c"
  git -C "$here" show main:translator/runtime/translate_rt.h > "$dir/rt_main/translate_rt.h"
  PYTHONPATH=$here "$python" -m translator.cli "$here/bench/gpu/overhead.c" -o "$dir/ov"
  cp "$here/bench/staging/xfer.c" "$here/bench/staging/run.sh" "$dir/"
  PYTHON=$python bash "$here/bench/heat/run.sh" build "$dir/heat"
  PYTHON=$python bash "$here/bench/heat_data/run.sh" build "$dir/heat_data"
  cp "$dir/rt/"translate_rt.[ch] "$dir/heat/"; cp "$dir/rt/"translate_rt.[ch] "$dir/heat_data/" ;;
run)
  cd "$dir"
  for v in rt rt_main; do
    gcc -O2 -std=gnu99 -I$v ov/overhead.c ov/overhead.host.c $v/translate_rt.c -lOpenCL \
        -o overhead_$v
  done
  gcc -O2 -std=gnu99 -Irt xfer.c rt/translate_rt.c -lOpenCL -o xfer
  mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/icd TRANSLATE_DEVICE=gpu
  nproc; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
  echo "== overhead (main runtime, then this one, then this one with TRANSLATE_SYNC=1)"
  ./overhead_rt_main 100000 | sed 's/^/main /'
  ./overhead_rt 100000 | sed 's/^/new /'
  TRANSLATE_SYNC=1 ./overhead_rt 100000 | sed 's/^/new+sync /'
  echo "== copy bandwidth"
  TRANSLATE_STAGING=off ./xfer pageable
  ./xfer default
  echo "== heat (time loop in one region) and heat_data (host time loop in a data region)"
  for b in heat:heat_bench heat_data:heat_data; do
    d=${b%%:*} s=${b#*:}
    gcc -O3 -std=gnu99 -I$d $d/tr/$s.c $d/tr/$s.host.c $d/translate_rt.c -lOpenCL -lm \
        -o $d/heat_translated
    gcc -O3 -std=gnu99 -fopenmp -DUSE_OMP $d/$s.c -Wno-unknown-pragmas -o $d/heat_omp
  done
  for b in heat heat_data; do
    exe=$b/heat_translated
    for k in 1 2 3; do TRANSLATE_STAGING=off ./$exe 100 $b-pageable; done
    for k in 1 2 3; do ./$exe 100 $b-default; done
    TRANSLATE_PROFILE=1 ./$exe 100 $b-default+profile
    for k in 1 2 3; do OMP_NUM_THREADS=16 OMP_PROC_BIND=close ./$b/heat_omp 100 $b-openmp16; done
  done ;;
*) echo "usage: $0 build|run DIR" >&2; exit 2 ;;
esac
