#!/usr/bin/env bash
# A/B of the barrier after each loop that holds a barrier (translator/codegen/barriers.py
# `_fence_loop_exits`, h75): kernel time with and without it, on the GPU machine.
#
#   here:   SUITE=bench/gpu_build/fence_on  PROGRAMS="gemm polybench" bench/gpu/run.sh build
#           (and the same from a tree whose insert_barriers skips _fence_loop_exits, into
#           bench/gpu_build/fence_off)
#   device: bash bench/gpu/fence_ab.sh bench/gpu_build/fence_on bench/gpu_build/fence_off
# Three alternating rounds; prints, per region, the least kernel ms of each side and the ratio.
set -euo pipefail
on=$1; off=$2; rounds=${ROUNDS:-3}
declare -A ARGS=([gemm]="4096 5" [polybench]="2048 16384 4096 10 256 10 3")
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd TRANSLATE_DEVICE=${TRANSLATE_DEVICE:-gpu}
out=${OUT:-/tmp}/fence_ab.txt; : > "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/machine /' | tee -a "$out"
for side in "$on" "$off"; do
  for dir in "$side"/*/; do
    stem=$(basename "$dir"); [ "$stem" = rt ] && continue
    gcc -O2 -std=gnu99 "$dir/$stem.c" "$dir/$stem.host.c" "$side/rt/translate_rt.c" \
        -I"$side/rt" -lOpenCL -lm -o "$dir/prog"
  done
done
for r in $(seq "$rounds"); do
  for side in "$on" "$off"; do
    tag=$(basename "$side")
    for dir in "$side"/*/; do
      stem=$(basename "$dir"); [ "$stem" = rt ] && continue
      args=${ARGS[$stem]:-}
      if [ "$stem" = polybench ]; then   # the regions the report does not call sequential
        seq=$(grep -B1 '^  mapping: sequential' "$dir/report.txt" | awk '/^region /{print $2}' | sort || true)
        args="$args $(comm -23 <(awk '/^region /{print $2}' "$dir/report.txt" | sort) <(echo "$seq") | paste -sd, -)"
      fi
      TRANSLATE_PROFILE=1 "$dir/prog" $args > /dev/null 2> "$dir/profile.txt"
      awk -v t="$tag" -v r="$r" 'NF >= 6 && $3 ~ /^[0-9]+$/ && $4 ~ /^[0-9.]+$/ {print "ms", t, r, $1, $4}' \
          "$dir/profile.txt" | tee -a "$out" > /dev/null
    done
  done
done
python3 - "$out" "$(basename "$on")" "$(basename "$off")" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.startswith("ms ")]
on, off = sys.argv[2], sys.argv[3]
best = {}
for _, tag, _, region, ms in rows:
    key = (region, tag)
    best[key] = min(best.get(key, float("inf")), float(ms))
print(f"{'region':28} {on + ' ms':>12} {off + ' ms':>12} {'on/off':>8}")
for region in sorted({k[0] for k in best}):
    a, b = best.get((region, on)), best.get((region, off))
    if a is not None and b is not None and b > 0:
        print(f"{region:28} {a:12.3f} {b:12.3f} {a / b:8.3f}")
PY
