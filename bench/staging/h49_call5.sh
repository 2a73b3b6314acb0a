#!/bin/bash
# h49 call 5: the staging ring's group, 4 (default) against 6, alternating; base once more.
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd OCL_ICD_FILENAMES=libnvidia-opencl.so.1
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
for v in base new; do
  gcc -O3 -std=gnu99 -I $v heat/heat_data.c heat/heat_data.host.c $v/translate_rt.c -lOpenCL -lm -o /tmp/heat_$v
done
for r in 1 2 3 4 5 6; do
  TRANSLATE_STAGING_GROUP=4 /tmp/heat_new 0 g4_dataonly; TRANSLATE_STAGING_GROUP=6 /tmp/heat_new 0 g6_dataonly
  TRANSLATE_STAGING_GROUP=4 /tmp/heat_new 100 g4; TRANSLATE_STAGING_GROUP=6 /tmp/heat_new 100 g6
done
for r in 1 2 3; do /tmp/heat_base 0 base_dataonly; /tmp/heat_base 100 base; done
