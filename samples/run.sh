#!/usr/bin/env bash
# Translate one sample, build the original and the translated program, run both on the CPU
# OpenCL device, and show that they print the same results.
#   usage: samples/run.sh [SAMPLE]      (default: samples/fortran/saxpy.f90)
# Each step prints the command it runs, so this doubles as a build recipe.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
src=$(realpath "${1:-$here/samples/fortran/saxpy.f90}")
venv=${VENV:-$here/.venv}
export PATH="$venv/bin:$PATH"
export TRANSLATE_DEVICE=${TRANSLATE_DEVICE:-cpu}
work=$(mktemp -d "${TMPDIR:-/tmp}/translate-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
name=$(basename "$src"); stem=${name%.*}
step() { echo "+ $*"; "$@"; }
cd "$work"
RT=$(translate --runtime-dir)
step translate "$src" -o out
case "$name" in
  *.c)
    step gcc -O1 -std=c99 "$src" -o original -lm
    step gcc -O1 -std=c99 "out/$name" "out/$stem.host.c" "$RT/translate_rt.c" -I"$RT" -lOpenCL -lm -o translated ;;
  *)
    step gfortran -O1 "$src" -o original
    step gcc -c -O1 -I"$RT" "out/$stem.host.c" "$RT/translate_rt.c"
    step gfortran -O1 "out/$name" "$stem.host.o" translate_rt.o -lOpenCL -o translated ;;
esac
echo "+ ./original > original.txt; ./translated > translated.txt   (TRANSLATE_DEVICE=$TRANSLATE_DEVICE)"
./original > original.txt
./translated > translated.txt
echo "--- original program ---";   cat original.txt
echo "--- translated program (OpenCL) ---"; cat translated.txt
if cmp -s original.txt translated.txt; then
  echo "MATCH: the translated program printed exactly what the original printed."
else
  echo "DIFFERENT:"; diff original.txt translated.txt || true; exit 1
fi
