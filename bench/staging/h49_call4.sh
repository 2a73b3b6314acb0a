#!/bin/bash
# h49 call 4: heat_data's data region (402.7 MB: u, v in; u out) with the base runtime
# (332a5a2) and h49's (staging ring, groups of 4; small arrays packed), alternating; the ring
# with TRANSLATE_STAGING_GROUP=1/2/6; the kernels' time (profiled run); overhead; pin_create.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd OCL_ICD_FILENAMES=libnvidia-opencl.so.1
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
for v in base new; do
  gcc -O2 -I $v base/overhead.c base/overhead.host.c $v/translate_rt.c -lOpenCL -lm -o /tmp/ov_$v
  gcc -O3 -std=gnu99 -I $v heat/heat_data.c heat/heat_data.host.c $v/translate_rt.c -lOpenCL -lm -o /tmp/heat_$v
done
gcc -O2 pin_create.c -lOpenCL -o /tmp/pin_create 2>/dev/null
for r in 1 2 3 4 5; do
  /tmp/heat_base 0 base_dataonly; /tmp/heat_new 0 new_dataonly
  /tmp/heat_base 100 base; /tmp/heat_new 100 new
done
for g in 1 2 6; do for r in 1 2 3; do TRANSLATE_STAGING_GROUP=$g /tmp/heat_new 0 new_group$g; done; done
TRANSLATE_PROFILE=1 /tmp/heat_new 100 new_profiled 2>&1 | grep -v '^hint'
TRANSLATE_PROFILE=1 /tmp/heat_base 100 base_profiled 2>&1 | grep -v '^hint'
for r in 1 2; do /tmp/ov_base 100000; /tmp/ov_new 100000; done
/tmp/pin_create
