/* bench/staging/link.c: how close can host <-> device copies of one large array get to the
 * link, and what costs what (issue 23 item 1, h38).  Raw OpenCL on the first GPU, 128 MiB (one
 * of heat's 4096^2 double arrays), each figure the best of REPS, GB/s (or ms):
 *   alloc       clCreateBuffer of 128 MiB, the first 4 KiB write into it, the first full write
 *   pageable    clEnqueueWrite/ReadBuffer, blocking, from malloc'd (touched) memory
 *   pinned      from one CL_MEM_ALLOC_HOST_PTR buffer (mapped): one command, and in chunks
 *               of 1..16 MiB (non-blocking, then clFinish): the DMA rate without any memcpy
 *   memcpy      host memcpy 128 MiB into pinned memory, T threads, libc or non-temporal stores
 *   staged      the runtime's scheme (T lanes, two pinned chunks each, memcpy + DMA overlapped)
 *   register    cuMemHostRegister of the user memory (CUDA driver API, dlopen), then
 *               clEnqueueWrite/ReadBuffer from it; the cost of registering and unregistering
 *   usehost     a CL_MEM_USE_HOST_PTR buffer on the user memory, clEnqueueCopyBuffer
 *   cuda        cuMemcpyHtoD/DtoH from cuMemAllocHost memory: CUDA's pinned rate, same run
 * usage: link [reps] [cuda|queues|create|ring]   (cuda: only CUDA's pinned rate; queues: chunks
 * over one or two queues, and a write's first / a read's last chunks smaller; create: the cost
 * of the lanes' pinned buffers; ring: one pinned ring shared by the lanes, G adjacent chunks
 * in one command, against the lanes of translate_rt.c) */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <emmintrin.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MiB ((size_t)1 << 20)
#define BYTES (128 * MiB)
#define MAXLANES 16

static cl_context ctx;
static cl_command_queue q, q2;
static int nq = 1;     /* chunks alternate over q and q2 when 2 */
static int ramp = 0;   /* 1: a write's first chunks and a read's last chunks smaller */
static cl_mem dev;
static char *user, *pinned;   /* malloc'd (page-aligned, touched) and one big pinned buffer */
static int reps = 3;

static void die(cl_int err, const char *what)
{
  if (err != CL_SUCCESS) {
    fprintf(stderr, "link: %s failed (%d)\n", what, err);
    exit(1);
  }
}

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static double gbps(double s) { return BYTES / s * 1e-9; }

static void pick_device(cl_platform_id *plat, cl_device_id *d)
{
  cl_platform_id all[8];
  cl_uint n = 0;
  char name[256];
  die(clGetPlatformIDs(8, all, &n), "clGetPlatformIDs");
  for (cl_uint p = 0; p < n; ++p)
    if (clGetDeviceIDs(all[p], CL_DEVICE_TYPE_GPU, 1, d, NULL) == CL_SUCCESS) {
      *plat = all[p];
      clGetDeviceInfo(*d, CL_DEVICE_NAME, sizeof name, name, NULL);
      printf("device %s\n", name);
      return;
    }
  *plat = all[0];   /* no GPU (a test run on PoCL) */
  die(clGetDeviceIDs(all[0], CL_DEVICE_TYPE_ALL, 1, d, NULL), "clGetDeviceIDs");
  printf("device (no GPU) \n");
}

/* ---- plain and chunked copies */

static double copy_once(int to_device, char *host, size_t chunk)
{
  double t0 = now();
  for (size_t pos = 0; pos < BYTES; pos += chunk) {
    size_t len = BYTES - pos < chunk ? BYTES - pos : chunk;
    cl_command_queue qq = nq == 2 && (pos / chunk) % 2 ? q2 : q;
    if (to_device)
      die(clEnqueueWriteBuffer(qq, dev, CL_FALSE, pos, len, host + pos, 0, NULL, NULL), "write");
    else
      die(clEnqueueReadBuffer(qq, dev, CL_FALSE, pos, len, host + pos, 0, NULL, NULL), "read");
    clFlush(qq);
  }
  die(clFinish(q), "clFinish");
  if (nq == 2)
    die(clFinish(q2), "clFinish");
  return now() - t0;
}

