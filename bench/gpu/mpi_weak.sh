#!/usr/bin/env bash
# Weak scaling of the MPI heat samples (samples/mpi/heat_mpi.c, heat_mpi_overlap.c) on a machine with 2 GPUs.
#
#   bench/gpu/mpi_weak.sh build   # here: translates the samples into bench/gpu_build/mpi_weak/
#                                 # for each grid of GRIDS (default NXxNYL, e.g. "8192x8192
#                                 # 8192x12288"): NX and NYL are macros of the sample, so the
#                                 # translation gets the same -D flags as the compilation
#   bench/gpu/mpi_weak.sh run     # on the GPU machine (carry bench/gpu_build): builds, runs
#                                 # 1 rank on NX x NYL and 2 ranks on NX x 2*NYL (each rank
#                                 # NX x NYL, one GPU each), prints seconds per step and the ratio
#
# Time per step is the difference of two runs (STEPS_LO and STEPS_HI steps) over the step
# difference, so start-up, kernel builds and the data region's copies cancel out; the median of
# REPS (default 3) such pairs is printed (start-up varies by tenths of a second run to run).
# With mpirun and mpicc on the machine the 2 ranks are a real MPI job (halo exchange by
# MPI_Sendrecv).  Without them (the GPU machines of this workplace have no MPI), the sample is
# built against bench/gpu/mpi_stub/mpi.h and the "2 ranks" are two processes started by hand
# with OMPI_COMM_WORLD_LOCAL_RANK=0 and 1: each takes its own GPU and does a rank's device work
# and halo updates, but no host-to-host exchange is measured; the output says which mode ran
# (MODE=stub forces it).  NX, NYL (default 8192 x 8192 per rank), STEPS_LO, STEPS_HI, REPS,
# PROGS (default: all three samples, below) and TRANSLATE_DEVICE (default gpu) can be set.
# Acceptance (issue 25): 2-rank time per step <= 1.15 x the 1-rank time.
#
# Three samples are measured in the same run: samples/mpi/heat_mpi_overlap.c ("overlap": the
# halo exchange overlaps the interior update on async queues), samples/mpi/heat_mpi.c ("in
# order": one queue; both split the columns, so their halos are strided columns) and
# samples/mpi/heat_mpi_rows.c ("rows": the rows split, contiguous halo rows; its grid per rank
# is NYL rows of NX columns, the same number of cells).  PROGS="prog prog_inorder prog_rows"
# picks among them.  In mpi mode the 1-rank runs also go through mpirun, with the same
# flags as the 2-rank runs (MPIRUN_FLAGS, default --bind-to none: Open MPI binds each rank to
# one core by default, and the OpenCL driver's and the staging threads would share it).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$here/bench/gpu_build/mpi_weak}
NX=${NX:-8192} NYL=${NYL:-8192} STEPS_LO=${STEPS_LO:-20} STEPS_HI=${STEPS_HI:-220} REPS=${REPS:-3}
translate() {   # this checkout's translator (its .venv, else PYTHON with PYTHONPATH=here)
  if [ -x "$here/.venv/bin/translate" ]; then "$here/.venv/bin/translate" "$@"
  else PYTHONPATH=$here "${PYTHON:-python3}" -m translator.cli "$@"; fi
}
mpi_includes() {   # -I flags for mpi.h: the MPI's own, else the stub
  if command -v mpicc >/dev/null; then mpicc --showme:incdirs 2>/dev/null | sed 's/\([^ ]*\)/-I\1/g'
  else echo "-I$here/bench/gpu/mpi_stub"; fi
}
calc() { awk "BEGIN { printf \"%.9f\", $1 }"; }
seconds() {   # wall seconds of a command
  local t0 t1; t0=$(date +%s.%N); "$@" > /dev/null; t1=$(date +%s.%N)
  calc "$t1 - $t0"
}
one_rank() {
  if [ "$mode" = mpi ]; then
    mpirun $MPIRUN_FLAGS -np 1 -x TRANSLATE_DEVICE="$DEVICE" "$build/$PROG" "$1"
  else
    TRANSLATE_DEVICE=$DEVICE "$build/$PROG" "$1"
  fi
}
two_ranks() {
  if [ "$mode" = mpi ]; then
    mpirun $MPIRUN_FLAGS -np 2 -x TRANSLATE_DEVICE="$DEVICE" "$build/$PROG" "$1"
  else
    TRANSLATE_DEVICE=$DEVICE OMPI_COMM_WORLD_LOCAL_RANK=0 "$build/$PROG" "$1" > /dev/null & a=$!
    TRANSLATE_DEVICE=$DEVICE OMPI_COMM_WORLD_LOCAL_RANK=1 "$build/$PROG" "$1" > /dev/null & b=$!
    wait $a; wait $b
  fi
}
per_step() {   # seconds per step of one_rank or two_ranks: the median of REPS estimates
  local lo hi r all=""
  for ((r = 0; r < REPS; r++)); do
    lo=$(seconds "$1" "$STEPS_LO"); hi=$(seconds "$1" "$STEPS_HI")
    all="$all $(calc "($hi - $lo) / ($STEPS_HI - $STEPS_LO)")"
  done
  echo "$all" | tr ' ' '\n' | grep . | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}
