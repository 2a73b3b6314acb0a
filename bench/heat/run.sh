#!/usr/bin/env bash
# bench/heat/run.sh build DIR   (here: translate into DIR, copy the runtime and this script)
# bench/heat/run.sh run DIR     (GPU machine: compile the three builds, run them in one go)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
dir=${2:?usage: $0 build|run DIR}
case "$1" in
build)
  mkdir -p "$dir/tr"
  python=${PYTHON:-$here/.venv/bin/python}
  RT=$(PYTHONPATH=$here "$python" -m translator.cli --runtime-dir)
  PYTHONPATH=$here "$python" -m translator.cli "$here/bench/heat/heat_bench.c" -o "$dir/tr"
  cp "$RT/translate_rt.c" "$RT/translate_rt.h" "$here/bench/heat/heat_bench.c" "$dir/"
  cp "$here/bench/heat/run.sh" "$dir/" ;;
run)
  cd "$dir"
  gcc -O3 -std=gnu99 -I. tr/heat_bench.c tr/heat_bench.host.c translate_rt.c -lOpenCL -lm \
      -o heat_translated
  gcc -O3 -std=gnu99 -fopenmp -DUSE_OMP heat_bench.c -Wno-unknown-pragmas -o heat_omp
  gcc -O3 -std=gnu99 heat_bench.c -Wno-unknown-pragmas -o heat_serial
  mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/icd TRANSLATE_DEVICE=gpu TRANSLATE_VERBOSE=1
  nproc; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
  for k in 1 2 3; do ./heat_translated 100 translated; done
  TRANSLATE_PROFILE=1 ./heat_translated 100 translated+profile
  for k in 1 2 3; do OMP_NUM_THREADS=16 OMP_PROC_BIND=close ./heat_omp 100 openmp16; done
  ./heat_serial 100 serial ;;
*) echo "usage: $0 build|run DIR" >&2; exit 2 ;;
esac
