#!/usr/bin/env bash
# Builds the mini-app (samples/miniapp/miniapp.F90) for the GPU machine, here (that machine has
# no gfortran):
#
#   bench/gpu/miniapp_prepare.sh [DIR]      # default DIR: bench/gpu_build/miniapp (git-ignored)
#
# DIR then holds
#   miniapp_omp      the original source built with gfortran -O2 -fopenmp (the reference)
#   miniapp_ocl      the translated app (translate, then gcc/gfortran -O2, linked to -lOpenCL)
#   report.txt       translate --report of the app (every region parallel)
#   lib*.so.*        libgfortran, libquadmath, libgomp and the OpenCL ICD loader of this
#                    machine, loaded from DIR (LD_LIBRARY_PATH) by bench/gpu/miniapp.sh
# Carry DIR to the GPU machine and run bench/gpu/miniapp.sh DIR there.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-$here/bench/gpu_build/miniapp}
src=$here/samples/miniapp/miniapp.F90
translate() {   # this checkout's translator (its .venv, else python3 with PYTHONPATH=here)
  if [ -x "$here/.venv/bin/translate" ]; then "$here/.venv/bin/translate" "$@"
  else PYTHONPATH=$here "${PYTHON:-python3}" -m translator.cli "$@"; fi
}
rm -rf "$dir"
mkdir -p "$dir/obj"
cd "$dir/obj"
cp "$src" miniapp.F90   # a short name in the profile's locations
gfortran -O2 -fopenmp miniapp.F90 -o "$dir/miniapp_omp"
translate miniapp.F90 -o out --report="$dir/report.txt" -Werror
RT=$(translate --runtime-dir)
gcc -O2 -c -I"$RT" out/miniapp.host.c "$RT/translate_rt.c"
gfortran -O2 out/miniapp.F90 miniapp.host.o translate_rt.o -lOpenCL -o "$dir/miniapp_ocl"
cd "$dir"
rm -rf obj
for lib in libgfortran.so.5 libquadmath.so.0 libgomp.so.1 libOpenCL.so.1; do
  # (no early exit in awk: under pipefail, ldconfig's SIGPIPE would end the script here)
  path=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ && !found {print $NF; found = 1}')
  [ -n "$path" ] && cp -L "$path" "$dir/$lib"
done
cp "$here/bench/gpu/miniapp.sh" "$dir/"
echo "built in $dir:"; ls -l "$dir"
