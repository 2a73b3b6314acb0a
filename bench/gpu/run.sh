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
#
# Issue 23's acceptance: the run also builds bench/heat_data (heat 4096^2 x 100 steps, host time
# loop in a data region) translated and with OpenMP (16 threads), times both, and has
# references.py time CUDA copies from pinned memory of the bytes its data region moves; the
# last table (compare.py) puts every figure of issue 23 next to its reference and its goal.
# PROGRAMS may name heat_data like the others.
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
run_heat_data() {   # dir, raw output file: heat translated (3 runs, 3 of the data region alone,
                    # then 1 profiled), OpenMP-16 x3
  ( cd "$1"
    gcc -O3 -std=gnu99 -I. tr/heat_data.c tr/heat_data.host.c translate_rt.c -lOpenCL -lm \
        -o heat_translated
    gcc -O3 -std=gnu99 -fopenmp -DUSE_OMP heat_data.c -Wno-unknown-pragmas -o heat_omp )
  local k
  for k in 1 2 3; do "$1/heat_translated" 100 translated; done | tee -a "$2"
  for k in 1 2 3; do "$1/heat_translated" 0 dataonly; done | tee -a "$2"   # the region alone
  TRANSLATE_PROFILE=1 "$1/heat_translated" 100 profiled 2> "$1/profile.txt" | tee -a "$2"
  sed "s/^/profile heat_data /" "$1/profile.txt" >> "$2"
  for k in 1 2 3; do OMP_NUM_THREADS=16 OMP_PROC_BIND=close "$1/heat_omp" 100 openmp16; done \
      | tee -a "$2"
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
  if wanted heat_data; then
    PYTHON=${PYTHON:-$here/.venv/bin/python} bash "$here/bench/heat_data/run.sh" build \
      "$suite/heat_data"
  fi
  cp "$here"/bench/gpu/references.py "$here"/bench/gpu/compare.py "$suite/"
  ;;
run)
  mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/icd TRANSLATE_DEVICE=${TRANSLATE_DEVICE:-gpu}
  out=${OUT:-/tmp}/gpu_suite.txt; : > "$out"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/machine /' | tee -a "$out"
  for dir in "$suite"/*/; do
    stem=$(basename "$dir"); [ "$stem" = rt ] || [ "$stem" = heat_data ] && continue
    wanted "$stem" || continue
    gcc -O2 -std=gnu99 "$dir/$stem.c" "$dir/$stem.host.c" "$suite/rt/translate_rt.c" \
        -I"$suite/rt" -lOpenCL -lm -o "$dir/prog"
    args=${ARGS[$stem]:-}
    echo "args $stem $args" >> "$out"
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
  refs_extra=""
  if [ -d "$suite/heat_data" ] && wanted heat_data; then
    run_heat_data "$suite/heat_data" "$out"
    # the bytes the data region moved, for the pinned-copy reference of the same bytes
    refs_extra=$(awk '$1 == "profile" && $2 == "heat_data" && $3 == "data" {i += $7; o += $8}
                      $1 == "profile" && $2 == "heat_data" && $3 == "end" {i += $8; o += $9}
                      END {if (i + o > 0) print "xfer_in=" i " xfer_out=" o}' "$out")
  fi
  python3 "$suite/references.py" ${REFS_ARGS:-} $refs_extra | tee -a "$out"
  python3 "$suite/compare.py" "$out" | tee "${OUT:-/tmp}/gpu_table.txt"
  ;;
*) echo "usage: $0 build|run" >&2; exit 2 ;;
esac
