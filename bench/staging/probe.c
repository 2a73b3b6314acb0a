/* bench/staging/probe.c: why does a kernel that runs right after a staged copy measure slower?
 *
 * Raw OpenCL, the pattern of one region call of bench/gpu/stream.c's copy (2^25 doubles):
 * write a, launch c[i] = a[i] (256 work items a group), read c back; repeated, with the write and
 * the read done in several ways (pageable, staged through pinned buffers by 1 or 8 threads as
 * translate_rt.c does, one pinned buffer, ...).  For every kernel it prints the profiling
 * timestamps QUEUED, SUBMIT, START, END relative to the END of the last transfer before it,
 * and the host wall time of the kernel alone (enqueue to clFinish) where the variant waits.
 * usage: probe [log2 n] [reps] */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHUNK ((size_t)1 << 20)
#define MAXLANES 8

static cl_context ctx;
static cl_command_queue q;
static cl_kernel kern;
static cl_mem dev_a, dev_c;
static size_t nbytes;
static char *host_a, *host_c;

struct lane {
  cl_mem buf[2];
  char *ptr[2];
  cl_event ev[2];
};
static struct lane lanes[MAXLANES];
static cl_mem big_pinned;
static char *big_ptr;

static void die(cl_int err, const char *what)
{
  if (err != CL_SUCCESS) {
    fprintf(stderr, "probe: %s failed (%d)\n", what, err);
    exit(1);
  }
}

static double now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static cl_ulong stamp(cl_event e, cl_profiling_info what)
{
  cl_ulong t = 0;
  die(clGetEventProfilingInfo(e, what, sizeof t, &t, NULL), "clGetEventProfilingInfo");
  return t;
}

/* ---- staged copies, as translate_rt.c does them (double-buffered lanes, one thread each) */

struct job {
  struct lane *L;
  int to_device;
  size_t off, bytes;
  char *host;
  cl_ulong last_end;
  int final_wait;           /* 0: leave the last two chunks of a write in flight */
  int hold;                 /* 1: keep the last chunk back (held_*), as translate_rt.c does */
};

/* The chunk a hold job kept back: enqueued by enqueue_held() right before the kernel. */
static size_t held_off, held_len;
static char *held_ptr;
static cl_event *held_ev;

static void enqueue_held(void)
{
  if (held_ptr == NULL)
    return;
  die(clEnqueueWriteBuffer(q, dev_a, CL_FALSE, held_off, held_len, held_ptr, 0, NULL, held_ev),
      "write held chunk");
  held_ptr = NULL;
}

static void lane_wait(struct job *j, int i)
{
  if (j->L->ev[i] == NULL)
    return;
  die(clWaitForEvents(1, &j->L->ev[i]), "clWaitForEvents");
  cl_ulong e = stamp(j->L->ev[i], CL_PROFILING_COMMAND_END);
  if (e > j->last_end)
    j->last_end = e;
  clReleaseEvent(j->L->ev[i]);
  j->L->ev[i] = NULL;
}

static void *run_job(void *arg)
{
  struct job *j = arg;
  size_t pos, len, at[2] = {0, 0}, ln[2] = {0, 0};
  int i = 0;
  for (pos = 0; pos < j->bytes; pos += len, i ^= 1) {
    len = j->bytes - pos < CHUNK ? j->bytes - pos : CHUNK;
    lane_wait(j, i);
    if (!j->to_device && ln[i] > 0)
      memcpy(j->host + at[i], j->L->ptr[i], ln[i]);
    if (j->to_device && j->hold && pos + len == j->bytes) {
      memcpy(j->L->ptr[i], j->host + pos, len);
      held_off = j->off + pos;
      held_len = len;
      held_ptr = j->L->ptr[i];
      held_ev = &j->L->ev[i];
      break;
    } else if (j->to_device) {
      memcpy(j->L->ptr[i], j->host + pos, len);
      die(clEnqueueWriteBuffer(q, dev_a, CL_FALSE, j->off + pos, len, j->L->ptr[i], 0, NULL,
                               &j->L->ev[i]), "write chunk");
    } else {
      die(clEnqueueReadBuffer(q, dev_c, CL_FALSE, j->off + pos, len, j->L->ptr[i], 0, NULL,
                              &j->L->ev[i]), "read chunk");
      at[i] = pos;
      ln[i] = len;
    }
    clFlush(q);
  }
  for (i = 0; i < 2 && (j->final_wait || !j->to_device); ++i) {
    lane_wait(j, i);
    if (!j->to_device && ln[i] > 0)
      memcpy(j->host + at[i], j->L->ptr[i], ln[i]);
  }
  return NULL;
}

