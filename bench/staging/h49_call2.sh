#!/bin/bash
# h49 call 2: host cost per plain call, base runtime (332a5a2) against h49's, alternating;
# heat_data (4096^2, data region) with both; OpenMP-16 once.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd OCL_ICD_FILENAMES=libnvidia-opencl.so.1
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for v in base new; do
  gcc -O2 -I $v base/overhead.c base/overhead.host.c $v/translate_rt.c -lOpenCL -lm -o /tmp/ov_$v
  gcc -O3 -std=gnu99 -I $v heat/heat_data.c heat/heat_data.host.c $v/translate_rt.c -lOpenCL -lm -o /tmp/heat_$v
done
gcc -O3 -std=gnu99 -fopenmp -DUSE_OMP heat/heat_data_orig.c -Wno-unknown-pragmas -o /tmp/heat_omp
gcc -O2 plain_call.c -lOpenCL -o /tmp/plain_call 2>/dev/null
/tmp/ov_base 1000 >/dev/null; /tmp/ov_new 1000 > /dev/null
for r in 1 2 3; do
  echo "== round $r"; echo "-- base"; /tmp/ov_base 100000; echo "-- new"; /tmp/ov_new 100000
  echo "-- new TRANSLATE_SMALL_ARRAYS=off"; TRANSLATE_SMALL_ARRAYS=off /tmp/ov_new 100000
done
/tmp/plain_call 20000 16
for r in 1 2 3; do
  echo "-- heat base"; /tmp/heat_base 100 base; /tmp/heat_base 0 base_dataonly
  echo "-- heat new"; /tmp/heat_new 100 new; /tmp/heat_new 0 new_dataonly
done
OMP_NUM_THREADS=16 OMP_PROC_BIND=close /tmp/heat_omp 100 openmp16