static double best_copy(int to_device, char *host, size_t chunk)
{
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    double t = copy_once(to_device, host, chunk);
    best = t < best ? t : best;
  }
  return gbps(best);
}

/* ---- host copies: libc memcpy or non-temporal stores, T threads */

static void nt_copy(char *dst, const char *src, size_t n)
{
  size_t i = 0;
  while (((uintptr_t)(dst + i) & 15) != 0 && i < n)
    dst[i] = src[i], ++i;
  for (; i + 64 <= n; i += 64) {
    __m128i a = _mm_loadu_si128((const __m128i *)(src + i));
    __m128i b = _mm_loadu_si128((const __m128i *)(src + i + 16));
    __m128i c = _mm_loadu_si128((const __m128i *)(src + i + 32));
    __m128i d = _mm_loadu_si128((const __m128i *)(src + i + 48));
    _mm_stream_si128((__m128i *)(dst + i), a);
    _mm_stream_si128((__m128i *)(dst + i + 16), b);
    _mm_stream_si128((__m128i *)(dst + i + 32), c);
    _mm_stream_si128((__m128i *)(dst + i + 48), d);
  }
  for (; i < n; ++i)
    dst[i] = src[i];
  _mm_sfence();
}

struct part {
  char *dst;
  const char *src;
  size_t n;
  int nt;
};

static void *part_run(void *arg)
{
  struct part *p = arg;
  if (p->nt)
    nt_copy(p->dst, p->src, p->n);
  else
    memcpy(p->dst, p->src, p->n);
  return NULL;
}

static double host_copy(int threads, int nt, char *dst, const char *src)
{
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    pthread_t th[MAXLANES];
    struct part p[MAXLANES];
    size_t share = BYTES / threads;
    double t0 = now();
    for (int k = 0; k < threads; ++k) {
      p[k] = (struct part){dst + k * share, src + k * share, share, nt};
      pthread_create(&th[k], NULL, part_run, &p[k]);
    }
    for (int k = 0; k < threads; ++k)
      pthread_join(th[k], NULL);
    double t = now() - t0;
    best = t < best ? t : best;
  }
  return gbps(best);
}

/* ---- staged copies as translate_rt.c does them */

struct lane {
  cl_mem buf[2];
  char *ptr[2];
  cl_event ev[2];
};
static struct lane lanes[MAXLANES];
static size_t lane_chunk;

struct job {
  struct lane *L;
  int to_device, nt;
  size_t off, bytes;
};

static void lane_wait(struct lane *L, int i)
{
  if (L->ev[i] != NULL) {
    die(clWaitForEvents(1, &L->ev[i]), "clWaitForEvents");
    clReleaseEvent(L->ev[i]);
    L->ev[i] = NULL;
  }
}

static void hcopy(int nt, char *dst, const char *src, size_t n)
{
  if (nt)
    nt_copy(dst, src, n);
  else
    memcpy(dst, src, n);
}

/* The next chunk's length: c, or with `ramp` c/8, c/4, c/2 first (writes: the DMA starts
 * sooner) or halves of what remains at the end (reads: a shorter memcpy after the last DMA). */
static size_t next_len(int to_device, size_t pos, size_t left, size_t c)
{
  size_t len = c;
  if (ramp && to_device) {
    size_t k = 0, sum = 0;
    for (len = c / 8; len < c && sum + len <= pos; len *= 2)
      sum += len, ++k;
  } else if (ramp && left < 2 * c) {
    len = (left / 2 + 4095) / 4096 * 4096;
    len = len < c / 8 ? c / 8 : len;
  }
  return left < len ? left : len;
}

