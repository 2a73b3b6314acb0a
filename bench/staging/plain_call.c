/* bench/staging/plain_call.c: ways to do one plain region call on small arrays, raw OpenCL, no
 * translator runtime (h49, issue 23 item 5).  The call: x (in) and y (in and out), N doubles
 * each, y = a*x + y, the host sees y afterwards.  Microseconds per call, best of 3 x CALLS,
 * and whether y came out right:
 *
 *   plain            2 non-blocking writes (pageable), launch, blocking read (floor_cl's plain)
 *   runtime-before   2 non-blocking writes (pageable), launch, non-blocking read into pinned
 *                    memory, clFinish, memcpy (translate_rt.c before h49)
 *   packed           x and y memcpy'd into one pinned block, ONE non-blocking write into one
 *                    device buffer (x and y are sub-buffers of it), launch, non-blocking read
 *                    of y into the pinned block, clFinish, memcpy out
 *   packed-blocking  the same, the read blocking instead of clFinish
 *   packed-pageable  x and y packed into a malloc'd block, one write, launch, blocking read
 *   zero-copy        kernel arguments are CL_MEM_ALLOC_HOST_PTR buffers kept mapped (not
 *                    allowed by OpenCL 1.2: shows whether the kernel reads host memory)
 *   map-unmap        one ALLOC_HOST_PTR block (sub-buffers x, y) kept mapped between calls:
 *                    memcpy in, unmap, launch, blocking map, memcpy out
 *   launch+finish    launch and clFinish only (the floor of any call that waits)
 *   launch+read      launch and a blocking read of y into pinned memory
 *
 *   gcc -O2 plain_call.c -lOpenCL -o plain_call && ./plain_call [CALLS] [N]
 */
#define CL_TARGET_OPENCL_VERSION 200
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static cl_context ctx;
static cl_command_queue q;
static cl_device_id dev;
static cl_program prog;
static size_t N = 16, ALIGN = 128;

static void die(cl_int err, const char *what)
{
    if (err != CL_SUCCESS) {
        fprintf(stderr, "plain_call: %s failed (%d)\n", what, err);
        exit(1);
    }
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static const char *SRC =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "__kernel void __attribute__((reqd_work_group_size(256, 1, 1)))\n"
    "tiny(__global const double *restrict x, __global double *restrict y, int n, double a)\n"
    "{ int i = get_global_id(0); if (i < n) y[i] = a * x[i] + y[i]; }\n";

static void setup(void)
{
    cl_platform_id all[8];
    cl_uint n = 0, p, bits = 0;
    cl_int err;
    cl_bool unified = 0;
    cl_ulong svm = 0;
    char name[256] = "", ver[256] = "";
    die(clGetPlatformIDs(8, all, &n), "clGetPlatformIDs");
    for (p = 0; p < n && dev == NULL; ++p)
        if (clGetDeviceIDs(all[p], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
            dev = NULL;
    if (dev == NULL)
        die(clGetDeviceIDs(all[0], CL_DEVICE_TYPE_ALL, 1, &dev, NULL), "clGetDeviceIDs");
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof ver, ver, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL);
    ALIGN = bits / 8 > ALIGN ? bits / 8 : ALIGN;
    printf("plain_call device %s | %s | base align %u bytes | host unified %u | svm caps 0x%llx\n",
           name, ver, bits / 8, (unsigned)unified, (unsigned long long)svm);
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    die(err, "clCreateContext");
    q = clCreateCommandQueue(ctx, dev, 0, &err);
    die(err, "clCreateCommandQueue");
    prog = clCreateProgramWithSource(ctx, 1, &SRC, NULL, &err);
    die(err, "clCreateProgramWithSource");
    die(clBuildProgram(prog, 1, &dev, "", NULL, NULL), "clBuildProgram");
}

static cl_mem buffer(cl_mem_flags flags, size_t bytes)
{
    cl_int err;
    cl_mem b = clCreateBuffer(ctx, flags, bytes, NULL, &err);
    die(err, "clCreateBuffer");
    return b;
}

static cl_mem sub(cl_mem parent, size_t origin, size_t bytes)
{
    cl_buffer_region r = {origin, bytes};
    cl_int err;
    cl_mem b = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    die(err, "clCreateSubBuffer");
    return b;
}

static void *map(cl_mem b, size_t bytes)
{
    cl_int err;
    void *p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL,
                                 NULL, &err);
    die(err, "clEnqueueMapBuffer");
    return p;
}

static cl_kernel kernel_on(cl_mem bx, cl_mem by)
{
    cl_int err;
    int n = (int)N;
    double a = 1.0;
    cl_kernel k = clCreateKernel(prog, "tiny", &err);
    die(err, "clCreateKernel");
    clSetKernelArg(k, 0, sizeof bx, &bx);
    clSetKernelArg(k, 1, sizeof by, &by);
    clSetKernelArg(k, 2, sizeof n, &n);
    clSetKernelArg(k, 3, sizeof a, &a);
    return k;
}

static void launch(cl_kernel k)
{
    size_t l = 256, g = (N + 255) / 256 * 256;
    die(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), "launch");
}

