/* Float division and square root on the OpenCL device against the host's IEEE results (lead,
 * session 10): does a kernel built without -cl-fp32-correctly-rounded-divide-sqrt round a / b
 * and sqrt(a) as gcc does?  Prints the count of differing results over N pseudo-random pairs
 * (all exponents), built once without and once with the option.
 *   gcc -O2 fdiv_check.c -lOpenCL -lm -o fdiv_check && ./fdiv_check [N] */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CHECK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { \
  fprintf(stderr, "%s:%d: OpenCL error %d\n", __FILE__, __LINE__, e_); exit(1); } } while (0)
static const char *src =
  "__kernel void k(__global const float *a, __global const float *b, __global float *q,\n"
  "                __global float *r, __global float *s, __global double *dq) {\n"
  "  size_t i = get_global_id(0);\n"
  "  q[i] = a[i] / b[i];\n"
  "  r[i] = sqrt(a[i] < 0.0f ? -a[i] : a[i]);\n"
  "  s[i] = 1.0f / b[i];\n"
  "  dq[i] = (double)a[i] / (double)b[i] * 1.000000001;\n"
  "}\n";
static uint64_t state = 88172645463325252ull;
static uint32_t next(void) { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return (uint32_t)state; }
static float any_float(void) {   /* finite, any exponent */
  for (;;) { uint32_t u = next(); float f; memcpy(&f, &u, 4); if (isfinite(f) && f != 0.0f) return f; }
}
int main(int argc, char **argv) {
  size_t n = argc > 1 ? (size_t)atol(argv[1]) : (1u << 22);
  cl_platform_id pl; cl_device_id dev; cl_int err;
  CHECK(clGetPlatformIDs(1, &pl, NULL));
  const char *w = getenv("TRANSLATE_DEVICE");
  CHECK(clGetDeviceIDs(pl, w && !strcmp(w, "cpu") ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU, 1, &dev, NULL));
  char name[256]; clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
  cl_device_fp_config cfg; clGetDeviceInfo(dev, CL_DEVICE_SINGLE_FP_CONFIG, sizeof cfg, &cfg, NULL);
  printf("device %s, CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT %s\n", name,
         cfg & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT ? "yes" : "no");
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err); CHECK(err);
  cl_command_queue qu = clCreateCommandQueue(ctx, dev, 0, &err); CHECK(err);
  float *a = malloc(n * 4), *b = malloc(n * 4), *q = malloc(n * 4), *r = malloc(n * 4), *s = malloc(n * 4);
  double *dq = malloc(n * 8);
  for (size_t i = 0; i < n; i++) {
    a[i] = any_float(); b[i] = (i & 1) ? any_float() : (float)(next() % 1000 + 1) / 7.0f;
  }
  cl_mem A = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * 4, a, &err); CHECK(err);
  cl_mem B = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * 4, b, &err); CHECK(err);
  cl_mem Q = clCreateBuffer(ctx, 0, n * 4, NULL, &err); CHECK(err);
  cl_mem R = clCreateBuffer(ctx, 0, n * 4, NULL, &err); CHECK(err);
  cl_mem S = clCreateBuffer(ctx, 0, n * 4, NULL, &err); CHECK(err);
  cl_mem D = clCreateBuffer(ctx, 0, n * 8, NULL, &err); CHECK(err);
  const char *opts[2] = {"-cl-kernel-arg-info", "-cl-kernel-arg-info -cl-fp32-correctly-rounded-divide-sqrt"};
  for (int o = 0; o < 2; o++) {
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err); CHECK(err);
    CHECK(clBuildProgram(p, 1, &dev, opts[o], NULL, NULL));
    cl_kernel k = clCreateKernel(p, "k", &err); CHECK(err);
    cl_mem args[6] = {A, B, Q, R, S, D};
    for (int i = 0; i < 6; i++) CHECK(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]));
    CHECK(clEnqueueNDRangeKernel(qu, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(qu, Q, CL_TRUE, 0, n * 4, q, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(qu, R, CL_TRUE, 0, n * 4, r, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(qu, S, CL_TRUE, 0, n * 4, s, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(qu, D, CL_TRUE, 0, n * 8, dq, 0, NULL, NULL));
    size_t dq_n = 0, dr_n = 0, ds_n = 0, dd_n = 0;
    for (size_t i = 0; i < n; i++) {
      volatile float hq = a[i] / b[i], hr = sqrtf(fabsf(a[i])), hs = 1.0f / b[i];
      volatile double hd = (double)a[i] / (double)b[i] * 1.000000001;
      dq_n += memcmp((const void *)&hq, &q[i], 4) != 0;
      dr_n += memcmp((const void *)&hr, &r[i], 4) != 0;
      ds_n += memcmp((const void *)&hs, &s[i], 4) != 0;
      dd_n += memcmp((const void *)&hd, &dq[i], 8) != 0;
    }
    printf("options \"%s\": of %zu, float a/b differs %zu, sqrt %zu, 1/b %zu; double a/b %zu\n",
           opts[o], n, dq_n, dr_n, ds_n, dd_n);
    clReleaseKernel(k); clReleaseProgram(p);
  }
  return 0;
}