static void *job_run(void *arg)
{
  struct job *j = arg;
  struct lane *L = j->L;
  size_t c = lane_chunk, len1;
  int i = 0, n = 0;
  if (j->to_device) {
    for (size_t pos = 0; pos < j->bytes; pos += len1, i ^= 1, ++n) {
      cl_command_queue qq = nq == 2 && n % 2 ? q2 : q;
      len1 = next_len(1, pos, j->bytes - pos, c);
      lane_wait(L, i);
      hcopy(j->nt, L->ptr[i], user + j->off + pos, len1);
      die(clEnqueueWriteBuffer(qq, dev, CL_FALSE, j->off + pos, len1, L->ptr[i], 0, NULL,
                               &L->ev[i]), "write");
      clFlush(qq);
    }
  } else {
    size_t at[2], len[2], next = 0, done = 0;
    for (i = 0; i < 2 && next < j->bytes; ++i, ++n) {
      cl_command_queue qq = nq == 2 && n % 2 ? q2 : q;
      at[i] = next, len[i] = next_len(0, next, j->bytes - next, c), next += len[i];
      die(clEnqueueReadBuffer(qq, dev, CL_FALSE, j->off + at[i], len[i], L->ptr[i], 0, NULL,
                              &L->ev[i]), "read");
      clFlush(qq);
    }
    for (i = 0; done < j->bytes; i ^= 1) {
      lane_wait(L, i);
      hcopy(j->nt, user + j->off + at[i], L->ptr[i], len[i]);
      done += len[i];
      if (next < j->bytes) {
        cl_command_queue qq = nq == 2 && n++ % 2 ? q2 : q;
        at[i] = next, len[i] = next_len(0, next, j->bytes - next, c), next += len[i];
        die(clEnqueueReadBuffer(qq, dev, CL_FALSE, j->off + at[i], len[i], L->ptr[i], 0, NULL,
                                &L->ev[i]), "read");
        clFlush(qq);
      }
    }
  }
  lane_wait(L, 0);
  lane_wait(L, 1);
  return NULL;
}

static void lanes_make(int n, size_t chunk)
{
  cl_int err;
  for (int k = 0; k < MAXLANES; ++k)
    for (int i = 0; i < 2; ++i)
      if (lanes[k].buf[i] != NULL) {
        clEnqueueUnmapMemObject(q, lanes[k].buf[i], lanes[k].ptr[i], 0, NULL, NULL);
        clFinish(q);
        clReleaseMemObject(lanes[k].buf[i]);
        lanes[k].buf[i] = NULL;
      }
  lane_chunk = chunk;
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < 2; ++i) {
      lanes[k].buf[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, chunk,
                                       NULL, &err);
      die(err, "clCreateBuffer (lane)");
      lanes[k].ptr[i] = clEnqueueMapBuffer(q, lanes[k].buf[i], CL_TRUE,
                                           CL_MAP_READ | CL_MAP_WRITE, 0, chunk, 0, NULL, NULL,
                                           &err);
      die(err, "map (lane)");
    }
}

static void *lane_make(void *arg)
{
  struct lane *L = arg;
  cl_int err;
  for (int i = 0; i < 2; ++i) {
    L->buf[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, lane_chunk, NULL,
                               &err);
    die(err, "clCreateBuffer (lane)");
    L->ptr[i] = clEnqueueMapBuffer(q, L->buf[i], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                   lane_chunk, 0, NULL, NULL, &err);
    die(err, "map (lane)");
  }
  return NULL;
}

/* lanes_make with each lane's buffers created by its own thread. */
static void lanes_make_parallel(int n, size_t chunk)
{
  pthread_t th[MAXLANES];
  lanes_make(0, chunk);   /* releases the old ones, sets lane_chunk */
  for (int k = 0; k < n; ++k)
    pthread_create(&th[k], NULL, lane_make, &lanes[k]);
  for (int k = 0; k < n; ++k)
    pthread_join(th[k], NULL);
}

static double staged(int to_device, int n, int nt)
{
  double best = 1e30;
  size_t part = (BYTES / n + 4095) / 4096 * 4096;
  for (int r = 0; r < reps; ++r) {
    pthread_t th[MAXLANES];
    struct job jobs[MAXLANES];
    double t0 = now();
    for (int k = 0; k < n; ++k) {
      size_t off = k * part;
      jobs[k] = (struct job){&lanes[k], to_device, nt, off, BYTES - off < part ? BYTES - off
                                                                              : part};
      pthread_create(&th[k], NULL, job_run, &jobs[k]);
    }
    for (int k = 0; k < n; ++k)
      pthread_join(th[k], NULL);
    double t = now() - t0;
    best = t < best ? t : best;
  }
  return gbps(best);
}

