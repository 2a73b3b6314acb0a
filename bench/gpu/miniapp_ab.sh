#!/usr/bin/env bash
# Times two builds of the translated mini-app against each other on the GPU machine, runs
# alternating, and OpenMP-16 once per case (h44): for each size of SIZES and step count of
# STEPS_LIST, REPS runs of each variant; prints every run's wall seconds and each variant's
# median and minimum.
#
#   bench/gpu/miniapp_ab.sh DIR 'NAME=CMD' 'NAME=CMD' ...
#
# DIR holds what bench/gpu/miniapp_prepare.sh built (its libraries go on LD_LIBRARY_PATH); a
# CMD is run with the size and the steps appended, e.g. 'new=./miniapp_ocl' or
# 'sync=env TRANSLATE_EARLY_INIT=0 ./miniapp_ocl' (run from DIR).  OMP=0 skips OpenMP-16.
set -uo pipefail
dir=$(cd "$1" && pwd); shift
sizes=${SIZES:-960}
steps_list=${STEPS_LIST:-0 500}
reps=${REPS:-5}
cd "$dir"
export LD_LIBRARY_PATH=$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OCL_ICD_FILENAMES=${OCL_ICD_FILENAMES:-libnvidia-opencl.so.1}
if [ -z "${OCL_ICD_VENDORS:-}" ]; then   # NVIDIA's ICD only (see miniapp.sh)
  mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/icd
fi
export TRANSLATE_DEVICE=${TRANSLATE_DEVICE:-gpu}
secs() {    # secs CMD...: runs CMD (output to /tmp/miniapp_ab.out), prints wall seconds
  local t0 t1
  t0=$(date +%s.%N); "$@" > /tmp/miniapp_ab.out 2> /tmp/miniapp_ab.err || echo "FAILED: $*" >&2
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f", b - a}'
}
stats() {   # stats V...: median and minimum
  printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
    printf "median %.4f min %.4f", m, v[1]}'
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
for n in $sizes; do
  for steps in $steps_list; do
    if [ "${OMP:-1}" != 0 ]; then
      echo "$n x $steps omp16 $(OMP_NUM_THREADS=16 OMP_PROC_BIND=close secs ./miniapp_omp "$n" "$steps")"
    fi
    declare -A times=()
    for ((r = 0; r < reps; ++r)); do
      for v in "$@"; do
        name=${v%%=*}
        # shellcheck disable=SC2086
        t=$(secs ${v#*=} "$n" "$steps")
        times[$name]="${times[$name]:-} $t"
      done
    done
    for v in "$@"; do
      name=${v%%=*}
      # shellcheck disable=SC2086
      echo "$n x $steps $name: ${times[$name]} | $(stats ${times[$name]})"
    done
    unset times
  done
done
