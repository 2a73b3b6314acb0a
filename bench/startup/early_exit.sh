#!/usr/bin/env bash
# Exit storms for the runtime's early start (h44, issue 29): runs a translated
# tests/e2e/early_start/early_exit.c RUNS times, each exiting after a delay that cycles over
# 0..MAX_US microseconds (most of them inside the first 20 ms, while the early start's thread
# is opening the device), in the four ways the program knows (exit, return, region, fork: the child exits at once),
# and counts the runs whose exit status or output is not what was asked for.
#
#   bench/startup/early_exit.sh PROGRAM [RUNS] [MAX_US]     (defaults 400 and 400000)
set -uo pipefail
prog=$1
runs=${2:-400}
max=${3:-400000}
bad=0
declare -A seen
for ((i = 0; i < runs; ++i)); do
  if ((i % 4 == 3)); then us=$(( (i * 7919) % max )); else us=$(( (i * 211) % 20000 )); fi
  case $((i % 5)) in 0) how=exit;; 1) how=return;; 2) how=region;; 3) how=fork;; 4) how=exit;; esac
  want=$(( 3 + i % 7 ))
  out=$("$prog" "$us" "$want" "$how" 2>/tmp/early_exit.err)
  rc=$?
  seen[$how]=$(( ${seen[$how]:-0} + 1 ))
  case $how in
    exit|return) expect="start" ;;
    region) expect=$'start\ntotal 16320' ;;
    fork) expect=$'start\nchild\nstart\nchild status '"$want"$'\ntotal 16320' ;;
  esac
  if [ "$rc" != "$want" ] || [ "$out" != "$expect" ]; then
    bad=$((bad + 1))
    echo "run $i ($how after $us us): status $rc (want $want), output: $(echo "$out" | tr '\n' '|') $(head -c 300 /tmp/early_exit.err)"
  fi
done
echo "early_exit: $runs runs ($(for k in exit return region fork; do printf '%s %s, ' "$k" "${seen[$k]:-0}"; done)delays up to $max us), $bad wrong"