/* ---- one pinned ring shared by the lanes (h49): chunk m goes to lane m % nl and ring slot
 * m % S (S = 2 nl chunks, one pinned buffer), so that G adjacent chunks are adjacent in the
 * ring, in the user's memory and in the device buffer: a write goes out as ONE command when
 * the G lanes of its group have copied their chunks in; a read comes in as one command of G
 * chunks, and the group's slot is read again (group + S/G) when its lanes have copied out. */

struct gslot {
  int group;          /* the group that owns the slot now */
  int count;          /* its chunks copied (in or out) */
  int ready;          /* reads: its DMA is enqueued */
  cl_event ev;        /* its DMA (writes: the previous group's, until the slot is reused) */
};

static struct {
  cl_mem buf;
  char *ptr;
  size_t c;
  int nl, g, s, ngroups, nchunks, to_device, nt;
  struct gslot slots[64];
  pthread_mutex_t mu;
  pthread_cond_t cv;
} ring;

static int group_chunks(int group)
{
  int first = group * ring.g, n = ring.nchunks - first;
  return n < ring.g ? n : ring.g;
}

static size_t group_bytes(int group)
{
  size_t off = (size_t)group * ring.g * ring.c;
  size_t n = (size_t)group_chunks(group) * ring.c;
  return off + n > BYTES ? BYTES - off : n;
}

static void ring_enqueue(int group, struct gslot *sl, int to_device)
{
  size_t off = (size_t)group * ring.g * ring.c;
  char *p = ring.ptr + (size_t)(group % (ring.s / ring.g)) * ring.g * ring.c;
  if (to_device)
    die(clEnqueueWriteBuffer(q, dev, CL_FALSE, off, group_bytes(group), p, 0, NULL, &sl->ev),
        "ring write");
  else
    die(clEnqueueReadBuffer(q, dev, CL_FALSE, off, group_bytes(group), p, 0, NULL, &sl->ev),
        "ring read");
  clFlush(q);
}

/* Waits until group `group` owns its slot (and, reads, its DMA is enqueued); returns the event
 * to wait for before touching the slot's memory (retained), or NULL. */
static cl_event ring_claim(int group)
{
  struct gslot *sl = &ring.slots[group % (ring.s / ring.g)];
  cl_event ev = NULL;
  pthread_mutex_lock(&ring.mu);
  while (sl->group != group || (!ring.to_device && !sl->ready))
    pthread_cond_wait(&ring.cv, &ring.mu);
  if (sl->ev != NULL) {
    ev = sl->ev;
    clRetainEvent(ev);
  }
  pthread_mutex_unlock(&ring.mu);
  return ev;
}

static void ring_done(int group)
{
  struct gslot *sl = &ring.slots[group % (ring.s / ring.g)];
  int next = group + ring.s / ring.g;
  pthread_mutex_lock(&ring.mu);
  if (++sl->count == group_chunks(group)) {
    cl_event old = sl->ev;
    sl->count = 0;
    if (ring.to_device) {
      ring_enqueue(group, sl, 1);   /* sl->ev: this group's write */
      sl->group = next;
    } else if (next < ring.ngroups) {
      ring_enqueue(next, sl, 0);
      sl->group = next;
    } else {
      sl->ev = NULL;
      sl->group = -1;
    }
    if (old != NULL)
      clReleaseEvent(old);
    pthread_cond_broadcast(&ring.cv);
  }
  pthread_mutex_unlock(&ring.mu);
}

static void *ring_lane(void *arg)
{
  int k = (int)(intptr_t)arg;
  for (int m = k; m < ring.nchunks; m += ring.nl) {
    int group = m / ring.g;
    size_t off = (size_t)m * ring.c, len = off + ring.c > BYTES ? BYTES - off : ring.c;
    char *p = ring.ptr + (size_t)(m % ring.s) * ring.c;
    cl_event ev = ring_claim(group);
    if (ev != NULL) {
      die(clWaitForEvents(1, &ev), "clWaitForEvents");
      clReleaseEvent(ev);
    }
    if (ring.to_device)
      hcopy(ring.nt, p, user + off, len);
    else
      hcopy(ring.nt, user + off, p, len);
    ring_done(group);
  }
  return NULL;
}