case "${1:-}" in
build)
  rm -rf "$build"; mkdir -p "$build/rt"
  RT=$(translate --runtime-dir)
  cp "$RT"/translate_rt.[ch] "$build/rt/"
  cp -r "$here/bench/gpu/mpi_stub" "$build/"
  for size in ${GRIDS:-${NX}x$NYL}; do   # the sizes are macros: translate with the same -D
    nx=${size%x*} nyl=${size#*x}
    # shellcheck disable=SC2046
    translate "$here/samples/mpi/heat_mpi_overlap.c" -o "$build/out_$size" -DNX="$nx" \
      -DNYL="$nyl" $(mpi_includes)
    # shellcheck disable=SC2046
    translate "$here/samples/mpi/heat_mpi.c" -o "$build/out_inorder_$size" -DNX="$nx" \
      -DNYL="$nyl" $(mpi_includes)
    # shellcheck disable=SC2046
    translate "$here/samples/mpi/heat_mpi_rows.c" -o "$build/out_rows_$size" -DNXL="$nyl" \
      -DNY="$nx" $(mpi_includes)
  done
  ;;
run)
  if [ -z "${TRANSLATE_DEVICE:-}" ] && command -v nvidia-smi >/dev/null; then
    mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
    export OCL_ICD_VENDORS=/tmp/icd
  fi
  DEVICE=${TRANSLATE_DEVICE:-gpu}
  MPIRUN_FLAGS=${MPIRUN_FLAGS:-$([ "$(id -u)" = 0 ] && echo --allow-run-as-root) --oversubscribe --bind-to none}
  if [ "${MODE:-}" != stub ] && command -v mpirun >/dev/null && command -v mpicc >/dev/null
  then mode=mpi; cc=mpicc
  else mode=stub; cc=${CC:-gcc}; fi
  inc=$([ $mode = mpi ] || echo "-I$build/mpi_stub")
  size=${NX}x$NYL
  [ -d "$build/out_$size" ] || { echo "mpi_weak: not built for $size (GRIDS=$size $0 build)" >&2; exit 1; }
  for v in "prog out_$size heat_mpi_overlap" "prog_inorder out_inorder_$size heat_mpi" \
           "prog_rows out_rows_$size heat_mpi_rows"; do
    set -- $v
    # shellcheck disable=SC2086
    $cc -O2 -std=gnu99 -DNX="$NX" -DNYL="$NYL" -DNXL="$NYL" -DNY="$NX" $inc -I"$build/rt" "$build/$2/$3.c" \
        "$build/$2/$3.host.c" "$build/rt/translate_rt.c" -lOpenCL -lm -o "$build/$1"
  done
  printf 'mpi_weak mode %s device %s grid per rank %s x %s steps %s..%s mpirun flags: %s\n' \
         "$mode" "$DEVICE" "$NX" "$NYL" "$STEPS_LO" "$STEPS_HI" "${MPIRUN_FLAGS:-}"
  for PROG in ${PROGS:-prog prog_inorder prog_rows}; do
    case $PROG in prog) label=overlap ;; prog_rows) label=rows ;; *) label="in order" ;; esac
    one_rank 1 > /dev/null; two_ranks 1 > /dev/null   # warm-up: kernel builds, binary cache
    one=$(per_step one_rank); two=$(per_step two_ranks)
    printf 'mpi_weak %-8s 1 rank  %.6f s/step\nmpi_weak %-8s 2 ranks %.6f s/step\n' \
           "$label" "$one" "$label" "$two"
    printf 'mpi_weak %-8s ratio %.3f (target <= 1.15)\n' "$label" "$(calc "$two / $one")"
  done
  ;;
*)
  echo "usage: $0 build|run" >&2; exit 2 ;;
esac
