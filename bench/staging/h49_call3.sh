#!/bin/bash
# h49 call 3: one pinned ring with grouped DMA commands against translate_rt.c's lanes (link.c
# ring); plain_call again (packed against map-unmap, 3 runs)
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
export OCL_ICD_VENDORS=/tmp/icd OCL_ICD_FILENAMES=libnvidia-opencl.so.1
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
gcc -O2 -std=gnu99 link.c -lOpenCL -lpthread -ldl -o /tmp/link_bench 2>/dev/null
gcc -O2 plain_call.c -lOpenCL -o /tmp/plain_call 2>/dev/null
/tmp/link_bench 3 ring
for r in 1 2 3; do /tmp/plain_call 10000 16; done
