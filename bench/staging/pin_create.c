/* bench/staging/pin_create.c: what the staging buffers cost to create and map (h49): one
 * pinned buffer of 48 MiB (the ring of 12 lanes x 2 x 2 MiB) against 24 of 2 MiB (the lanes
 * before), CL_MEM_ALLOC_HOST_PTR + a blocking map, then unmap and release.  ms, 3 rounds. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static double make(cl_context ctx, cl_command_queue q, int n, size_t bytes)
{
    cl_mem b[32];
    void *p[32];
    cl_int err;
    double t0 = now_ms(), t;
    for (int i = 0; i < n; ++i) {
        b[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
        p[i] = clEnqueueMapBuffer(q, b[i], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                                  NULL, NULL, &err);
    }
    t = now_ms() - t0;
    for (int i = 0; i < n; ++i) {
        clEnqueueUnmapMemObject(q, b[i], p[i], 0, NULL, NULL);
        clFinish(q);
        clReleaseMemObject(b[i]);
    }
    return t;
}

int main(void)
{
    cl_platform_id plat[8];
    cl_device_id dev = NULL;
    cl_uint n = 0;
    cl_int err;
    clGetPlatformIDs(8, plat, &n);
    for (cl_uint i = 0; i < n && dev == NULL; ++i)
        if (clGetDeviceIDs(plat[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
            dev = NULL;
    if (dev == NULL)
        clGetDeviceIDs(plat[0], CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    for (int r = 0; r < 3; ++r)
        printf("pin_create round %d: 1 x 48 MiB %.2f ms, 24 x 2 MiB %.2f ms\n", r,
               make(ctx, q, 1, (size_t)48 << 20), make(ctx, q, 24, (size_t)2 << 20));
    return 0;
}
