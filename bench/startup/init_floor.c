/* bench/startup/init_floor.c: what an OpenCL program pays before its first kernel, raw OpenCL,
 * no translator runtime: the ICD loader's platform list, the device list, the context, the
 * queue, a one-kernel program built from source, a 1 MiB buffer, the first launch and wait.
 * Each step's wall time in milliseconds, and the process's CPU time (user, system) at the end.
 *
 *   gcc -O2 init_floor.c -lOpenCL -o init_floor && ./init_floor [keep]   (the first GPU device)
 *
 * With "keep" nothing is released: the process exits holding its context (time the whole
 * process from outside to see whether the driver's teardown only moves to the exit). */
#include <string.h>
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static void die(cl_int err, const char *what)
{
    if (err != CL_SUCCESS) {
        fprintf(stderr, "init_floor: %s failed (%d)\n", what, err);
        exit(1);
    }
}

static double mark(double *t, const char *what)
{
    double n = now_ms(), d = n - *t;
    printf("init_floor %-28s %8.2f ms\n", what, d);
    *t = n;
    return d;
}

int main(int argc, char **argv)
{
    int keep = argc > 1 && strcmp(argv[1], "keep") == 0;
    const char *src = "__kernel void k(__global float *a) { a[get_global_id(0)] += 1.0f; }";
    double t = now_ms(), t0 = t;
    cl_platform_id platforms[8];
    cl_uint np = 0, nd = 0, i;
    cl_device_id dev = NULL;
    cl_int err;
    struct rusage ru;
    die(clGetPlatformIDs(8, platforms, &np), "clGetPlatformIDs");
    mark(&t, "clGetPlatformIDs");
    for (i = 0; i < np && dev == NULL; ++i)
        if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_GPU, 1, &dev, &nd) != CL_SUCCESS)
            dev = NULL;
    if (dev == NULL)
        die(clGetDeviceIDs(platforms[0], CL_DEVICE_TYPE_ALL, 1, &dev, &nd), "clGetDeviceIDs");
    mark(&t, "clGetDeviceIDs");
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    die(err, "clCreateContext");
    mark(&t, "clCreateContext");
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    die(err, "clCreateCommandQueue");
    mark(&t, "clCreateCommandQueue");
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    die(err, "clCreateProgramWithSource");
    die(clBuildProgram(prog, 1, &dev, "", NULL, NULL), "clBuildProgram");
    cl_kernel k = clCreateKernel(prog, "k", &err);
    die(err, "clCreateKernel");
    mark(&t, "build one kernel");
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1 << 20, NULL, &err);
    die(err, "clCreateBuffer");
    float zero = 0.0f;
    die(clEnqueueFillBuffer(q, buf, &zero, sizeof zero, 0, 1 << 20, 0, NULL, NULL), "fill");
    mark(&t, "1 MiB buffer, filled");
    size_t g = (1 << 20) / sizeof(float);
    die(clSetKernelArg(k, 0, sizeof buf, &buf), "clSetKernelArg");
    die(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL), "launch");
    die(clFinish(q), "clFinish");
    mark(&t, "first launch and wait");
    if (!keep) {
        clReleaseMemObject(buf); clReleaseKernel(k); clReleaseProgram(prog);
        clReleaseCommandQueue(q); clReleaseContext(ctx);
        mark(&t, "release all");
    }
    getrusage(RUSAGE_SELF, &ru);
    printf("init_floor total %.2f ms, cpu user %.3f s, system %.3f s\n", now_ms() - t0,
           ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6,
           ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6);
    return 0;
}
