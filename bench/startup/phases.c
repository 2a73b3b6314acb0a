/* bench/startup/phases.c: the steps of OpenCL start-up and teardown, raw OpenCL, wall ms each
 * (h44): platforms, devices, context, queue, 24 pinned 2 MiB buffers created and mapped, their
 * release, the context's release.  "dl [LIB]" dlopens the vendor library first (default
 * libnvidia-opencl.so.1).  With LD_PRELOAD=atexit_count.so each exit-handler registration is
 * printed before the step that made it (see atexit_count.c).
 *
 *   gcc -O2 phases.c -lOpenCL -ldl -o phases && ./phases [dl [LIB]]
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define NBUF 24

static double t;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static void mark(const char *what)
{
    double n = now();
    fprintf(stderr, "PHASE %-10s %8.2f ms\n", what, n - t);
    t = n;
}

int main(int argc, char **argv)
{
    cl_platform_id p[8];
    cl_uint n = 0, i;
    cl_device_id d = NULL;
    cl_int e;
    cl_mem b[NBUF];
    void *m[NBUF];
    char name[256];
    t = now();
    if (argc > 1 && strcmp(argv[1], "dl") == 0) {
        if (!dlopen(argc > 2 ? argv[2] : "libnvidia-opencl.so.1", RTLD_NOW))
            fprintf(stderr, "dlopen failed: %s\n", dlerror());
        mark("dlopen");
    }
    clGetPlatformIDs(8, p, &n);
    mark("platforms");
    for (i = 0; i < n && d == NULL; i++)
        if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_GPU, 1, &d, NULL) != CL_SUCCESS)
            d = NULL;
    if (d == NULL)
        clGetDeviceIDs(p[0], CL_DEVICE_TYPE_ALL, 1, &d, NULL);
    clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name, name, NULL);
    mark("devices");
    cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
    mark("context");
    cl_command_queue q = clCreateCommandQueue(c, d, 0, &e);
    mark("queue");
    for (i = 0; i < NBUF; i++) {
        b[i] = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 2 << 20, NULL, &e);
        m[i] = clEnqueueMapBuffer(q, b[i], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 2 << 20, 0,
                                  NULL, NULL, &e);
    }
    mark("staging24");
    for (i = 0; i < NBUF; i++)
        clEnqueueUnmapMemObject(q, b[i], m[i], 0, NULL, NULL);
    clFinish(q);
    for (i = 0; i < NBUF; i++)
        clReleaseMemObject(b[i]);
    mark("unstage");
    clReleaseCommandQueue(q);
    clReleaseContext(c);
    mark("release");
    fprintf(stderr, "PHASE device %s\n", name);
    return 0;
}