static double ring_copy(int to_device, int nl, size_t c, int g, int nt)
{
  double best = 1e30;
  cl_int err;
  if (ring.buf == NULL || ring.c != c || ring.nl != nl) {
    if (ring.buf != NULL) {
      clEnqueueUnmapMemObject(q, ring.buf, ring.ptr, 0, NULL, NULL);
      clFinish(q);
      clReleaseMemObject(ring.buf);
    }
    ring.buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 2 * nl * c, NULL,
                              &err);
    die(err, "clCreateBuffer (ring)");
    ring.ptr = clEnqueueMapBuffer(q, ring.buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                  2 * nl * c, 0, NULL, NULL, &err);
    die(err, "map (ring)");
    memset(ring.ptr, 0, 2 * nl * c);
    pthread_mutex_init(&ring.mu, NULL);
    pthread_cond_init(&ring.cv, NULL);
  }
  ring.c = c, ring.nl = nl, ring.g = g, ring.s = 2 * nl, ring.nt = nt;
  ring.to_device = to_device;
  ring.nchunks = (int)((BYTES + c - 1) / c);
  ring.ngroups = (ring.nchunks + g - 1) / g;
  for (int r = 0; r < reps; ++r) {
    pthread_t th[MAXLANES];
    double t0 = now();
    for (int i = 0; i < ring.s / g; ++i) {
      ring.slots[i] = (struct gslot){i < ring.ngroups ? i : -1, 0, 0, NULL};
      if (!to_device && i < ring.ngroups) {
        ring_enqueue(i, &ring.slots[i], 0);
        ring.slots[i].ready = 1;
      }
    }
    for (int k = 0; k < nl; ++k)
      pthread_create(&th[k], NULL, ring_lane, (void *)(intptr_t)k);
    for (int k = 0; k < nl; ++k)
      pthread_join(th[k], NULL);
    die(clFinish(q), "clFinish");
    double t = now() - t0;
    for (int i = 0; i < ring.s / g; ++i)
      if (ring.slots[i].ev != NULL) {
        clReleaseEvent(ring.slots[i].ev);
        ring.slots[i].ev = NULL;
      }
    best = t < best ? t : best;
  }
  return gbps(best);
}

/* The ring against the lanes of translate_rt.c, same run; checks that the data came through. */
static void ring_compare(void)
{
  cl_int err;
  static const int groups[] = {1, 2, 4, 6, 12, 24};
  if (posix_memalign((void **)&user, 4096, BYTES) != 0)
    exit(1);
  for (size_t i = 0; i < BYTES; ++i)
    user[i] = (char)(i * 7 + i / 4096);
  dev = clCreateBuffer(ctx, CL_MEM_READ_WRITE, BYTES, NULL, &err);
  die(err, "clCreateBuffer");
  die(clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, BYTES, user, 0, NULL, NULL), "write");
  for (int round = 0; round < 2; ++round) {
    for (size_t c = MiB; c <= 2 * MiB; c *= 2) {
      lanes_make(12, c);
      printf("ring round %d lanes 12 chunk %zu MiB (translate_rt.c's scheme): write libc %.2f "
             "read nt %.2f GB/s\n", round, c / MiB, staged(1, 12, 0), staged(0, 12, 1));
      lanes_make(0, c);
      for (int a = 0; a < 6; ++a)
        printf("ring round %d lanes 12 chunk %zu MiB group %2d (%2zu MiB commands): write libc "
               "%.2f nt %.2f read nt %.2f GB/s\n", round, c / MiB, groups[a],
               groups[a] * c / MiB, ring_copy(1, 12, c, groups[a], 0),
               ring_copy(1, 12, c, groups[a], 1), ring_copy(0, 12, c, groups[a], 1));
    }
  }
  for (int to_device = 1; to_device >= 0; --to_device) {
    if (to_device) {   /* the ring writes, a plain read checks */
      die(clEnqueueFillBuffer(q, dev, &(char){0}, 1, 0, BYTES, 0, NULL, NULL), "fill");
      ring_copy(1, 12, 2 * MiB, 4, 0);
      memset(user, 0, BYTES);
      die(clEnqueueReadBuffer(q, dev, CL_TRUE, 0, BYTES, user, 0, NULL, NULL), "read");
    } else {           /* the device holds the pattern again; the ring reads */
      memset(user, 0, BYTES);
      ring_copy(0, 12, 2 * MiB, 4, 1);
    }
    for (size_t i = 0; i < BYTES; ++i)
      if (user[i] != (char)(i * 7 + i / 4096)) {
        printf("ring WRONG (%s) at byte %zu\n", to_device ? "write" : "read", i);
        return;
      }
    if (to_device)
      for (size_t i = 0; i < BYTES; ++i)
        user[i] = (char)(i * 7 + i / 4096);
  }
  printf("ring data ok (write and read)\n");
}

