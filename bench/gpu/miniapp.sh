#!/usr/bin/env bash
# Times the mini-app on the GPU machine: the original with OpenMP on 16 threads against the
# translated app on the GPU through NVIDIA's OpenCL, at 960 x 960 and 3840 x 3840 cells.
#
#   bench/gpu/miniapp.sh [DIR]     # DIR: what bench/gpu/miniapp_prepare.sh built (prebuilt
#                                  # binaries and their libraries; no compiler needed)
#
# STEPS (default 20) sets the time steps, SIZES (default "960 3840") the problem sizes.  Each
# size runs the OpenMP build once and the translated build twice (the first run also builds the
# OpenCL program); the table gives wall-clock seconds end to end.  A third translated run with
# TRANSLATE_PROFILE=1 (not timed: the profile reads each kernel's time as it ends) gives the
# profile's five regions with the most kernel time.  The outputs are compared:
# every line but the field summary (reassociated sums) must be identical.  The programs'
# outputs and profiles go to LOGS (default /tmp/miniapp_logs); everything printed is also
# written to $OUT/miniapp.txt where OUT is set (the device tool's folder).
set -uo pipefail
dir=$(cd "${1:-$(dirname "$0")}" && pwd)
steps=${STEPS:-20}
sizes=${SIZES:-960 3840}
out=${LOGS:-/tmp/miniapp_logs}
mkdir -p "$out"
if [ -n "${OUT:-}" ]; then exec > >(tee "$OUT/miniapp.txt"); fi
export LD_LIBRARY_PATH=$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OCL_ICD_FILENAMES=${OCL_ICD_FILENAMES:-libnvidia-opencl.so.1}
# only NVIDIA's ICD: where the machine also registers PoCL (/etc/OpenCL/vendors/pocl.icd, seen
# 2026-11-27), the carried loader given OCL_ICD_FILENAMES alone listed PoCL only
if [ -z "${OCL_ICD_VENDORS:-}" ]; then
  mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/icd
fi
export TRANSLATE_DEVICE=${TRANSLATE_DEVICE:-gpu}
timed() {   # timed LOG ERR CMD...: runs CMD, stdout to LOG, stderr to ERR; prints the seconds
  local log=$1 err=$2 t0 t1; shift 2
  t0=$(date +%s.%N); "$@" > "$log" 2> "$err" || echo "FAILED: $* (see $err)" >&2
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f\n", b - a}'
}
same() {    # same A B: "identical" or what differs (summary lines: largest relative difference)
  awk 'NR == FNR {a[FNR] = $0; n = FNR; next}
       { if (!(FNR in a)) { bad = "more lines"; next }
         if ($1 != "summary") { if ($0 != a[FNR]) bad = "line " FNR " differs"; next }
         split(a[FNR], x, " "); for (k = 2; k <= NF; k++) { d = x[k] - $k; if (d < 0) d = -d;
           m = x[k] < 0 ? -x[k] : x[k]; if (m > 0 && d / m > r) r = d / m } }
       END { if (FNR != n) bad = bad " (line counts differ)";
             if (bad != "") print "DIFFERENT: " bad; else printf "identical (summary within %.1e)\n", r }' "$1" "$2"
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
echo "cpu: $(nproc) cores; OMP_NUM_THREADS=16; $steps steps"
printf '%-6s %12s %12s %12s %9s %9s  %s\n' cells omp16_s gpu_first_s gpu_s speedup vs_first results
for n in $sizes; do
  o=$out/miniapp_$n
  omp=$(OMP_NUM_THREADS=16 OMP_PROC_BIND=close timed "$o.omp.txt" "$o.omp.err" "$dir/miniapp_omp" "$n" "$steps")
  first=$(timed "$o.ocl1.txt" "$o.ocl1.err" "$dir/miniapp_ocl" "$n" "$steps")
  gpu=$(timed "$o.ocl.txt" "$o.ocl.err" "$dir/miniapp_ocl" "$n" "$steps")
  # the profile waits for every kernel to read its time: a run of its own, not timed
  TRANSLATE_PROFILE=1 timed "$o.prof.txt" "$o.prof.err" "$dir/miniapp_ocl" "$n" "$steps" > /dev/null
  ratio=$(awk -v a="$omp" -v b="$gpu" 'BEGIN {printf "%.2fx", a / b}')
  ratio1=$(awk -v a="$omp" -v b="$first" 'BEGIN {printf "%.2fx", a / b}')
  printf '%-6s %12s %12s %12s %9s %9s  %s\n' "$n" "$omp" "$first" "$gpu" "$ratio" "$ratio1" \
    "$(same "$o.omp.txt" "$o.ocl.txt")"
done
for n in $sizes; do
  echo; echo "profile at $n x $n (third run, TRANSLATE_PROFILE=1), top regions by kernel time:"
  awk '/^region/ {print; next} /^[a-z_]+_k / && NF >= 6 {print | "sort -k4,4 -g -r | head -5"}' \
    "$out/miniapp_$n.prof.err"
  grep -E '^total' "$out/miniapp_$n.prof.err"
done
