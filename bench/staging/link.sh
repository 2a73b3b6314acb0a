#!/usr/bin/env bash
# Copies at the link's rate (issue 23 item 1, h38), one device call:
#   bench/staging/link.sh build DIR   # here: link.c, heat_data translated with this checkout
#   bash DIR/link.sh run DIR          # GPU machine (carry DIR): link.c's figures, then heat_data
#                                     # with 0 steps (the data region alone) and 100 steps under
#                                     # staging settings, OpenMP-16, and the profiled figure
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
dir=${2:?usage: $0 build|run DIR}
case "$1" in
build)
  rm -rf "$dir"; mkdir -p "$dir"
  cp "$here"/bench/staging/{link.c,link.sh} "$dir/"
  PYTHON=${PYTHON:-$here/.venv/bin/python} bash "$here/bench/heat_data/run.sh" build "$dir/heat"
  # main's runtime with the same translation, for the baseline in the same run
  mkdir -p "$dir/rt_main"
  for f in c h; do git -C "$here" show "main:translator/runtime/translate_rt.$f" \
      > "$dir/rt_main/translate_rt.$f"; done ;;
run)
  dir=$(cd "$dir" && pwd); cd "$dir"
  mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/icd OCL_ICD_FILENAMES=libnvidia-opencl.so.1 TRANSLATE_DEVICE=gpu
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/machine /'
  nproc
  gcc -O2 -std=gnu99 link.c -lOpenCL -lpthread -ldl -o link_bench
  gcc -O3 -std=gnu99 -Iheat heat/tr/heat_data.c heat/tr/heat_data.host.c heat/translate_rt.c \
      -lOpenCL -lm -lpthread -ldl -o heat_tr
  gcc -O3 -std=gnu99 -fopenmp -DUSE_OMP heat/heat_data.c -Wno-unknown-pragmas -o heat_omp
  gcc -O3 -std=gnu99 -Irt_main heat/tr/heat_data.c heat/tr/heat_data.host.c \
      rt_main/translate_rt.c -lOpenCL -lm -lpthread -o heat_main
  case "${LINK:-all}" in all) ./link_bench 3 ;; cuda|queues|create) ./link_bench 3 "$LINK" ;; esac
  for v in ${VARIANTS:-default}; do   # NAME[:ENV=VALUE,ENV=VALUE]; NAME main*: main's runtime
    envs=""; [[ "$v" == *:* ]] && envs=$(echo "${v#*:}" | tr ',' ' ')
    exe=./heat_tr; [[ "$v" == main* ]] && exe=./heat_main
    for s in 0 0 0 100 100 100; do env $envs $exe $s "${v%%:*}"; done
    env $envs TRANSLATE_PROFILE=1 $exe 100 "${v%%:*}+profile" 2>&1 | grep -v '^  \|^hint'
  done
  for k in 1 2 3; do OMP_NUM_THREADS=16 OMP_PROC_BIND=close ./heat_omp 100 openmp16; done ;;
*) echo "usage: $0 build|run DIR" >&2; exit 2 ;;
esac
