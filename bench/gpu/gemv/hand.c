/* Times the gemv kernels of hand.cl (OpenCL event profiling) on an n x n double matrix and
 * checks each "t" kernel against t_plain and each "n" kernel against n_plain, bit for bit.
 * Usage: hand hand.cl [n] [reps].  Prints "gemv NAME MS_PER_CALL GB/s same|DIFFERS". */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { \
  fprintf(stderr, "%s:%d: OpenCL error %d\n", __FILE__, __LINE__, e_); exit(1); } } while (0)

/* name, work items per output group (global = n / per * lx rounded), local size */
static const struct { const char *name; int per, items, lx; } V[] = {
  {"t_plain", 1, 1, 256}, {"t_reg8", 1, 1, 256}, {"t_c2", 2, 1, 128}, {"t_c4", 4, 1, 64},
  {"n_plain", 1, 1, 128}, {"n_vec4x4", 1, 1, 128}, {"n_tile256", 32, 256, 256},
};

static char *slurp(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(1); }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc(len + 1);
  if (fread(text, 1, len, f) != (size_t)len) { perror(path); exit(1); }
  text[len] = 0;
  fclose(f);
  return text;
}

static cl_device_id pick_device(void)
{
  cl_platform_id plats[8];
  cl_uint np = 0;
  CHECK(clGetPlatformIDs(8, plats, &np));
  const char *want = getenv("TRANSLATE_DEVICE");
  cl_device_type type = want && strcmp(want, "cpu") == 0 ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
  for (cl_uint p = 0; p < np; p++) {
    cl_device_id d;
    if (clGetDeviceIDs(plats[p], type, 1, &d, NULL) == CL_SUCCESS)
      return d;
  }
  fprintf(stderr, "no OpenCL device\n");
  exit(1);
}

int main(int argc, char **argv)
{
  const char *path = argc > 1 ? argv[1] : "hand.cl";
  int n = argc > 2 ? atoi(argv[2]) : 16384, reps = argc > 3 ? atoi(argv[3]) : 5;
  size_t bytes = (size_t)n * n * sizeof(double), vbytes = n * sizeof(double);
  cl_int err;
  cl_device_id dev = pick_device();
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK(err);
  const char *src = slurp(path);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  if (clBuildProgram(prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
    char log[16384];
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed:\n%s\n", log);
    return 1;
  }
  double *a = malloc(bytes), *x = malloc(vbytes), *y = malloc(vbytes);
  double *ref_t = malloc(vbytes), *ref_n = malloc(vbytes);
  for (long i = 0; i < (long)n * n; i++)
    a[i] = (double)((i * 3 + 1) % 101) / 101.0;
  for (int i = 0; i < n; i++)
    x[i] = (double)((i * 5 + 1) % 101) / 101.0;
  cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
  CHECK(err);
  cl_mem dx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, vbytes, x, &err);
  CHECK(err);
  cl_mem dy = clCreateBuffer(ctx, CL_MEM_READ_WRITE, vbytes, NULL, &err);
  CHECK(err);
  for (size_t v = 0; v < sizeof V / sizeof V[0]; v++) {
    cl_kernel k = clCreateKernel(prog, V[v].name, &err);
    CHECK(err);
    CHECK(clSetKernelArg(k, 0, sizeof da, &da));
    CHECK(clSetKernelArg(k, 1, sizeof dx, &dx));
    CHECK(clSetKernelArg(k, 2, sizeof dy, &dy));
    CHECK(clSetKernelArg(k, 3, sizeof n, &n));
    size_t local = V[v].lx, groups_items = (size_t)(n + V[v].per - 1) / V[v].per * V[v].items;
    size_t global = (groups_items + local - 1) / local * local;
    double ms = 0.0;
    for (int r = 0; r <= reps; r++) {
      cl_event ev;
      cl_ulong t0, t1;
      CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, &ev));
      CHECK(clWaitForEvents(1, &ev));
      CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
      CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
      if (r > 0)
        ms += (t1 - t0) * 1e-6;
      clReleaseEvent(ev);
    }
    int is_t = V[v].name[0] == 't', first = strcmp(V[v].name, "t_plain") == 0
                                              || strcmp(V[v].name, "n_plain") == 0;
    double *ref = is_t ? ref_t : ref_n;
    CHECK(clEnqueueReadBuffer(q, dy, CL_TRUE, 0, vbytes, first ? ref : y, 0, NULL, NULL));
    int same = first || memcmp(ref, y, vbytes) == 0;
    printf("gemv %s %.4f %.0f %s\n", V[v].name, ms / reps, bytes / (ms / reps) / 1e6,
           same ? "same" : "DIFFERS");
    clReleaseKernel(k);
  }
  return 0;
}