/* ---- the CUDA driver API, if there */

typedef int (*cu_i)(unsigned);
typedef int (*cu_get)(int *, int);
typedef int (*cu_ctx)(void **, int);
typedef int (*cu_set)(void *);
typedef int (*cu_reg)(void *, size_t, unsigned);
typedef int (*cu_unreg)(void *);
typedef int (*cu_ahost)(void **, size_t);
typedef int (*cu_alloc)(unsigned long long *, size_t);
typedef int (*cu_h2d)(unsigned long long, const void *, size_t);
typedef int (*cu_d2h)(void *, unsigned long long, size_t);

static void *cu;

static void *sym(const char *a, const char *b)
{
  void *f = dlsym(cu, a);
  return f != NULL || b == NULL ? f : dlsym(cu, b);
}

static int cuda_setup(void)
{
  int d;
  void *c;
  cu = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (cu == NULL) {
    printf("cuda libcuda.so.1 not found\n");
    return 0;
  }
  if (((cu_i)sym("cuInit", NULL))(0) != 0 || ((cu_get)sym("cuDeviceGet", NULL))(&d, 0) != 0
      || ((cu_ctx)sym("cuDevicePrimaryCtxRetain", NULL))(&c, d) != 0
      || ((cu_set)sym("cuCtxSetCurrent", NULL))(c) != 0) {
    printf("cuda setup failed\n");
    return 0;
  }
  return 1;
}

static void cuda_register(void)
{
  cu_reg reg = (cu_reg)sym("cuMemHostRegister_v2", "cuMemHostRegister");
  cu_unreg unreg = (cu_unreg)sym("cuMemHostUnregister", NULL);
  for (int r = 0; r < 2; ++r) {
    double t0 = now();
    int e = reg(user, BYTES, 1 /* PORTABLE */);
    double t_reg = now() - t0;
    if (e != 0) {
      printf("register failed (%d)\n", e);
      return;
    }
    double w = best_copy(1, user, BYTES), rd = best_copy(0, user, BYTES);
    double w8 = best_copy(1, user, 8 * MiB), r8 = best_copy(0, user, 8 * MiB);
    t0 = now();
    unreg(user);
    printf("register %d: register %.2f ms, unregister %.2f ms; clEnqueueWrite %.2f GB/s, "
           "Read %.2f GB/s; in 8 MiB commands %.2f / %.2f GB/s\n", r, t_reg * 1e3,
           (now() - t0) * 1e3, w, rd, w8, r8);
  }
}

static void cuda_pinned(void)
{
  void *h;
  unsigned long long d;
  if (((cu_ahost)sym("cuMemAllocHost_v2", "cuMemAllocHost"))(&h, BYTES) != 0
      || ((cu_alloc)sym("cuMemAlloc_v2", "cuMemAlloc"))(&d, BYTES) != 0) {
    printf("cuda alloc failed\n");
    return;
  }
  memset(h, 1, BYTES);
  cu_h2d h2d = (cu_h2d)sym("cuMemcpyHtoD_v2", "cuMemcpyHtoD");
  cu_d2h d2h = (cu_d2h)sym("cuMemcpyDtoH_v2", "cuMemcpyDtoH");
  double bw = 1e30, br = 1e30;
  for (int r = 0; r < reps + 2; ++r) {
    double t0 = now();
    h2d(d, h, BYTES);
    double t1 = now();
    d2h(h, d, BYTES);
    double t2 = now();
    bw = t1 - t0 < bw ? t1 - t0 : bw;
    br = t2 - t1 < br ? t2 - t1 : br;
  }
  printf("cuda pinned (cuMemAllocHost) HtoD %.2f GB/s DtoH %.2f GB/s\n", gbps(bw), gbps(br));
  bw = br = 1e30;
  for (int r = 0; r < reps; ++r) {
    double t0 = now();
    h2d(d, user, BYTES);
    double t1 = now();
    d2h(user, d, BYTES);
    double t2 = now();
    bw = t1 - t0 < bw ? t1 - t0 : bw;
    br = t2 - t1 < br ? t2 - t1 : br;
  }
  printf("cuda pageable HtoD %.2f GB/s DtoH %.2f GB/s\n", gbps(bw), gbps(br));
}

