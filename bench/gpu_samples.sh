#!/usr/bin/env bash
# Run every sample on a GPU through NVIDIA's OpenCL and compare with the original program.
#
#   bench/gpu_samples.sh build   # here (needs gfortran): builds into bench/gpu_build/
#   bench/gpu_samples.sh run     # on the GPU machine (no gfortran needed): runs and compares
#
# `run` prints one line per sample (MATCH or DIFF) and, with TRANSLATE_PROFILE=1, the runtime's
# per-region kernel times; results are recorded in bench/RESULTS.md.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$here/bench/gpu_build
case "${1:-}" in
build)
  rm -rf "$build"; mkdir -p "$build/lib"
  export PATH="$here/.venv/bin:$PATH"
  RT=$(translate --runtime-dir)
  for src in "$here"/samples/fortran/* "$here"/samples/c/*.c; do
    case "$src" in *.f90|*.f|*.c) ;; *) continue ;; esac
    name=$(basename "$src"); stem=${name%.*}; dir=$build/$(basename "$(dirname "$src")")_$stem
    mkdir -p "$dir"; cd "$dir"
    translate "$src" -o out
    case "$name" in
      *.c)
        gcc -O2 -std=c99 "$src" -o original -lm
        gcc -O2 -std=c99 "out/$name" "out/$stem.host.c" "$RT/translate_rt.c" -I"$RT" \
            -lOpenCL -lm -o translated ;;
      *)
        gfortran -O2 "$src" -o original
        gcc -c -O2 -I"$RT" "out/$stem.host.c" "$RT/translate_rt.c"
        gfortran -O2 "out/$name" "$stem.host.o" translate_rt.o -lOpenCL -o translated ;;
    esac
    rm -rf out ./*.o ./*.mod
  done
  cp -L /lib/x86_64-linux-gnu/libgfortran.so.5 /lib/x86_64-linux-gnu/libquadmath.so.0 "$build/lib/"
  ;;
run)
  max_rel() {  # largest relative difference between the numbers of two outputs
    python3 - "$1" "$2" <<'PY'
import re, sys
num = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eEdD][-+]?\d+)?")
a, b = (num.findall(open(f).read()) for f in sys.argv[1:3])
if len(a) != len(b):
    print("(outputs differ in shape)"); sys.exit()
f = lambda s: float(s.replace("D", "E").replace("d", "e"))
print(max((abs(f(x) - f(y)) / max(abs(f(x)), abs(f(y)), 1e-300) for x, y in zip(a, b)), default=0.0))
PY
  }
  mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/icd LD_LIBRARY_PATH="$build/lib:${LD_LIBRARY_PATH:-}"
  export TRANSLATE_DEVICE=${TRANSLATE_DEVICE:-gpu} TRANSLATE_VERBOSE=1
  status=0
  for dir in "$build"/*/; do
    stem=$(basename "$dir"); [ -x "$dir/original" ] || continue
    cd "$dir"
    ./original > original.txt
    TRANSLATE_PROFILE=1 ./translated > translated.txt 2> profile.txt || { echo "FAIL $stem"; cat profile.txt; status=1; continue; }
    if cmp -s original.txt translated.txt; then
      echo "MATCH $stem"
    else
      echo "DIFF  $stem  max relative difference $(max_rel original.txt translated.txt)"
      status=1
    fi
    sed 's/^/    /' profile.txt
  done
  exit $status
  ;;
*) echo "usage: $0 build|run" >&2; exit 2 ;;
esac