enum { PLAIN, BEFORE, PACKED, PACKED_BLOCKING, PACKED_PAGEABLE, ZERO_COPY, MAP_UNMAP,
       LAUNCH_FINISH, LAUNCH_READ, NPATTERNS };
static const char *names[] = {"plain", "runtime-before", "packed", "packed-blocking",
                              "packed-pageable", "zero-copy", "map-unmap", "launch+finish",
                              "launch+read"};

struct state {
    cl_mem dx, dy, pool, px_sub, py_sub, pin, zx, zy, mblock, mx, my;
    cl_kernel k_sep, k_pool, k_zero, k_map;
    char *pinned, *zxp, *zyp, *mptr, *page;
    size_t yoff, total;
};

static void make_state(struct state *s)
{
    size_t bytes = N * sizeof(double);
    s->yoff = (bytes + ALIGN - 1) / ALIGN * ALIGN;
    s->total = s->yoff + bytes;
    s->dx = buffer(CL_MEM_READ_WRITE, bytes);
    s->dy = buffer(CL_MEM_READ_WRITE, bytes);
    s->k_sep = kernel_on(s->dx, s->dy);
    s->pool = buffer(CL_MEM_READ_WRITE, s->total);
    s->px_sub = sub(s->pool, 0, bytes);
    s->py_sub = sub(s->pool, s->yoff, bytes);
    s->k_pool = kernel_on(s->px_sub, s->py_sub);
    s->pin = buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, s->total);
    s->pinned = map(s->pin, s->total);
    s->zx = buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes);
    s->zy = buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes);
    s->zxp = map(s->zx, bytes);
    s->zyp = map(s->zy, bytes);
    s->k_zero = kernel_on(s->zx, s->zy);
    s->mblock = buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, s->total);
    s->mx = sub(s->mblock, 0, bytes);
    s->my = sub(s->mblock, s->yoff, bytes);
    s->k_map = kernel_on(s->mx, s->my);
    s->mptr = map(s->mblock, s->total);
    s->page = malloc(s->total);
}