/* Waits for every chunk still in flight; returns the latest END stamp among them. */
static cl_ulong drain_lanes(void)
{
  struct job j = {0};
  for (int k = 0; k < MAXLANES; ++k) {
    j.L = &lanes[k];
    lane_wait(&j, 0);
    lane_wait(&j, 1);
  }
  return j.last_end;
}

/* Staged copy of the whole array by `n` lanes; returns the latest transfer END stamp (0 where
 * the last chunks of a write are left in flight: final_wait 0). */
static cl_ulong staged_ex(int to_device, int n, int final_wait, int hold)
{
  struct job jobs[MAXLANES];
  pthread_t th[MAXLANES];
  size_t part = (nbytes / n + 4095) / 4096 * 4096, pos = 0;
  cl_ulong last = 0;
  int k;
  for (k = 0; k < n; ++k) {
    jobs[k] = (struct job){&lanes[k], to_device, pos, pos + part > nbytes ? nbytes - pos : part,
                           (to_device ? host_a : host_c) + pos, 0, final_wait,
                           hold && k == 0};
    pos += jobs[k].bytes;
    if (k > 0)
      pthread_create(&th[k], NULL, run_job, &jobs[k]);
  }
  run_job(&jobs[0]);
  for (k = 1; k < n; ++k)
    pthread_join(th[k], NULL);
  for (k = 0; k < n; ++k)
    if (jobs[k].last_end > last)
      last = jobs[k].last_end;
  return final_wait ? last : 0;
}

static cl_ulong staged(int to_device, int n)
{
  return staged_ex(to_device, n, 1, 0);
}

/* ---- one region call in several variants */

enum wmode { W_PAGEABLE, W_PAGEABLE_BLOCK, W_STAGED8, W_STAGED1, W_PINNED_WHOLE, W_PINNED_CHUNKS,
             W_STAGED8_NOWAIT, W_STAGED8_HOLD, W_NONE };

/* Writes a; returns the END stamp of the last write (0 if not known yet) and its event. */
static cl_ulong write_a(enum wmode w, cl_event *ev)
{
  size_t pos;
  *ev = NULL;
  switch (w) {
  case W_PAGEABLE:
  case W_PAGEABLE_BLOCK:
    die(clEnqueueWriteBuffer(q, dev_a, w == W_PAGEABLE_BLOCK, 0, nbytes, host_a, 0, NULL, ev),
        "write");
    return 0;
  case W_STAGED8:
    return staged(1, 8);
  case W_STAGED1:
    return staged(1, 1);
  case W_STAGED8_NOWAIT:
    return staged_ex(1, 8, 0, 0);
  case W_STAGED8_HOLD:
    return staged_ex(1, 8, 1, 1);
  case W_PINNED_WHOLE:
    memcpy(big_ptr, host_a, nbytes);
    die(clEnqueueWriteBuffer(q, dev_a, CL_FALSE, 0, nbytes, big_ptr, 0, NULL, ev), "write");
    return 0;
  case W_PINNED_CHUNKS:
    memcpy(big_ptr, host_a, nbytes);
    for (pos = 0; pos < nbytes; pos += CHUNK)
      die(clEnqueueWriteBuffer(q, dev_a, CL_FALSE, pos, CHUNK, big_ptr + pos, 0, NULL,
                               pos + CHUNK >= nbytes ? ev : NULL), "write");
    return 0;
  default:
    return 0;
  }
}

