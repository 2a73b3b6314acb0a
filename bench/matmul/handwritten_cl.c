/* The classic hand-written OpenCL tiled matrix multiply (16 x 16 tiles in local memory), timed
 * with event profiling: the baseline for the translated kernels on the same OpenCL compiler.
 * Usage: handwritten_cl [N]   (float32, N x N, N a multiple of 16)   */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

static const char *SRC =
    "__kernel __attribute__((reqd_work_group_size(16, 16, 1)))\n"
    "void tiled(__global const float *A, __global const float *B, __global float *C, int n) {\n"
    "  __local float As[16][16], Bs[16][16];\n"
    "  int tx = get_local_id(0), ty = get_local_id(1);\n"
    "  int row = get_group_id(1) * 16 + ty, col = get_group_id(0) * 16 + tx;\n"
    "  float acc = 0.0f;\n"
    "  for (int t = 0; t < n; t += 16) {\n"
    "    As[ty][tx] = A[row * n + t + tx];\n"
    "    Bs[ty][tx] = B[(t + ty) * n + col];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < 16; ++k) acc += As[ty][k] * Bs[k][tx];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  C[row * n + col] = acc;\n"
    "}\n";

#define CHECK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { \
    fprintf(stderr, "%s failed: %d\n", #x, e_); exit(1); } } while (0)

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 2048, reps = 5;
  size_t bytes = (size_t)n * n * sizeof(float);
  float *a = malloc(bytes), *b = malloc(bytes);
  for (long i = 0; i < (long)n * n; i++) { a[i] = (float)(i % 17) / 17.0f; b[i] = (float)(i % 13) / 13.0f; }
  cl_platform_id platforms[8]; cl_uint np = 0; cl_device_id device = NULL; cl_int err;
  CHECK(clGetPlatformIDs(8, platforms, &np));
  for (cl_uint p = 0; p < np && device == NULL; p++)   /* the first GPU of any platform */
    if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 1, &device, NULL) != CL_SUCCESS)
      device = NULL;
  if (device == NULL) { fprintf(stderr, "no GPU found\n"); return 1; }
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err); CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &err); CHECK(err);
  cl_program prg = clCreateProgramWithSource(ctx, 1, &SRC, NULL, &err); CHECK(err);
  CHECK(clBuildProgram(prg, 1, &device, "", NULL, NULL));
  cl_kernel k = clCreateKernel(prg, "tiled", &err); CHECK(err);
  cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &err); CHECK(err);
  cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, b, &err); CHECK(err);
  cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err); CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof da, &da)); CHECK(clSetKernelArg(k, 1, sizeof db, &db));
  CHECK(clSetKernelArg(k, 2, sizeof dc, &dc)); CHECK(clSetKernelArg(k, 3, sizeof n, &n));
  size_t global[2] = {(size_t)n, (size_t)n}, local[2] = {16, 16};
  double total = 0.0;
  for (int r = 0; r <= reps; r++) {
    cl_event ev; cl_ulong t0, t1;
    CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, &ev));
    CHECK(clWaitForEvents(1, &ev));
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
    if (r > 0) total += (double)(t1 - t0) * 1e-6;   /* the first run is a warm-up */
    clReleaseEvent(ev);
  }
  double ms = total / reps;
  printf("hand-written OpenCL tiled 16x16: %8.3f ms  %8.1f GFLOP/s\n", ms,
         2.0 * n * (double)n * n / (ms * 1e-3) / 1e9);
  return 0;
}
