/* Times the stencil variants of variants.cl (OpenCL, event profiling) on n x n doubles and
 * checks each against plain32.  Usage: pfx variants.cl [n] [reps].  Prints, per variant,
 * "pfx NAME MS_PER_CALL" and whether its result equals plain32's bit for bit. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { \
  fprintf(stderr, "%s:%d: OpenCL error %d\n", __FILE__, __LINE__, e_); exit(1); } } while (0)

static const struct { const char *name; int lx, ly; } VARIANTS[] = {
  {"plain32", 32, 8}, {"plain16", 16, 16}, {"pf16_gen", 16, 16}, {"pf16_const", 16, 16},
  {"pf16_flat", 16, 16}, {"pf16_flatfull", 16, 16}, {"pf32_gen", 32, 8}, {"pf32_flat", 32, 8},
  {"pf16_const_nounroll", 16, 16}, {"pf16_new", 16, 16}, {"pf32_new", 32, 8},
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
  const char *path = argc > 1 ? argv[1] : "variants.cl";
  int n = argc > 2 ? atoi(argv[2]) : 8192, reps = argc > 3 ? atoi(argv[3]) : 10;
  size_t bytes = (size_t)n * n * sizeof(double);
  cl_int err;
  cl_device_id dev = pick_device();
  char name[256];
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL));
  printf("pfx device %s n %d reps %d\n", name, n, reps);
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
  double *a = malloc(bytes), *b = malloc(bytes), *ref = malloc(bytes);
  for (long i = 0; i < (long)n * n; i++)
    a[i] = (double)(i % 97) / 97.0;
  cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
  CHECK(err);
  cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
  CHECK(err);
  for (size_t v = 0; v < sizeof VARIANTS / sizeof VARIANTS[0]; v++) {
    cl_kernel k = clCreateKernel(prog, VARIANTS[v].name, &err);
    CHECK(err);
    CHECK(clSetKernelArg(k, 0, sizeof da, &da));
    CHECK(clSetKernelArg(k, 1, sizeof db, &db));
    CHECK(clSetKernelArg(k, 2, sizeof n, &n));
    double zero = 0.0;
    CHECK(clEnqueueFillBuffer(q, db, &zero, sizeof zero, 0, bytes, 0, NULL, NULL));
    size_t local[2] = {VARIANTS[v].lx, VARIANTS[v].ly};
    size_t global[2] = {(n + local[0] - 1) / local[0] * local[0],
                        (n + local[1] - 1) / local[1] * local[1]};
    double ms = 0.0;
    for (int r = 0; r <= reps; r++) {   /* the first call warms up, untimed */
      cl_event ev;
      cl_ulong t0, t1;
      CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, &ev));
      CHECK(clWaitForEvents(1, &ev));
      CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
      CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
      if (r > 0)
        ms += (t1 - t0) * 1e-6;
      clReleaseEvent(ev);
    }
    CHECK(clEnqueueReadBuffer(q, db, CL_TRUE, 0, bytes, v == 0 ? ref : b, 0, NULL, NULL));
    int same = v == 0 || memcmp(ref, b, bytes) == 0;
    printf("pfx %s %.6f %s\n", VARIANTS[v].name, ms / reps, same ? "same" : "DIFFERS");
    clReleaseKernel(k);
  }
  return 0;
}
