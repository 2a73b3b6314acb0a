// bench/staging/floor_cuda.cu: the CUDA floor of one region call on 16 doubles (compare
// floor_cl.c and bench/gpu/overhead.c): two small host-to-device copies, one kernel launch,
// one blocking device-to-host copy, `calls` times; with pageable and with pinned host memory;
// and a launch alone (async), and a launch + cudaStreamSynchronize.
// Build on the device machine: nvcc -O2 floor_cuda.cu -o floor_cuda.  usage: floor_cuda [calls]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <cuda_runtime.h>

#define N 16

__global__ void tiny(const double *x, double *y, int n, double a)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

static double now_us()
{
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

// which: 0 pageable copies, 1 pinned copies, 2 launch only, 3 launch + synchronize
static double pattern(int which, int calls, double *x, double *y, double *dx, double *dy,
                      cudaStream_t s)
{
  const size_t bytes = N * sizeof(double);
  double t0 = now_us();
  for (int c = 0; c < calls; ++c) {
    if (which <= 1) {
      cudaMemcpyAsync(dx, x, bytes, cudaMemcpyHostToDevice, s);
      cudaMemcpyAsync(dy, y, bytes, cudaMemcpyHostToDevice, s);
    }
    tiny<<<1, 256, 0, s>>>(dx, dy, N, 1.0);
    if (which <= 1) {
      cudaMemcpyAsync(y, dy, bytes, cudaMemcpyDeviceToHost, s);
      cudaStreamSynchronize(s);
    } else if (which == 3) {
      cudaStreamSynchronize(s);
    }
  }
  cudaStreamSynchronize(s);
  return (now_us() - t0) / calls;
}

int main(int argc, char **argv)
{
  const char *names[] = {"plain", "plain-pinned", "launch", "launch+sync"};
  int calls = argc > 1 ? atoi(argv[1]) : 100000;
  double *x = (double *)malloc(N * sizeof(double)), *y = (double *)malloc(N * sizeof(double));
  double *px, *py, *dx, *dy;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMallocHost(&px, N * sizeof(double));
  cudaMallocHost(&py, N * sizeof(double));
  cudaMalloc(&dx, N * sizeof(double));
  cudaMalloc(&dy, N * sizeof(double));
  for (int i = 0; i < N; ++i) {
    x[i] = px[i] = i;
    y[i] = py[i] = 0.0;
  }
  pattern(0, 100, x, y, dx, dy, s);
  for (int which = 0; which < 4; ++which) {
    double us = which == 1 ? pattern(1, calls, px, py, dx, dy, s)
                           : pattern(which, calls, x, y, dx, dy, s);
    printf("floor_cuda %s calls %d per_call_us %.3f\n", names[which], calls, us);
  }
  printf("floor_cuda check %g %s\n", y[15], cudaGetErrorString(cudaGetLastError()));
  return 0;
}
