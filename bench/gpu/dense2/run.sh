#!/usr/bin/env bash
# Dense kernels, second and third rounds (h37, h45; bench/RESULTS.md): polybench's dense and
# matrix-vector regions translated by this checkout and by another (BASE, a checkout of the
# translator before a change), the hand-edited variants of variants.c (make_variants.py), the
# sgemm recipe's variants (make_sgemm_variants.py), the gemm.c recipes, next to cuBLAS.
#
#   BASE=/path/to/old/checkout bench/gpu/dense2/run.sh build DIR   # here
#   bash DIR/run.sh run                                           # on the GPU machine
set -euo pipefail
here=$(cd "$(dirname "$0")/../../.." && pwd)
case "${1:-}" in
build)
  dir=${2:?build folder}; rm -rf "$dir"; mkdir -p "$dir/rt" "$dir/new" "$dir/old" "$dir/var" "$dir/gemm" "$dir/sv"
  tr="$here/.venv/bin/translate"
  cp "$($tr --runtime-dir)"/translate_rt.[ch] "$dir/rt/"
  $tr "$here/bench/gpu/polybench.c" -o "$dir/new" --report 2> "$dir/new/report.txt"
  (cd "${BASE:?BASE: the translator before the change}" && PYTHONPATH=$BASE \
     "$here/.venv/bin/python" -m translator.cli "$here/bench/gpu/polybench.c" -o "$dir/old")
  python3 "$here/bench/gpu/dense2/make_variants.py"
  $tr "$here/bench/gpu/dense2/variants.c" -o "$dir/var"
  $tr "$here/bench/gpu/gemm.c" -o "$dir/gemm"
  python3 "$here/bench/gpu/dense2/make_sgemm_variants.py"
  $tr "$here/bench/gpu/dense2/sgemm_variants.c" -o "$dir/sv"
  cp "$0" "$here/bench/gpu/references.py" "$dir/"
  ;;
run)
  cd "$(dirname "$0")"
  mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/icd OCL_ICD_FILENAMES=libnvidia-opencl.so.1 TRANSLATE_DEVICE=gpu
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/machine /'
  for d in new old var gemm sv; do
    s=$(ls $d/*.host.c); s=${s%.host.c}
    gcc -O2 -std=gnu99 "$s.c" "$s.host.c" rt/translate_rt.c -Irt -lOpenCL -lm -o "$d/prog" &
  done
  wait
  run() {   # tag, program and arguments: checksums, then the profile (kernel ms per region)
    local tag=$1; shift; echo "== $tag $*"
    TRANSLATE_PROFILE=1 "$@" 2> "prof_$tag.txt"; grep -v hint "prof_$tag.txt" | sed "s/^/profile $tag /"
  }
  run old old/prog 2048 0 0 0 0 0 3 ${OLD_REGIONS:-gemm_pb,twomm,threemm,syrk,syr2k}
  run new new/prog 2048 ${NMV:-0} 0 0 0 0 3 ${NEW_REGIONS:-gemm_pb,twomm,threemm,syrk,syr2k}
  [ -n "${NO_VARIANTS:-}" ] || run var var/prog 2048 3
  run gemm gemm/prog 4096 5
  run sv sv/prog 4096 5
  python3 -c "import references as r; r.gemm(4096); r.dense_pb(2048)
if ${NMV:-0}: r.matvec_pb(${NMV:-0})"
  ;;
*) echo "usage: $0 build DIR | run" >&2; exit 2 ;;
esac
