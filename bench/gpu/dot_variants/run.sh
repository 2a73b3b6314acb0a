#!/usr/bin/env bash
# Dot variants (h2, issue 13): the dot region of stream.c translated at several group and
# accumulator counts, next to the CUDA dot of references.py (alone and with its partial sum).
#
#   bench/gpu/dot_variants/run.sh build   # here: into bench/gpu_build/dot_variants/
#   bench/gpu/dot_variants/run.sh run     # on the GPU machine (carry bench/gpu_build/dot_variants)
set -euo pipefail
here=$(cd "$(dirname "$0")/../../.." && pwd)
build=$here/bench/gpu_build/dot_variants
py=${PYTHON:-$here/.venv/bin/python}   # the project's interpreter (PYTHON=... in a worktree)
case "${1:-}" in
build)
  rm -rf "$build"; mkdir -p "$build/rt"
  cp "$(dirname "$0")"/{dotonly.c,tinydot.c,gen_translated.py,refdot.py} "$here/bench/gpu/references.py" "$build/"
  cp "$(PYTHONPATH=$here "$py" -m translator.cli --runtime-dir)"/translate_rt.[ch] "$build/rt/"
  (cd "$build" && PYTHONPATH=$here "$py" gen_translated.py)
  ;;
run)
  cd "$build"
  mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
  export OCL_ICD_VENDORS=/tmp/icd TRANSLATE_DEVICE=${TRANSLATE_DEVICE:-gpu}
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  python3 refdot.py
  for d in t_g*; do
    gcc -O2 -std=gnu99 "$d/dotonly.c" "$d/dotonly.host.c" rt/translate_rt.c -Irt -lOpenCL -lm \
        -o "/tmp/p_$d"
    TRANSLATE_PROFILE=1 "/tmp/p_$d" 25 30 > "/tmp/p_$d.out" 2> "/tmp/p_$d.prof"
    echo "translated $d $(awk '$1=="dot_k"{printf "%.4f ms/call", $4/$3}' "/tmp/p_$d.prof")" \
         "$(cat "/tmp/p_$d.out")"
  done
  python3 references.py only=stream
  if [ -d tiny ]; then   # host cost per call of a small group reduction
    gcc -O2 -std=gnu99 tiny/tinydot.c tiny/tinydot.host.c rt/translate_rt.c -Irt -lOpenCL -lm \
        -o /tmp/tinydot && /tmp/tinydot 100000
  fi
  ;;
*) echo "usage: $0 build|run" >&2; exit 2 ;;
esac