static void launch(cl_event *ev)
{
  size_t g = nbytes / sizeof(double), l = 256;
  die(clEnqueueNDRangeKernel(q, kern, 1, NULL, &g, &l, 0, NULL, ev), "launch");
}

/* One variant: write (w), then `pre` (0 nothing, 1 clFinish, 2 sleep 1 ms, 3 marker + wait),
 * kernel `nk` times, read back (staged by 8 lanes or pageable). Prints one line per rep. */
static void variant(const char *label, enum wmode w, int pre, int nk, int staged_read, int reps)
{
  for (int r = 0; r < reps; ++r) {
    cl_event wev = NULL, kev[4] = {NULL}, rev = NULL;
    cl_ulong wend = write_a(w, &wev);
    double t0 = 0, wall = -1;
    if (pre == 1) {
      clFinish(q);
    } else if (pre == 2) {
      clFinish(q);
      usleep(1000);
    }
    if (pre)
      t0 = now_us();
    enqueue_held();
    for (int k = 0; k < nk; ++k)
      launch(&kev[k]);
    if (pre) {
      clFinish(q);
      wall = now_us() - t0;
    }
    if (w == W_STAGED8_NOWAIT || w == W_STAGED8_HOLD)
      wend = drain_lanes();
    if (staged_read)
      staged(0, 8);
    else
      die(clEnqueueReadBuffer(q, dev_c, CL_TRUE, 0, nbytes, host_c, 0, NULL, &rev), "read");
    clFinish(q);
    if (wev != NULL)
      wend = stamp(wev, CL_PROFILING_COMMAND_END);
    printf("%-26s rep %d", label, r);
    for (int k = 0; k < nk; ++k) {
      cl_ulong qd = stamp(kev[k], CL_PROFILING_COMMAND_QUEUED),
               sb = stamp(kev[k], CL_PROFILING_COMMAND_SUBMIT),
               st = stamp(kev[k], CL_PROFILING_COMMAND_START),
               en = stamp(kev[k], CL_PROFILING_COMMAND_END);
      long long base = wend ? (long long)wend : (long long)st;
      printf(" | k%d dur %.1f us queued %+.1f submit %+.1f start %+.1f", k, (en - st) * 1e-3,
             ((long long)qd - base) * 1e-3, ((long long)sb - base) * 1e-3,
             ((long long)st - base) * 1e-3);
      clReleaseEvent(kev[k]);
    }
    if (wall >= 0)
      printf(" | wall %.1f us", wall);
    printf("\n");
    if (wev)
      clReleaseEvent(wev);
    if (rev)
      clReleaseEvent(rev);
  }
}

/* Kernel time after the GPU was idle for `gap` microseconds (clock ramp?): kernel, clFinish,
 * spin, kernel with event. */
static void gap_test(void)
{
  static const int gaps[] = {0, 10, 30, 100, 300, 1000, 3000, 10000};
  for (unsigned g = 0; g < sizeof gaps / sizeof *gaps; ++g) {
    printf("idle gap %5d us:", gaps[g]);
    for (int r = 0; r < 4; ++r) {
      cl_event ev;
      launch(NULL);
      clFinish(q);
      double t0 = now_us();
      while (now_us() - t0 < gaps[g])
        ;
      launch(&ev);
      clFinish(q);
      printf(" %.1f", (stamp(ev, CL_PROFILING_COMMAND_END) - stamp(ev, CL_PROFILING_COMMAND_START))
                          * 1e-3);
      clReleaseEvent(ev);
    }
    printf(" us\n");
  }
}

static const char *SRC =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "__kernel void __attribute__((reqd_work_group_size(256, 1, 1)))\n"
    "copy(__global const double *restrict a, __global double *restrict c, long n)\n"
    "{ long i = get_global_id(0); if (i < n) c[i] = a[i]; }\n";

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