/* ---- CL_MEM_USE_HOST_PTR on the user memory */

static void use_host(void)
{
  cl_int err;
  double t0 = now();
  cl_mem h = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, BYTES, user, &err);
  double t_make = now() - t0;
  if (err != CL_SUCCESS) {
    printf("usehost clCreateBuffer failed (%d)\n", err);
    return;
  }
  double bw = 1e30, br = 1e30;
  for (int r = 0; r < reps; ++r) {
    t0 = now();
    die(clEnqueueCopyBuffer(q, h, dev, 0, 0, BYTES, 0, NULL, NULL), "copy");
    die(clFinish(q), "finish");
    double t1 = now();
    die(clEnqueueCopyBuffer(q, dev, h, 0, 0, BYTES, 0, NULL, NULL), "copy");
    die(clFinish(q), "finish");
    double t2 = now();
    bw = t1 - t0 < bw ? t1 - t0 : bw;
    br = t2 - t1 < br ? t2 - t1 : br;
  }
  t0 = now();
  clReleaseMemObject(h);
  clFinish(q);
  printf("usehost create %.2f ms, copy to device %.2f GB/s, from device %.2f GB/s, release "
         "%.2f ms\n", t_make * 1e3, gbps(bw), gbps(br), (now() - t0) * 1e3);
}

