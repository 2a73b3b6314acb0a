#!/usr/bin/env bash
# Tuning (issue 23 item 4, docs/tuning.md) on the GPU: time every candidate mapping of
# PolyBench's gemm and atax (bench/gpu/polybench.c) and print what was tried.
#
#   bench/gpu/tune.sh build          # here: translate --tune-candidates into $SUITE/cand
#   bench/gpu/tune.sh run            # GPU machine: compile, tune (TRANSLATE_TUNE=1), print
#   bench/gpu/tune.sh final FILE     # here: translate with the tuning FILE (the winners) and
#                                    # print the report's choice per region
#
# run writes $OUT/tune.jsonl (OUT default /tmp) and $OUT/tune_table.txt: per region, device
# and size class, each candidate's best kernel time (OpenCL profiling events), the winner
# and its speed against the automatic mapping (candidate 0).  REGIONS (default gemm_pb,atax)
# and SIZES (polybench's nmm nmv n2d t2d n3d t3d, default "2048 16384 64 1 16 1") choose what
# runs; every region runs 32 times (4 rounds of up to 8 candidates).  Only python3's standard
# library is needed on the GPU machine (translate tune runs from this checkout's sources).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
suite=${SUITE:-$here/bench/gpu_build/tune}
regions=${REGIONS:-gemm_pb,atax}
sizes=${SIZES:-2048 16384 64 1 16 1}
translate() {   # this checkout's translator (its .venv, else python3 with PYTHONPATH=here)
  if [ -x "$here/.venv/bin/translate" ]; then "$here/.venv/bin/translate" "$@"
  else PYTHONPATH=$here "${PYTHON:-python3}" -m translator.cli "$@"; fi
}
case "${1:-}" in
build)
  rm -rf "$suite"; mkdir -p "$suite/rt" "$suite/cand"
  RT=$(translate --runtime-dir)
  cp "$RT"/translate_rt.[ch] "$suite/rt/"
  translate --tune-candidates "$here/bench/gpu/polybench.c" -o "$suite/cand" --report \
      2> "$suite/cand/report.txt"
  grep -A9 '^  tuning candidates' "$suite/cand/report.txt" | grep -v '^  parallel' || true
  ;;
run)
  if command -v nvidia-smi > /dev/null; then
    mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
    export OCL_ICD_VENDORS=/tmp/icd TRANSLATE_DEVICE=${TRANSLATE_DEVICE:-gpu}
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/machine /'
  fi
  out=${OUT:-/tmp}
  gcc -O2 -std=gnu99 "$suite/cand/polybench.c" "$suite/cand/polybench.host.c" \
      "$suite/rt/translate_rt.c" -I"$suite/rt" -lOpenCL -lm -o "$suite/cand/prog"
  rm -f "$out/tune.jsonl"
  # polybench's arguments: sizes, reps (32 calls per region), the regions to run
  translate tune --tune-file "$out/tune.jsonl" --reps 3 -- \
      "$suite/cand/prog" $sizes 32 "$regions" > "$out/tune_stdout.txt"
  grep -E '^(region |  )' "$out/tune_stdout.txt" | tee "$out/tune_table.txt" || true
  ;;
final)
  file=${2:?usage: $0 final TUNE_FILE}
  mkdir -p "$suite/tuned"
  translate "$here/bench/gpu/polybench.c" -o "$suite/tuned" --tune-file "$file" \
      ${TUNE_DEVICE:+--tune-device "$TUNE_DEVICE"} --report 2> "$suite/tuned/report.txt"
  grep -A9 '^  chosen by: tuning' "$suite/tuned/report.txt" | grep -v '^  parallel' || true
  ;;
*) echo "usage: $0 build|run|final FILE" >&2; exit 2 ;;
esac
