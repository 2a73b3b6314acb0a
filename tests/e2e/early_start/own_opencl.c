/* A program that calls OpenCL itself at once (it lists the devices, as translate devices'
 * lister does), linked with the runtime, whose early start runs at the same time (h44).  Before
 * the device was chosen on the loading thread, PoCL's device set-up ran in both threads at
 * once and crashed in most runs.  Prints the number of devices. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

int main(void)
{
    cl_platform_id platforms[8];
    cl_device_id devices[16];
    cl_uint np = 0, nd = 0, p, d, total = 0;
    char name[256];
    if (clGetPlatformIDs(8, platforms, &np) != CL_SUCCESS)
        return 2;
    for (p = 0; p < np && p < 8; ++p) {
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, devices, &nd) != CL_SUCCESS)
            continue;
        for (d = 0; d < nd && d < 16; ++d)
            if (clGetDeviceInfo(devices[d], CL_DEVICE_NAME, sizeof name, name, NULL) == CL_SUCCESS)
                total += 1;
    }
    printf("devices %u\n", total);
    return 0;
}