static void setup(long n)
{
  cl_platform_id plat;
  cl_device_id dev;
  cl_int err;
  cl_program prog;
  pick_device(&plat, &dev);
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  die(err, "clCreateContext");
  q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  die(err, "clCreateCommandQueue");
  prog = clCreateProgramWithSource(ctx, 1, &SRC, NULL, &err);
  die(err, "clCreateProgramWithSource");
  die(clBuildProgram(prog, 1, &dev, "", NULL, NULL), "clBuildProgram");
  kern = clCreateKernel(prog, "copy", &err);
  die(err, "clCreateKernel");
  nbytes = (size_t)n * sizeof(double);
  dev_a = clCreateBuffer(ctx, CL_MEM_READ_ONLY, nbytes, NULL, &err);
  die(err, "clCreateBuffer");
  dev_c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, nbytes, NULL, &err);
  die(err, "clCreateBuffer");
  clSetKernelArg(kern, 0, sizeof dev_a, &dev_a);
  clSetKernelArg(kern, 1, sizeof dev_c, &dev_c);
  clSetKernelArg(kern, 2, sizeof n, &n);
  for (int k = 0; k < MAXLANES; ++k)
    for (int i = 0; i < 2; ++i) {
      lanes[k].buf[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, CHUNK,
                                       NULL, &err);
      die(err, "clCreateBuffer pinned");
      lanes[k].ptr[i] = clEnqueueMapBuffer(q, lanes[k].buf[i], CL_TRUE,
                                           CL_MAP_READ | CL_MAP_WRITE, 0, CHUNK, 0, NULL, NULL,
                                           &err);
      die(err, "clEnqueueMapBuffer");
    }
  big_pinned = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, nbytes, NULL, &err);
  die(err, "clCreateBuffer big pinned");
  big_ptr = clEnqueueMapBuffer(q, big_pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, nbytes, 0,
                               NULL, NULL, &err);
  die(err, "clEnqueueMapBuffer big");
  host_a = malloc(nbytes);
  host_c = malloc(nbytes);
  for (long i = 0; i < n; ++i) {
    ((double *)host_a)[i] = 0.1 * (double)(i % 7);
    ((double *)host_c)[i] = 0.0;
  }
}

int main(int argc, char **argv)
{
  long n = 1L << (argc > 1 ? atoi(argv[1]) : 25);
  int reps = argc > 2 ? atoi(argv[2]) : 4;
  setup(n);
  variant("warm-up", W_PAGEABLE, 0, 1, 0, 2);
  variant("resident x4", W_NONE, 1, 4, 0, reps);
  variant("pageable", W_PAGEABLE, 0, 1, 0, reps);
  variant("pageable+finish", W_PAGEABLE, 1, 2, 0, reps);
  variant("pageable-blocking", W_PAGEABLE_BLOCK, 0, 1, 0, reps);
  variant("pageable w, staged r", W_PAGEABLE, 0, 1, 1, reps);
  variant("staged8", W_STAGED8, 0, 2, 1, reps);
  variant("staged8, pageable r", W_STAGED8, 0, 1, 0, reps);
  variant("staged8+finish", W_STAGED8, 1, 2, 1, reps);
  variant("staged8+sleep1ms", W_STAGED8, 2, 2, 1, reps);
  variant("staged1", W_STAGED1, 0, 2, 1, reps);
  variant("pinned-whole", W_PINNED_WHOLE, 0, 2, 0, reps);
  variant("pinned-chunks", W_PINNED_CHUNKS, 0, 2, 0, reps);
  variant("pinned-chunks+finish", W_PINNED_CHUNKS, 1, 2, 0, reps);
  variant("staged8 nowait", W_STAGED8_NOWAIT, 0, 2, 1, reps);
  variant("staged8 nowait, pageable r", W_STAGED8_NOWAIT, 0, 1, 0, reps);
  variant("staged8 hold", W_STAGED8_HOLD, 0, 2, 1, reps);
  variant("staged8 hold, pageable r", W_STAGED8_HOLD, 0, 1, 0, reps);
  gap_test();
  printf("check c[5] %g\n", ((double *)host_c)[5]);
  return 0;
}