int main(int argc, char **argv)
{
  cl_platform_id plat;
  cl_device_id d;
  cl_int err;
  reps = argc > 1 ? atoi(argv[1]) : 3;
  if (argc > 2 && strcmp(argv[2], "cuda") == 0) {   /* only CUDA's pinned rate */
    if (posix_memalign((void **)&user, 4096, BYTES) != 0)
      return 1;
    memset(user, 1, BYTES);
    if (cuda_setup())
      cuda_pinned();
    return 0;
  }
  pick_device(&plat, &d);
  double t0 = now();
  ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
  die(err, "clCreateContext");
  q = clCreateCommandQueue(ctx, d, 0, &err);
  die(err, "clCreateCommandQueue");
  printf("context+queue %.2f ms\n", (now() - t0) * 1e3);
  q2 = clCreateCommandQueue(ctx, d, 0, &err);
  die(err, "clCreateCommandQueue");
  if (posix_memalign((void **)&user, 4096, BYTES) != 0)
    return 1;
  memset(user, 1, BYTES);

  if (argc > 2 && strcmp(argv[2], "ring") == 0) {   /* one pinned ring, grouped commands */
    ring_compare();
    return 0;
  }
  if (argc > 2 && strcmp(argv[2], "create") == 0) {   /* the lanes' pinned buffers */
    for (int r = 0; r < 2; ++r) {
      lanes_make(0, MiB);   /* release the previous ones outside the timing */
      t0 = now();
      lanes_make(8, MiB);
      double t8 = now() - t0;
      lanes_make(0, MiB);
      t0 = now();
      lanes_make(12, 2 * MiB);
      double t12 = now() - t0;
      lanes_make(0, MiB);
      t0 = now();
      lanes_make_parallel(12, 2 * MiB);
      printf("create+map lanes' buffers: 8 x 2 x 1 MiB %.2f ms, 12 x 2 x 2 MiB %.2f ms, the "
             "same by 12 threads %.2f ms\n", t8 * 1e3, t12 * 1e3, (now() - t0) * 1e3);
    }
    return 0;
  }
  if (argc > 2 && strcmp(argv[2], "queues") == 0) {   /* two queues, ramped chunks */
    cl_mem pb;
    if (posix_memalign((void **)&user, 4096, BYTES) != 0)
      return 1;
    memset(user, 1, BYTES);
    dev = clCreateBuffer(ctx, CL_MEM_READ_WRITE, BYTES, NULL, &err);
    die(err, "clCreateBuffer");
    pb = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, BYTES, NULL, &err);
    die(err, "clCreateBuffer (pinned)");
    pinned = clEnqueueMapBuffer(q, pb, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, BYTES, 0, NULL,
                                NULL, &err);
    die(err, "map");
    memset(pinned, 1, BYTES);
    for (nq = 1; nq <= 2; ++nq)
      for (size_t c = MiB; c <= 4 * MiB; c *= 2)
        printf("queues %d pinned chunks %zu MiB write %.2f GB/s read %.2f GB/s\n", nq, c / MiB,
               best_copy(1, pinned, c), best_copy(0, pinned, c));
    for (int lc = 0; lc < 4; ++lc) {
      int nl = lc < 2 ? 12 : 8;
      size_t c = lc % 2 ? 2 * MiB : MiB;
      lanes_make(nl, c);
      for (nq = 1; nq <= 2; ++nq)
        for (ramp = 0; ramp <= 1; ++ramp)
          printf("queues %d ramp %d staged lanes %d chunk %zu MiB: write libc %.2f GB/s, "
                 "read nt %.2f GB/s\n", nq, ramp, nl, c / MiB, staged(1, nl, 0),
                 staged(0, nl, 1));
    }
    return 0;
  }
  /* allocation: creation, the first small write, the first full write */
  t0 = now();
  dev = clCreateBuffer(ctx, CL_MEM_READ_WRITE, BYTES, NULL, &err);
  die(err, "clCreateBuffer");
  double t1 = now();
  die(clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, 4096, user, 0, NULL, NULL), "write");
  double t2 = now();
  printf("alloc clCreateBuffer %.3f ms, first 4 KiB write %.3f ms\n", (t1 - t0) * 1e3,
         (t2 - t1) * 1e3);
  for (int k = 0; k < 3; ++k) {   /* a fresh buffer each time: create + full write */
    cl_mem b;
    t0 = now();
    b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, BYTES, NULL, &err);
    die(clEnqueueWriteBuffer(q, b, CL_TRUE, 0, BYTES, user, 0, NULL, NULL), "write");
    t1 = now();
    clReleaseMemObject(b);
    printf("alloc fresh buffer + pageable write %.3f ms\n", (t1 - t0) * 1e3);
  }

  printf("pageable write %.2f GB/s read %.2f GB/s\n", best_copy(1, user, BYTES),
         best_copy(0, user, BYTES));

  t0 = now();
  cl_mem pb = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, BYTES, NULL, &err);
  die(err, "clCreateBuffer (pinned)");
  pinned = clEnqueueMapBuffer(q, pb, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, BYTES, 0, NULL,
                              NULL, &err);
  die(err, "map");
  printf("pinned 128 MiB create+map %.2f ms\n", (now() - t0) * 1e3);
  memset(pinned, 1, BYTES);
  for (size_t c = MiB; c <= BYTES; c *= 2)
    if (c <= 16 * MiB || c == BYTES)
      printf("pinned chunks %zu MiB write %.2f GB/s read %.2f GB/s\n", c / MiB,
             best_copy(1, pinned, c), best_copy(0, pinned, c));

  for (int t = 1; t <= 16; t *= 2)
    printf("memcpy threads %d libc %.2f GB/s nt %.2f GB/s (user->pinned); libc back %.2f\n",
           t, host_copy(t, 0, pinned, user), host_copy(t, 1, pinned, user),
           host_copy(t, 0, user, pinned));

  static const size_t chunks[] = {1 * MiB, 2 * MiB, 4 * MiB};
  static const int lanes_n[] = {8, 16};
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 2; ++b) {
      lanes_make(lanes_n[b], chunks[a]);
      printf("staged lanes %d chunk %zu MiB: write libc %.2f nt %.2f GB/s, read libc %.2f "
             "nt %.2f GB/s\n", lanes_n[b], chunks[a] / MiB, staged(1, lanes_n[b], 0),
             staged(1, lanes_n[b], 1), staged(0, lanes_n[b], 0), staged(0, lanes_n[b], 1));
    }

  use_host();
  if (cuda_setup()) {
    cuda_register();
    cuda_pinned();
  }
  return 0;
}
