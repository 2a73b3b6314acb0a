/* Does the OpenCL device contract a*b + c into an fma although the kernel says
 * `#pragma OPENCL FP_CONTRACT OFF` (lead, session 11)?  The translator's kernels carry that
 * pragma so that each product is rounded as gcc's program rounds it (gcc -ffp-contract=off is
 * what the originals are compared with).  Prints, over N pseudo-random triples, how many
 * results differ from the host's unfused ones, with the pragma and without it, in double and
 * in float; and the same with a product rounded to float then a double sum.
 *   gcc -O2 -ffp-contract=off contract_check.c -lOpenCL -lm -o contract_check && ./contract_check */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CHECK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { \
  fprintf(stderr, "%s:%d: OpenCL error %d\n", __FILE__, __LINE__, e_); exit(1); } } while (0)
static const char *body =
  "__kernel void k(__global const double *a, __global const double *b, __global const double *c,\n"
  "                __global double *r, __global float *f, __global double *m) {\n"
  "  size_t i = get_global_id(0);\n"
  "  r[i] = a[i] * b[i] + c[i];\n"
  "  f[i] = (float)a[i] * (float)b[i] - (float)c[i];\n"
  "  float s = (float)a[i];\n"
  "  s = (float)((double)s * b[i]);\n"
  "  m[i] = (double)s - c[i] * 1e-3;\n"
  "}\n";
static uint64_t state = 88172645463325252ull;
static double unit(void) {
  state ^= state << 13; state ^= state >> 7; state ^= state << 17;
  return (double)(state >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}
int main(int argc, char **argv) {
  size_t n = argc > 1 ? (size_t)atol(argv[1]) : (1u << 22);
  cl_platform_id pl; cl_device_id dev; cl_int err;
  CHECK(clGetPlatformIDs(1, &pl, NULL));
  const char *w = getenv("TRANSLATE_DEVICE");
  CHECK(clGetDeviceIDs(pl, w && !strcmp(w, "cpu") ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU,
                       1, &dev, NULL));
  char name[256]; clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
  printf("device %s\n", name);
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err); CHECK(err);
  cl_command_queue qu = clCreateCommandQueue(ctx, dev, 0, &err); CHECK(err);
  double *a = malloc(n * 8), *b = malloc(n * 8), *c = malloc(n * 8), *r = malloc(n * 8);
  double *m = malloc(n * 8); float *f = malloc(n * 4);
  for (size_t i = 0; i < n; i++) { a[i] = unit() * 3; b[i] = unit() * 7; c[i] = unit(); }
  cl_mem A = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * 8, a, &err); CHECK(err);
  cl_mem B = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * 8, b, &err); CHECK(err);
  cl_mem C = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * 8, c, &err); CHECK(err);
  cl_mem R = clCreateBuffer(ctx, 0, n * 8, NULL, &err); CHECK(err);
  cl_mem F = clCreateBuffer(ctx, 0, n * 4, NULL, &err); CHECK(err);
  cl_mem M = clCreateBuffer(ctx, 0, n * 8, NULL, &err); CHECK(err);
  const char *heads[2] = {"#pragma OPENCL FP_CONTRACT OFF\n", ""};
  for (int o = 0; o < 2; o++) {
    char src[2048]; snprintf(src, sizeof src, "%s%s", heads[o], body);
    const char *s = src;
    cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &err); CHECK(err);
    CHECK(clBuildProgram(p, 1, &dev, "-cl-fp32-correctly-rounded-divide-sqrt", NULL, NULL));
    cl_kernel k = clCreateKernel(p, "k", &err); CHECK(err);
    cl_mem args[6] = {A, B, C, R, F, M};
    for (int i = 0; i < 6; i++) CHECK(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]));
    CHECK(clEnqueueNDRangeKernel(qu, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(qu, R, CL_TRUE, 0, n * 8, r, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(qu, F, CL_TRUE, 0, n * 4, f, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(qu, M, CL_TRUE, 0, n * 8, m, 0, NULL, NULL));
    size_t dr = 0, df = 0, dm = 0, fr = 0;
    for (size_t i = 0; i < n; i++) {
      volatile double hr = a[i] * b[i] + c[i];
      volatile float hf = (float)a[i] * (float)b[i] - (float)c[i];
      volatile float hs = (float)((double)(float)a[i] * b[i]);
      volatile double hm = (double)hs - c[i] * 1e-3;
      double fused = fma(a[i], b[i], c[i]);
      dr += memcmp((const void *)&hr, &r[i], 8) != 0;
      fr += memcmp(&fused, &r[i], 8) == 0 && fused != hr;
      df += memcmp((const void *)&hf, &f[i], 4) != 0;
      dm += memcmp((const void *)&hm, &m[i], 8) != 0;
    }
    printf("%s: of %zu, double a*b+c differs %zu (%zu equal to fma), float a*b-c %zu, "
           "float product then double sum %zu\n", o ? "no pragma" : "FP_CONTRACT OFF", n, dr,
           fr, df, dm);
    clReleaseKernel(k); clReleaseProgram(p);
  }
  return 0;
}
