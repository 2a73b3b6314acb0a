/* Times GEMM kernels listed in a manifest (name file kernel lx ly tm tn dtype) on n x n, checks
 * rows against a CPU product, writes PTX (program binary) per file.  h1 exploration. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CHECK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { \
  fprintf(stderr, "%s:%d: OpenCL error %d\n", __FILE__, __LINE__, e_); exit(1); } } while (0)
static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb"); if (!f) { perror(path); exit(1); }
  fseek(f, 0, SEEK_END); long len = ftell(f); fseek(f, 0, SEEK_SET);
  char *t = malloc(len + 1); if (fread(t, 1, len, f) != (size_t)len) exit(1); t[len] = 0; fclose(f); return t;
}
static cl_device_id pick(void) {
  cl_platform_id pl[8]; cl_uint np = 0; CHECK(clGetPlatformIDs(8, pl, &np));
  const char *w = getenv("TRANSLATE_DEVICE");
  cl_device_type ty = w && strcmp(w, "cpu") == 0 ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
  for (cl_uint p = 0; p < np; p++) { cl_device_id d; if (clGetDeviceIDs(pl[p], ty, 1, &d, NULL) == CL_SUCCESS) return d; }
  fprintf(stderr, "no device\n"); exit(1);
}
int main(int argc, char **argv) {
  const char *man = argc > 1 ? argv[1] : "manifest.txt";
  int n = argc > 2 ? atoi(argv[2]) : 4096, reps = argc > 3 ? atoi(argv[3]) : 5;
  const char *ptxdir = argc > 4 ? argv[4] : NULL;
  cl_int err; cl_device_id dev = pick();
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err); CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err); CHECK(err);
  long nn = (long)n * n;
  float *fa = malloc(nn * 4), *fb = malloc(nn * 4), *fc = malloc(nn * 4);
  double *da = malloc(nn * 8), *db = malloc(nn * 8), *dc = malloc(nn * 8);
  for (long i = 0; i < nn; i++) { fa[i] = (float)(i % 7) - 3.0f; fb[i] = (float)(i % 5) * 0.5f; da[i] = fa[i]; db[i] = fb[i]; }
  /* reference rows */
  int rows[4] = {0, 1, n / 2 + 3, n - 1};
  double *ref = malloc(sizeof(double) * 4 * n);
  for (int r = 0; r < 4; r++) for (int j = 0; j < n; j++) { double s = 0; for (int k = 0; k < n; k++) s += (double)fa[(long)rows[r] * n + k] * fb[(long)k * n + j]; ref[r * n + j] = s; }
  cl_mem A4 = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nn * 4, fa, &err); CHECK(err);
  cl_mem B4 = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nn * 4, fb, &err); CHECK(err);
  cl_mem C4 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, nn * 4, NULL, &err); CHECK(err);
  cl_mem A8 = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nn * 8, da, &err); CHECK(err);
  cl_mem B8 = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nn * 8, db, &err); CHECK(err);
  cl_mem C8 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, nn * 8, NULL, &err); CHECK(err);
  FILE *m = fopen(man, "r"); if (!m) { perror(man); return 1; }
  char name[128], file[256], kname[128], ty[16]; int lx, ly, tm, tn;
  while (fscanf(m, "%127s %255s %127s %d %d %d %d %15s", name, file, kname, &lx, &ly, &tm, &tn, ty) == 8) {
    char *src = slurp(file);
    cl_program prog = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &err); CHECK(err);
    err = clBuildProgram(prog, 1, &dev, "-cl-std=CL1.2", NULL, NULL);
    if (err != CL_SUCCESS) { char log[20000]; clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL); printf("shape %s BUILD FAILED\n%s\n", name, log); continue; }
    if (ptxdir) { size_t sz; CHECK(clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof sz, &sz, NULL));
      unsigned char *bin = malloc(sz + 1); CHECK(clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
      char path[512]; snprintf(path, sizeof path, "%s/%s.ptx", ptxdir, name); FILE *o = fopen(path, "wb"); fwrite(bin, 1, sz, o); fclose(o); free(bin); }
    cl_kernel k = clCreateKernel(prog, kname, &err); CHECK(err);
    int dbl = strcmp(ty, "double") == 0;
    cl_mem a = dbl ? A8 : A4, b = dbl ? B8 : B4, c = dbl ? C8 : C4;
    CHECK(clSetKernelArg(k, 0, sizeof a, &a)); CHECK(clSetKernelArg(k, 1, sizeof b, &b));
    CHECK(clSetKernelArg(k, 2, sizeof c, &c)); CHECK(clSetKernelArg(k, 3, sizeof n, &n));
    size_t gl[2] = {(size_t)((n + tn - 1) / tn) * lx, (size_t)((n + tm - 1) / tm) * ly}, lo[2] = {lx, ly};
    double best = 1e30, sum = 0;
    for (int r = 0; r <= reps; r++) {
      cl_event ev; CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, gl, lo, 0, NULL, &ev)); CHECK(clWaitForEvents(1, &ev));
      cl_ulong t0, t1; clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
      clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL); clReleaseEvent(ev);
      double ms = (t1 - t0) * 1e-6; if (r > 0) { sum += ms; if (ms < best) best = ms; }
    }
    double maxerr = 0;
    if (dbl) CHECK(clEnqueueReadBuffer(q, c, CL_TRUE, 0, nn * 8, dc, 0, NULL, NULL));
    else CHECK(clEnqueueReadBuffer(q, c, CL_TRUE, 0, nn * 4, fc, 0, NULL, NULL));
    for (int r = 0; r < 4; r++) for (int j = 0; j < n; j++) {
      double v = dbl ? dc[(long)rows[r] * n + j] : fc[(long)rows[r] * n + j];
      double d = v - ref[r * n + j]; if (d < 0) d = -d; if (d > maxerr) maxerr = d; }
    double tflops = 2.0 * n * (double)n * n / (sum / reps * 1e-3) * 1e-12;
    printf("shape %-16s %-6s mean_ms %.4f best_ms %.4f tflops %.1f maxerr %g\n", name, ty, sum / reps, best, tflops, maxerr);
    fflush(stdout);
    clReleaseKernel(k); clReleaseProgram(prog); free(src);
  }
  return 0;
}
