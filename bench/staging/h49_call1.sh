#!/bin/bash
# h49 call 1: raw plain-call patterns + overhead with the base runtime
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd OCL_ICD_FILENAMES=libnvidia-opencl.so.1
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
gcc -O2 plain_call.c -lOpenCL -o /tmp/plain_call 2>/dev/null
gcc -O2 -I base base/overhead.c base/overhead.host.c base/translate_rt.c -lOpenCL -lm -o /tmp/ov_base
/tmp/ov_base 1000 >/dev/null
for r in 1 2; do /tmp/plain_call 20000 16; done
/tmp/plain_call 20000 512
for r in 1 2 3; do /tmp/ov_base 100000; done
