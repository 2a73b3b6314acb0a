/* bench/staging/floor_cl.c: the driver's floor for one region call on 16 doubles, raw OpenCL,
 * no translator runtime (compare bench/gpu/overhead.c, which goes through translate_rt.c).
 *
 *   plain          2 non-blocking writes (pageable host memory), 1 NDRange, 1 blocking read
 *   plain-pinned   the same through pinned (CL_MEM_ALLOC_HOST_PTR, mapped) host buffers
 *   launch+flush   1 NDRange + clFlush (what a region call on present data does)
 *   launch         1 NDRange only (no flush; clFinish at the end)
 *   launch+finish  1 NDRange + clFinish (a call that waits for its kernel)
 *
 * usage: floor_cl [calls]; prints "floor_cl PATTERN per_call_us X". */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 16

static cl_context ctx;
static cl_command_queue q;
static cl_kernel kern;
static cl_mem dx, dy;

static void die(cl_int err, const char *what)
{
  if (err != CL_SUCCESS) {
    fprintf(stderr, "floor_cl: %s failed (%d)\n", what, err);
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

/* The first GPU of any platform, else the first device (the device machine also has a CPU
 * platform). */
static void pick_device(cl_platform_id *plat, cl_device_id *dev)
{
  cl_platform_id all[8];
  cl_uint n = 0;
  char name[256];
  die(clGetPlatformIDs(8, all, &n), "clGetPlatformIDs");
  for (cl_uint p = 0; p < n; ++p)
    if (clGetDeviceIDs(all[p], CL_DEVICE_TYPE_GPU, 1, dev, NULL) == CL_SUCCESS) {
      *plat = all[p];
      clGetDeviceInfo(*dev, CL_DEVICE_NAME, sizeof name, name, NULL);
      fprintf(stderr, "device: %s\n", name);
      return;
    }
  *plat = all[0];
  die(clGetDeviceIDs(all[0], CL_DEVICE_TYPE_ALL, 1, dev, NULL), "clGetDeviceIDs");
  clGetDeviceInfo(*dev, CL_DEVICE_NAME, sizeof name, name, NULL);
  fprintf(stderr, "device (no GPU found): %s\n", name);
}

static void setup(void)
{
  cl_platform_id plat;
  cl_device_id dev;
  cl_int err;
  cl_program prog;
  int n = N;
  double a = 1.0;
  pick_device(&plat, &dev);
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  die(err, "clCreateContext");
  q = clCreateCommandQueue(ctx, dev, 0, &err);
  die(err, "clCreateCommandQueue");
  prog = clCreateProgramWithSource(ctx, 1, &SRC, NULL, &err);
  die(err, "clCreateProgramWithSource");
  die(clBuildProgram(prog, 1, &dev, "", NULL, NULL), "clBuildProgram");
  kern = clCreateKernel(prog, "tiny", &err);
  die(err, "clCreateKernel");
  dx = clCreateBuffer(ctx, CL_MEM_READ_ONLY, N * sizeof(double), NULL, &err);
  die(err, "clCreateBuffer");
  dy = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(double), NULL, &err);
  die(err, "clCreateBuffer");
  clSetKernelArg(kern, 0, sizeof dx, &dx);
  clSetKernelArg(kern, 1, sizeof dy, &dy);
  clSetKernelArg(kern, 2, sizeof n, &n);
  clSetKernelArg(kern, 3, sizeof a, &a);
}

static void *pinned(cl_mem *buf)
{
  cl_int err;
  void *p;
  *buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, N * sizeof(double), NULL,
                        &err);
  die(err, "clCreateBuffer pinned");
  p = clEnqueueMapBuffer(q, *buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, N * sizeof(double), 0,
                         NULL, NULL, &err);
  die(err, "clEnqueueMapBuffer");
  return p;
}

static void launch(void)
{
  size_t g = 256, l = 256;
  die(clEnqueueNDRangeKernel(q, kern, 1, NULL, &g, &l, 0, NULL, NULL), "launch");
}

/* One pattern, `calls` times; returns microseconds per call. */
static double pattern(int which, int calls, double *x, double *y)
{
  static cl_mem bx, by, bz;
  static double *px, *py, *pz;
  const size_t bytes = N * sizeof(double);
  double t0;
  if (px == NULL) {
    px = pinned(&bx);
    py = pinned(&by);
    pz = pinned(&bz);
  }
  t0 = now_us();
  for (int c = 0; c < calls; ++c) {
    if (which == 0) {
      clEnqueueWriteBuffer(q, dx, CL_FALSE, 0, bytes, x, 0, NULL, NULL);
      clEnqueueWriteBuffer(q, dy, CL_FALSE, 0, bytes, y, 0, NULL, NULL);
      launch();
      die(clEnqueueReadBuffer(q, dy, CL_TRUE, 0, bytes, y, 0, NULL, NULL), "read");
    } else if (which == 1) {
      memcpy(px, x, bytes);
      memcpy(py, y, bytes);
      clEnqueueWriteBuffer(q, dx, CL_FALSE, 0, bytes, px, 0, NULL, NULL);
      clEnqueueWriteBuffer(q, dy, CL_FALSE, 0, bytes, py, 0, NULL, NULL);
      launch();
      die(clEnqueueReadBuffer(q, dy, CL_TRUE, 0, bytes, pz, 0, NULL, NULL), "read");
      memcpy(y, pz, bytes);
    } else {
      launch();
      if (which == 2)
        clFlush(q);
      else if (which == 4)
        clFinish(q);
    }
  }
  clFinish(q);
  return (now_us() - t0) / calls;
}

int main(int argc, char **argv)
{
  static const char *names[] = {"plain", "plain-pinned", "launch+flush", "launch",
                                "launch+finish"};
  int calls = argc > 1 ? atoi(argv[1]) : 100000;
  double x[N], y[N];
  for (int i = 0; i < N; ++i) {
    x[i] = i;
    y[i] = 0.0;
  }
  setup();
  pattern(0, 100, x, y);   /* warm-up */
  for (int which = 0; which < 5; ++which)
    printf("floor_cl %s calls %d per_call_us %.3f\n", names[which], calls,
           pattern(which, calls, x, y));
  printf("floor_cl check %g\n", y[15]);
  return 0;
}