static void one_call(struct state *s, int which, const double *x, double *y)
{
    size_t bytes = N * sizeof(double);
    cl_int err;
    switch (which) {
    case PLAIN:
        clEnqueueWriteBuffer(q, s->dx, CL_FALSE, 0, bytes, x, 0, NULL, NULL);
        clEnqueueWriteBuffer(q, s->dy, CL_FALSE, 0, bytes, y, 0, NULL, NULL);
        launch(s->k_sep);
        die(clEnqueueReadBuffer(q, s->dy, CL_TRUE, 0, bytes, y, 0, NULL, NULL), "read");
        break;
    case BEFORE:
        clEnqueueWriteBuffer(q, s->dx, CL_FALSE, 0, bytes, x, 0, NULL, NULL);
        clEnqueueWriteBuffer(q, s->dy, CL_FALSE, 0, bytes, y, 0, NULL, NULL);
        launch(s->k_sep);
        clEnqueueReadBuffer(q, s->dy, CL_FALSE, 0, bytes, s->pinned, 0, NULL, NULL);
        die(clFinish(q), "finish");
        memcpy(y, s->pinned, bytes);
        break;
    case PACKED:
    case PACKED_BLOCKING:
        memcpy(s->pinned, x, bytes);
        memcpy(s->pinned + s->yoff, y, bytes);
        clEnqueueWriteBuffer(q, s->pool, CL_FALSE, 0, s->total, s->pinned, 0, NULL, NULL);
        launch(s->k_pool);
        clEnqueueReadBuffer(q, s->pool, which == PACKED_BLOCKING, s->yoff, bytes,
                            s->pinned + s->yoff, 0, NULL, NULL);
        if (which == PACKED)
            die(clFinish(q), "finish");
        memcpy(y, s->pinned + s->yoff, bytes);
        break;
    case PACKED_PAGEABLE:
        memcpy(s->page, x, bytes);
        memcpy(s->page + s->yoff, y, bytes);
        clEnqueueWriteBuffer(q, s->pool, CL_FALSE, 0, s->total, s->page, 0, NULL, NULL);
        launch(s->k_pool);
        die(clEnqueueReadBuffer(q, s->pool, CL_TRUE, s->yoff, bytes, y, 0, NULL, NULL), "read");
        break;
    case ZERO_COPY:
        memcpy(s->zxp, x, bytes);
        memcpy(s->zyp, y, bytes);
        launch(s->k_zero);
        die(clFinish(q), "finish");
        memcpy(y, s->zyp, bytes);
        break;
    case MAP_UNMAP:
        memcpy(s->mptr, x, bytes);
        memcpy(s->mptr + s->yoff, y, bytes);
        die(clEnqueueUnmapMemObject(q, s->mblock, s->mptr, 0, NULL, NULL), "unmap");
        launch(s->k_map);
        s->mptr = clEnqueueMapBuffer(q, s->mblock, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                     s->total, 0, NULL, NULL, &err);
        die(err, "map");
        memcpy(y, s->mptr + s->yoff, bytes);
        break;
    case LAUNCH_FINISH:
        launch(s->k_sep);
        die(clFinish(q), "finish");
        break;
    case LAUNCH_READ:
        launch(s->k_sep);
        die(clEnqueueReadBuffer(q, s->dy, CL_TRUE, 0, bytes, s->pinned, 0, NULL, NULL), "read");
        break;
    }
}

/* `calls` calls of one pattern from y = 0; returns us per call, *ok whether y = calls * x. */
static double run(struct state *s, int which, int calls, int *ok)
{
    double *x = malloc(N * sizeof *x), *y = calloc(N, sizeof *y), t0, t;
    size_t i;
    for (i = 0; i < N; ++i)
        x[i] = (double)i;
    t0 = now_us();
    for (int c = 0; c < calls; ++c)
        one_call(s, which, x, y);
    die(clFinish(q), "finish");
    t = (now_us() - t0) / calls;
    *ok = 1;
    for (i = 0; i < N && which < LAUNCH_FINISH; ++i)
        if (y[i] != (double)calls * x[i])
            *ok = 0;
    free(x);
    free(y);
    return t;
}

int main(int argc, char **argv)
{
    int calls = argc > 1 ? atoi(argv[1]) : 20000, ok;
    struct state s;
    if (argc > 2)
        N = (size_t)atol(argv[2]);
    setup();
    make_state(&s);
    for (int which = 0; which < NPATTERNS; ++which)
        run(&s, which, 200, &ok);   /* warm-up */
    for (int which = 0; which < NPATTERNS; ++which) {
        double best = 1e30;
        int all_ok = 1;
        for (int rep = 0; rep < 3; ++rep) {
            double t = run(&s, which, calls, &ok);
            best = t < best ? t : best;
            all_ok &= ok;
        }
        printf("plain_call n %zu %-16s per_call_us %8.3f %s\n", N, names[which], best,
               which >= LAUNCH_FINISH ? "" : all_ok ? "ok" : "WRONG");
    }
    return 0;
}
