/* Float division by a literal on the OpenCL device (lead, session 11): with
 * -cl-fp32-correctly-rounded-divide-sqrt, is x / 2.2f rounded as gcc rounds it, or does the
 * device compiler multiply by a rounded reciprocal?  Over N floats x, counts the quotients that
 * differ from the host's: by the literal, by the same value passed as an argument, and through
 * double ((float)((double)x / 2.2): correctly rounded too, since double has more than twice
 * float's precision).
 *   gcc -O2 -ffp-contract=off constdiv_check.c -lOpenCL -lm -o constdiv_check && ./constdiv_check */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CHECK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { \
  fprintf(stderr, "%s:%d: OpenCL error %d\n", __FILE__, __LINE__, e_); exit(1); } } while (0)
static const char *src =
  "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
  "#pragma OPENCL FP_CONTRACT OFF\n"
  "__kernel void k(__global const float *x, float b, __global float *q1, __global float *q2,\n"
  "                __global float *q3, __global float *q4) {\n"
  "  size_t i = get_global_id(0);\n"
  "  q1[i] = x[i] / 2.2f;\n"
  "  q2[i] = x[i] / b;\n"
  "  q3[i] = (float)((double)x[i] / 2.2f);\n"
  "  q4[i] = x[i] / 3.0f;\n"
  "}\n";
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
  float *x = malloc(n * 4), *q[4];
  for (int j = 0; j < 4; j++) q[j] = malloc(n * 4);
  for (size_t i = 0; i < n; i++) x[i] = (float)((long)i - (long)n / 2) * 0.37f;
  cl_mem X = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * 4, x, &err); CHECK(err);
  cl_mem Q[4];
  for (int j = 0; j < 4; j++) { Q[j] = clCreateBuffer(ctx, 0, n * 4, NULL, &err); CHECK(err); }
  const char *opts[2] = {"", "-cl-fp32-correctly-rounded-divide-sqrt"};
  float b = 2.2f;
  for (int o = 0; o < 2; o++) {
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err); CHECK(err);
    CHECK(clBuildProgram(p, 1, &dev, opts[o], NULL, NULL));
    cl_kernel k = clCreateKernel(p, "k", &err); CHECK(err);
    CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &X));
    CHECK(clSetKernelArg(k, 1, sizeof(float), &b));
    for (int j = 0; j < 4; j++) CHECK(clSetKernelArg(k, 2 + j, sizeof(cl_mem), &Q[j]));
    CHECK(clEnqueueNDRangeKernel(qu, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    for (int j = 0; j < 4; j++)
      CHECK(clEnqueueReadBuffer(qu, Q[j], CL_TRUE, 0, n * 4, q[j], 0, NULL, NULL));
    size_t d[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
      volatile float h = x[i] / 2.2f, h3 = x[i] / 3.0f;
      d[0] += memcmp((const void *)&h, &q[0][i], 4) != 0;
      d[1] += memcmp((const void *)&h, &q[1][i], 4) != 0;
      d[2] += memcmp((const void *)&h, &q[2][i], 4) != 0;
      d[3] += memcmp((const void *)&h3, &q[3][i], 4) != 0;
    }
    printf("options \"%s\": of %zu, x/2.2f differs %zu, x/b %zu, through double %zu, x/3.0f %zu\n",
           opts[o], n, d[0], d[1], d[2], d[3]);
    clReleaseKernel(k); clReleaseProgram(p);
  }
  return 0;
}
