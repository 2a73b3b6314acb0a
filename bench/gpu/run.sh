#!/usr/bin/env bash
# GPU benchmark suite: translated kernels next to references (CuPy, raw CUDA, cuBLAS), same run.
#
#   bench/gpu/run.sh build   # here: translates every bench/gpu/*.c into bench/gpu_build/suite/
#   bench/gpu/run.sh run     # on the GPU machine: compiles, runs, prints kernel-time ratios
#
# stream and stencil run twice: "resident" (their calls inside a data region: the arrays stay
# on the device, as in the references; kernel time for the ratios) and "copies" (plain calls
# copying their arrays in and out: rows PROGRAM_copies, and the end-to-end time per call).
# REFS_ARGS passes arguments to references.py (e.g. only=stream,stencils).  PROGRAMS (a space
# list of bench/gpu/*.c stems) builds and runs only those, e.g. the dense linear algebra of
# issue 23 against cuBLAS in one run:
#   PROGRAMS=polybench REFS_ARGS=only=polybench bench/gpu/run.sh build|run
#
# The device tool sends the checkout; carry bench/gpu_build (ignored by git).  Kernel time of
# the translated programs comes from TRANSLATE_PROFILE=1 (OpenCL event profiling), of the
# references from CUDA events; end-to-end times (with transfers) are printed separately.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
suite=${SUITE:-$here/bench/gpu_build/suite}   # SUITE: another build folder (a subset)
# program, arguments (sizes and repetitions): defaults match references.py
declare -A ARGS=([stream]="25 20" [stencil]="8192 4096 512 10" [gemm]="4096 5"
                 [polybench]="2048 16384 4096 10 256 10 3" [overhead]="100000"
                 [halo_update]="2000")
# polybench: regions the report calls sequential (one work item) would take minutes at these
# sizes; the run passes the others as polybench's region list and says which it skipped.
sequential_regions() {   # names, one a line
  grep -B1 '^  mapping: sequential' "$1" | awk '/^region /{print $2}' | sort || true
}
other_regions() {        # the report's regions not in sequential_regions, comma-separated
  comm -23 <(awk '/^region /{print $2}' "$1" | sort) <(sequential_regions "$1") | paste -sd, -
}
translate() {   # this checkout's translator (its .venv, else PYTHON with PYTHONPATH=here)
  if [ -x "$here/.venv/bin/translate" ]; then "$here/.venv/bin/translate" "$@"
  else PYTHONPATH=$here "${PYTHON:-python3}" -m translator.cli "$@"; fi
}
wanted() {      # whether program $1 is in PROGRAMS (all when PROGRAMS is unset)
  [ -z "${PROGRAMS:-}" ] || [[ " $PROGRAMS " == *" $1 "* ]]
}
case "${1:-}" in
build)
  rm -rf "$suite"; mkdir -p "$suite/rt"
  RT=$(translate --runtime-dir)
  cp "$RT"/translate_rt.[ch] "$suite/rt/"
  for src in "$here"/bench/gpu/*.c; do
    stem=$(basename "$src" .c)
    wanted "$stem" || continue
    mkdir -p "$suite/$stem"
    translate "$src" -o "$suite/$stem" --report 2> "$suite/$stem/report.txt"
  done
  cp "$here"/bench/gpu/references.py "$here"/bench/gpu/compare.py "$suite/"
  ;;
run)
  mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/icd TRANSLATE_DEVICE=${TRANSLATE_DEVICE:-gpu}
  out=${OUT:-/tmp}/gpu_suite.txt; : > "$out"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/machine /' | tee -a "$out"
  for dir in "$suite"/*/; do
    stem=$(basename "$dir"); [ "$stem" = rt ] && continue
    wanted "$stem" || continue
    gcc -O2 -std=gnu99 "$dir/$stem.c" "$dir/$stem.host.c" "$suite/rt/translate_rt.c" \
        -I"$suite/rt" -lOpenCL -lm -o "$dir/prog"
    args=${ARGS[$stem]:-}
    if [ "$stem" = polybench ]; then
      seq=$(sequential_regions "$dir/report.txt")
      if [ -n "$seq" ]; then
        echo "note $stem skipped sequential regions: $(echo $seq)" | tee -a "$out"
        args="$args $(other_regions "$dir/report.txt")"
      fi
    fi
    # overhead and halo_update time host calls: profiling would wait for every event
    profile=1; case $stem in overhead|halo_update) profile=0 ;; esac
    start=$(date +%s.%N)
    TRANSLATE_PROFILE=$profile "$dir/prog" $args > "$dir/stdout.txt" 2> "$dir/profile.txt"
    end=$(date +%s.%N)
    echo "e2e $stem $(python3 -c "print(round($end - $start, 3))")" | tee -a "$out"
    grep '^overhead\|^halo_update' "$dir/stdout.txt" | tee -a "$out" || true
    sed "s/^/profile $stem /" "$dir/profile.txt" >> "$out"
    if [ "$stem" = stream ] || [ "$stem" = stencil ]; then
      TRANSLATE_PROFILE=1 "$dir/prog" $args copies > "$dir/stdout_copies.txt" \
          2> "$dir/profile_copies.txt"
      sed -n "s/^e2e_call /e2e_call $stem /p" "$dir/stdout_copies.txt" | tee -a "$out"
      sed "s/^/profile ${stem}_copies /" "$dir/profile_copies.txt" >> "$out"
    fi
  done
  python3 "$suite/references.py" ${REFS_ARGS:-} | tee -a "$out"
  python3 "$suite/compare.py" "$out" | tee "${OUT:-/tmp}/gpu_table.txt"
  ;;
*) echo "usage: $0 build|run" >&2; exit 2 ;;
esac
