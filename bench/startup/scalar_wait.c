/* bench/startup/scalar_wait.c: what a region that returns a scalar pays to wait, raw OpenCL, no
 * translator runtime (h44, issue 29 item 2): K launches of a small kernel, then the 8-byte
 * result read back, in several ways.  Microseconds per round (best of 3 x ROUNDS):
 *
 *   blocking-pageable   clEnqueueReadBuffer(CL_TRUE) into malloc'd memory (the runtime today)
 *   blocking-pinned     the same into pinned (CL_MEM_ALLOC_HOST_PTR, mapped) memory
 *   spin-pinned         non-blocking read into pinned memory with an event, clFlush, then
 *                       clGetEventInfo in a loop until the read is complete
 *   spin-pageable       the same into malloc'd memory
 *   spin-brief-pinned   spin-pinned for at most 50 us, then clWaitForEvents
 *   wait-pinned         non-blocking read into pinned memory, clWaitForEvents
 *   finish-pinned       non-blocking read into pinned memory, clFinish
 *   launches-only       the K launches and nothing else (clFinish at the end of all rounds)
 *
 *   gcc -O2 scalar_wait.c -lOpenCL -o scalar_wait && ./scalar_wait [K] [ROUNDS]
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static cl_context ctx;
static cl_command_queue q;
static cl_kernel kern;
static cl_mem dev_out, pin_buf;
static double *pin;

static void die(cl_int err, const char *what)
{
    if (err != CL_SUCCESS) {
        fprintf(stderr, "scalar_wait: %s failed (%d)\n", what, err);
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
    "__kernel void k(__global double *out, double a)\n"
    "{ if (get_global_id(0) == 0) out[0] += a; }\n";

static void setup(void)
{
    cl_platform_id all[8];
    cl_uint n = 0, p;
    cl_device_id dev = NULL;
    cl_int err;
    cl_program prog;
    double a = 1.0, zero = 0.0;
    die(clGetPlatformIDs(8, all, &n), "clGetPlatformIDs");
    for (p = 0; p < n && dev == NULL; ++p)
        if (clGetDeviceIDs(all[p], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
            dev = NULL;
    if (dev == NULL)
        die(clGetDeviceIDs(all[0], CL_DEVICE_TYPE_ALL, 1, &dev, NULL), "clGetDeviceIDs");
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    die(err, "clCreateContext");
    q = clCreateCommandQueue(ctx, dev, 0, &err);
    die(err, "clCreateCommandQueue");
    prog = clCreateProgramWithSource(ctx, 1, &SRC, NULL, &err);
    die(err, "clCreateProgramWithSource");
    die(clBuildProgram(prog, 1, &dev, "", NULL, NULL), "clBuildProgram");
    kern = clCreateKernel(prog, "k", &err);
    die(err, "clCreateKernel");
    dev_out = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero,
                             &err);
    die(err, "clCreateBuffer");
    pin_buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 64, NULL, &err);
    die(err, "clCreateBuffer pinned");
    pin = clEnqueueMapBuffer(q, pin_buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 64, 0, NULL,
                             NULL, &err);
    die(err, "clEnqueueMapBuffer");
    clSetKernelArg(kern, 0, sizeof dev_out, &dev_out);
    clSetKernelArg(kern, 1, sizeof a, &a);
}

static void spin(cl_event ev, double limit_us)
{
    cl_int st = CL_QUEUED;
    double t0 = now_us();
    while (st != CL_COMPLETE) {
        if (now_us() - t0 > limit_us) {
            die(clWaitForEvents(1, &ev), "clWaitForEvents");
            return;
        }
        die(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL), "info");
        if (st < 0)
            die(st, "read");
    }
}

/* One round of pattern `which`: K launches and a read; returns the value read. */
static double round_of(int which, int k, double *pageable)
{
    size_t g = 256, l = 256;
    cl_event ev = NULL;
    double *dst = which == 0 || which == 3 ? pageable : pin;
    which = which == 7 ? 8 : which;
    int i;
    for (i = 0; i < k; ++i)
        die(clEnqueueNDRangeKernel(q, kern, 1, NULL, &g, &l, 0, NULL, NULL), "launch");
    if (which == 6)
        return 0.0;
    if (which == 8) {   /* spin-brief-pinned */
        die(clEnqueueReadBuffer(q, dev_out, CL_FALSE, 0, sizeof(double), dst, 0, NULL, &ev),
            "read");
        clFlush(q);
        spin(ev, 50.0);
        clReleaseEvent(ev);
        return *dst;
    }
    if (which <= 1) {
        die(clEnqueueReadBuffer(q, dev_out, CL_TRUE, 0, sizeof(double), dst, 0, NULL, NULL),
            "read");
        return *dst;
    }
    die(clEnqueueReadBuffer(q, dev_out, CL_FALSE, 0, sizeof(double), dst, 0, NULL, &ev), "read");
    if (which == 2 || which == 3) {
        clFlush(q);
        spin(ev, 1e30);
    } else if (which == 4) {
        die(clWaitForEvents(1, &ev), "clWaitForEvents");
    } else {
        die(clFinish(q), "clFinish");
    }
    clReleaseEvent(ev);
    return *dst;
}

int main(int argc, char **argv)
{
    static const char *names[] = {"blocking-pageable", "blocking-pinned", "spin-pinned",
                                  "spin-pageable", "wait-pinned", "finish-pinned",
                                  "launches-only", "spin-brief-pinned"};
    int k = argc > 1 ? atoi(argv[1]) : 3, rounds = argc > 2 ? atoi(argv[2]) : 2000;
    int which, rep, r;
    double *pageable = malloc(64), check = 0.0;
    setup();
    for (r = 0; r < 200; ++r)
        check = round_of(0, k, pageable);   /* warm-up */
    for (which = 0; which < 8; ++which) {
        double best = 1e30;
        for (rep = 0; rep < 3; ++rep) {
            double t0 = now_us(), t;
            for (r = 0; r < rounds; ++r)
                check = round_of(which, k, pageable);
            clFinish(q);
            t = (now_us() - t0) / rounds;
            best = t < best ? t : best;
        }
        printf("scalar_wait %-18s K %d us_per_round %.2f\n", names[which], k, best);
    }
    printf("scalar_wait check %g\n", check);
    return 0;
}
