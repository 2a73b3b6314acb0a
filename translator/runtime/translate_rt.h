/*
 * translate_rt.h -- the runtime that the generated host glue (`src.host.c`) calls.
 *
 * Part of the `translator` package; `translate --runtime-dir` prints this directory.
 * C99, depends only on the OpenCL 1.2 headers and libOpenCL.  Build a translated program with
 *
 *     gcc -c -I"$RT" out/src.host.c "$RT/translate_rt.c"
 *     gfortran out/src.f90 src.host.o translate_rt.o -lOpenCL -o prog
 *
 * Behaviour
 * ---------
 * - One OpenCL context and one in-order command queue per process, created at the first call
 *   of any region, and one more in-order queue per async queue id the program uses (see
 *   "Update batches and async queues").  The device is chosen by the environment variable TRANSLATE_DEVICE:
 *     gpu | cpu | accelerator   the first device of that type (platforms in order),
 *     P:D                       device D of platform P (indices as `clinfo -l` lists them),
 *     any other text            the first device whose platform or device name contains it
 *                               (case-insensitive),
 *     unset or empty            the first GPU, else the first device of any type.
 *   TRANSLATE_VERBOSE=1 prints the chosen device on stderr once.
 * - Each region's program is built once per process; programs are cached by a hash of their
 *   source (identical sources share one program).  A failed build prints the build log.
 * - Every OpenCL call is checked.  A failure prints
 *       src.f90:12: error: translate runtime: <what> failed: <CL error name> (<code>)
 *   on stderr, naming the source location of the region being run, and calls exit(1).
 * - TRANSLATE_PROFILE=1 enables event profiling; at exit (atexit) a table on stderr lists, per
 *   region (name and file:line): calls, total kernel time, bytes copied to and from the device;
 *   then the data directives (see "Data regions" below); the last row, `total`, holds all
 *   bytes copied to and from the device (its last two numbers).
 * - Region calls and data directives from several host threads run one after another (a
 *   process-wide lock); each thread has its own nest of structured data regions.
 * - Host cost per call: a region keeps its device buffers, its call slots and the values of
 *   its kernel arguments from call to call.  A buffer is reused when the next call asks for
 *   the same size and access (the data is still copied in and out as the flags say); it is
 *   replaced when the size changes and released at exit.  Arguments whose value did not change
 *   are not set again.  tr_region_end waits for the device only where it must: a blocking
 *   read-back of TR_OUT arrays already waits for the launches; a call that copies nothing
 *   back waits (clFinish) only while a copy-in may still read host memory; a call that works
 *   on present data only (data regions) returns once its launches are submitted, and the next
 *   transfer (update, exit data, a region's copy) or the end of the program waits for them.
 *   TRANSLATE_SYNC=1 makes every call wait for its launches (errors then name the region that
 *   failed; without it, a failing launch on present data is reported where the program next
 *   waits).  Arrays of at most TRANSLATE_SMALL_ARRAYS bytes (default 16 KiB, `off`) that a
 *   call copies are packed into one pinned block and go to the device in one write, into
 *   sub-buffers of one device block of the region; the written ones come back in one read
 *   (translate_rt.c, "Small arrays of a call").
 * - Pinned staging: copies of at least TRANSLATE_STAGING bytes (default 16 MiB on GPUs whose
 *   memory is not the host's, off on CPU devices; `off` disables it) are cut into chunks of
 *   TRANSLATE_STAGING_CHUNK bytes (default 2 MiB) that TRANSLATE_STAGING_THREADS threads
 *   (default 12) copy through one pinned ring of two chunks per thread; TRANSLATE_STAGING_GROUP
 *   adjacent chunks (default 4) travel as one transfer command, so that the memcpy of some
 *   chunks overlaps the DMA of others.  bench/RESULTS.md ("Pinned staging", "Host cost per
 *   plain call and copy rate (h49)") has the measurements.
 *   The runtime uses POSIX threads (part of libc since glibc 2.34; link older systems with
 *   -pthread).
 *
 * Calling convention of the glue (stable)
 * ---------------------------------------
 *     static tr_region region = TR_REGION("saxpy_k", "saxpy.f90:7", "saxpy_k", source, 1);
 *
 *     void translate_saxpy_k(cl_int n, cl_double a, const cl_double *x, cl_double *y)
 *     {
 *         tr_call call;
 *         tr_region_begin(&call, &region, 4);                  // 4 kernel arguments
 *         tr_arg_array(&call, 0, x, n, sizeof(cl_double), TR_IN);
 *         tr_arg_array(&call, 1, y, n, sizeof(cl_double), TR_IN | TR_OUT);
 *         tr_arg_value(&call, 2, &n, sizeof(cl_int));
 *         tr_arg_value(&call, 3, &a, sizeof(cl_double));
 *         long long global[1] = {n}, local[1] = {128};
 *         tr_launch(&call, 1, global, local);
 *         tr_region_end(&call);
 *     }
 *
 * Every kernel argument index must be set exactly once before tr_launch.  tr_region_end copies
 * TR_OUT arrays back (which waits for the device) and ends the call; programs, kernels and the
 * region's device buffers stay cached for the life of the process (see "Host cost per call").
 *
 * A region that runs as several kernels (a host program: host loops around launches) names its
 * kernels in a table and gives the call *buffer slots* instead of kernel arguments: each array
 * gets its device buffer once, at region entry, and every launch of the call uses it, so nothing
 * moves between launches.
 *
 *     static const tr_kernel_source kernels[] = {{"heat_k0", src0, 1}, {"heat_k1", src1, 1}};
 *     static tr_region region = TR_REGION_KERNELS("heat", "heat.c:6", 2, kernels);
 *
 *     tr_region_begin(&call, &region, 3);                      // 3 buffer slots
 *     tr_arg_array(&call, 0, u, n * n, sizeof(cl_double), TR_IN | TR_OUT);
 *     tr_arg_array(&call, 1, v, n * n, sizeof(cl_double), TR_OUT);
 *     tr_arg_scratch(&call, 2, 1, sizeof(cl_double));          // device-only (a scalar)
 *     for (t = 0; t < steps; ++t) {
 *         tr_kernel(&call, 0, 3);                              // kernel 0, 3 arguments
 *         tr_kernel_buffer(&call, 0, 0);                       // argument 0 <- slot 0
 *         tr_kernel_buffer(&call, 1, 1);
 *         tr_kernel_value(&call, 2, &n, sizeof(cl_int));
 *         tr_launch(&call, 2, global, local);
 *         ...
 *     }
 *     tr_region_end(&call);
 *
 * tr_arg_array is the one place where the runtime gets a device buffer for a host array range.
 * With TRANSLATE_PROFILE=1 the table has one row per region, one per kernel of a host program
 * (indented) and a final `total` row: calls, kernel time, all bytes to and from the device.
 */
#ifndef TRANSLATE_RT_H
#define TRANSLATE_RT_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#endif
#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Array argument flags: TR_IN = the kernel reads the array, TR_OUT = the kernel writes it. */
#define TR_IN 1u
#define TR_OUT 2u
/* With TR_OUT only, the host data is still copied in, because the kernel may write only part
 * of the array and the read-back must not clobber the rest.  TR_OVERWRITE (with TR_OUT) says
 * the kernel writes every element, so the copy-in is skipped. */
#define TR_OVERWRITE 4u
/* The kernel allows for this array overlapping the other TR_MAY_ALIAS arrays of the call (C
 * pointers that may alias).  Two arrays of a call whose host ranges overlap, one of them
 * written, stop the program (the device would work on two copies of one memory) unless both
 * have TR_MAY_ALIAS and lie in one present data entry, or start at the same address with the
 * later one no longer (``f(a, a)``): they then share one device buffer. */
#define TR_MAY_ALIAS 8u

struct tr_region_state;

/* One kernel of a region that runs as several (a host program). */
typedef struct tr_kernel_source {
    const char *name;         /* the __kernel function in `source` */
    const char *source;       /* OpenCL C source of its program */
    int uses_fp64;            /* bit 1: the device must support cl_khr_fp64; bit 2:
                                 cl_khr_int64_base_atomics (64-bit atomic updates) */
} tr_kernel_source;

/* Static description of one region; the glue owns one per region (see TR_REGION). */
typedef struct tr_region {
    const char *name;         /* region name, e.g. "saxpy_k" */
    const char *where;        /* source location for messages, e.g. "saxpy.f90:7" */
    const char *kernel_name;  /* the __kernel function in `source` (one-kernel regions) */
    const char *source;       /* OpenCL C source of the region's program (one-kernel regions) */
    int uses_fp64;            /* bit 1: the device must support cl_khr_fp64; bit 2:
                                 cl_khr_int64_base_atomics (64-bit atomic updates) */
    struct tr_region_state *state;  /* runtime-owned; NULL until the first call */
    cl_uint nkernels;         /* host programs: number of kernels (0: one-kernel region) */
    const tr_kernel_source *kernels;  /* host programs: the kernels, indexed by tr_kernel */
} tr_region;

/* Initialiser for a `static tr_region` that runs one kernel. */
#define TR_REGION(name, where, kernel_name, source, uses_fp64) \
    { (name), (where), (kernel_name), (source), (uses_fp64), NULL, 0, NULL }

/* Initialiser for a `static tr_region` that runs `nkernels` kernels (a host program). */
#define TR_REGION_KERNELS(name, where, nkernels, kernels) \
    { (name), (where), NULL, NULL, 0, NULL, (nkernels), (kernels) }

/* One array argument of a call in progress (runtime-owned). */
typedef struct tr_slot {
    cl_mem buffer;
    void *host;
    size_t bytes;
    unsigned flags;
    int is_set;
    int owned;                /* nonzero: tr_region_end releases `buffer` */
    unsigned access;          /* the flags the glue gave (TR_IN, TR_OUT), kept when present */
} tr_slot;

/* One call of a region in progress; lives on the glue's stack.  Fields are runtime-owned. */
typedef struct tr_call {
    tr_region *region;
    cl_kernel kernel;
    cl_uint nargs;            /* kernel arguments (one-kernel regions) or buffer slots */
    tr_slot *slots;
    cl_uint kernel_index;     /* host programs: the kernel chosen by tr_kernel */
    cl_uint kernel_nargs;
    unsigned char *kernel_set;  /* host programs: which arguments of that kernel are set */
    int private_slots;        /* nonzero: `slots` and `kernel_set` belong to this call only */
    int host_writes;          /* nonzero: a copy-in may still read host memory */
    const char *arg_names;    /* tr_arg_names, or NULL */
} tr_call;

/* Starts a call of `region` whose kernel takes `nargs` arguments: sets up the device (first
 * call of the process), builds the program (first call with this source), prepares the call. */
void tr_region_begin(tr_call *call, tr_region *region, cl_uint nargs);
/* The same for a region with `async(queue)` (see "Async queues" below): the call's copies and
 * launches go to that queue and tr_region_end returns without waiting for them. */
void tr_region_begin_async(tr_call *call, tr_region *region, cl_uint nargs, long long queue);
/* The region's profile hint (a string literal): how to make it parallel, printed by
 * TRANSLATE_PROFILE when the region takes most of the kernel time. */
void tr_region_hint(tr_call *call, const char *hint);

/* Names the call's arguments (or buffer slots) in index order, for messages: each name ends
 * with a NUL, an empty name ends the list ("x\0y\0").  Optional; call it before the first
 * tr_arg_*. */
void tr_arg_names(tr_call *call, const char *names);

/* Sets argument `index` to a buffer of `count` elements of `elem_size` bytes holding the
 * host array `host` (the region's buffer from its last call if the size matches).  The data is copied in if flags has TR_IN, or TR_OUT without TR_OVERWRITE;
 * it is copied back by tr_region_end if flags has TR_OUT.  count <= 0 gives an empty array. */
void tr_arg_array(tr_call *call, cl_uint index, const void *host, long long count,
                  size_t elem_size, unsigned flags);

/* Sets argument `index` to a new read-only `dims`-dimensional image (1..3) holding the host
 * array `host`: one channel (CL_R) of `channel_type` (CL_FLOAT for cl_float elements,
 * CL_SIGNED_INT32 for cl_int), `elem_size` bytes per element.  The array is dense with x
 * contiguous: element (x, y, z) is host[x + width*(y + height*z)] (for a C array a[d][h][w],
 * the last index is x).  Unused extents are 1.  An empty extent gives a 1-pixel image. */
void tr_arg_image(tr_call *call, cl_uint index, const void *host, cl_uint dims,
                  long long width, long long height, long long depth, size_t elem_size,
                  cl_channel_type channel_type);

/* Sets argument `index` to the scalar at `value` (`size` bytes, e.g. sizeof(cl_int)). */
void tr_arg_value(tr_call *call, cl_uint index, const void *value, size_t size);

/* Enqueues the kernel on a `work_dim`-dimensional NDRange (1..3).  Each global size is rounded
 * up to a multiple of the local size; nothing is launched if any global size is <= 0.
 * `local` may be NULL (the implementation chooses). */
void tr_launch(tr_call *call, cl_uint work_dim, const long long *global, const long long *local);

/* Host programs: sets buffer slot `index` to a device-only buffer of `count` elements of
 * `elem_size` bytes (a temporary that lives across launches); never copied. */
void tr_arg_scratch(tr_call *call, cl_uint index, long long count, size_t elem_size);

/* Sets slot (or, in a one-kernel region, kernel argument) `index` to a device-only buffer of
 * `count` elements of `elem_size` bytes, filled with zero bytes when it is new; a buffer reused
 * from the region's previous call keeps what the kernels left (a group reduction's counter,
 * reset to zero by the last group); never copied. */
void tr_arg_zeroed(tr_call *call, cl_uint index, long long count, size_t elem_size);

/* Host programs: chooses kernel `k` (of the region's table), which takes `nargs` arguments,
 * for the next tr_kernel_buffer / tr_kernel_value / tr_launch. */
void tr_kernel(tr_call *call, cl_uint k, cl_uint nargs);

/* Host programs: sets argument `arg` of the chosen kernel to the buffer of slot `slot`. */
void tr_kernel_buffer(tr_call *call, cl_uint arg, cl_uint slot);

/* Host programs: sets argument `arg` of the chosen kernel to the scalar at `value`. */
void tr_kernel_value(tr_call *call, cl_uint arg, const void *value, size_t size);

/* Copies TR_OUT arrays back (waiting for the device) and ends the call; the region keeps its
 * buffers for its next call (see "Host cost per call" above). */
void tr_region_end(tr_call *call);

/* ------------------------------------------------------------------------------------------
 * Data regions: arrays that stay on the device across region calls
 * ------------------------------------------------------------------------------------------
 * The runtime keeps a present table: device buffers keyed by host byte range [lo, lo+bytes),
 * each with a reference count.  The glue of the data directives calls
 *
 *     data copyin(a) copy(u) ...   tr_data_begin(&site); tr_data_enter(&site, "a", ...) ...
 *     end data                     tr_data_end(&site)
 *     enter data copyin(a) ...     tr_data_enter(&site, "a", ...)
 *     exit data copyout(a) ...     tr_data_exit(&site, "a", ...)
 *     update host(u) / device(u)   tr_update_host / tr_update_device
 *
 * with the array's host address, the section's first element and element count, and the
 * element size.  tr_data_enter with a range that is already present only counts a reference
 * (nothing moves); otherwise it allocates a device buffer and, for COPYIN and COPY, copies the
 * data in.  A structured region (tr_data_begin ... tr_data_end) exits, in reverse order, what it
 * entered; exit drops one reference and, when the count reaches zero, copies COPYOUT/COPY data
 * back and frees the buffer.
 *
 * tr_arg_array looks every array argument up first: a range inside a present buffer is used
 * there (the buffer itself, or a sub-buffer at the range's offset) and nothing moves for it;
 * a range that only overlaps a present one stops the program with both ranges named; an absent
 * range is copied as without data regions.
 *
 * Errors (all exit(1) with `where: error: translate runtime: ...`): a range partly present,
 * present() or update of data that is not present, exit data of data that is not present,
 * end data without a data region open.  TRANSLATE_PROFILE=1 lists each data directive with
 * its calls, transfer time and bytes, after the regions; the last row, `total`, sums all bytes
 * moved to and from the device.  Everything still present at exit is released (not copied
 * back). */

#define TR_DATA_COPYIN 1u   /* copy in when it becomes present */
#define TR_DATA_COPYOUT 2u  /* copy back when its last reference goes */
#define TR_DATA_COPY 3u     /* both */
#define TR_DATA_CREATE 0u   /* allocate only */
#define TR_DATA_PRESENT 4u  /* must already be present */
#define TR_DATA_DELETE 8u   /* exit data delete(): drop a reference, nothing moves */

struct tr_data_site_state;

/* One data directive of the source; the glue owns one per directive (see TR_DATA_SITE). */
typedef struct tr_data_site {
    const char *kind;    /* "data", "end data", "enter data", "exit data", "update" */
    const char *where;   /* source location, e.g. "heat.f90:12" */
    struct tr_data_site_state *state;  /* runtime-owned; NULL until first used */
} tr_data_site;

#define TR_DATA_SITE(kind, where) { (kind), (where), NULL }

/* Opens a structured data region: the following tr_data_enter calls of this site are undone
 * by the matching tr_data_end. */
void tr_data_begin(tr_data_site *site);

/* Makes `count` elements of `elem_size` bytes, from element `first` of the host array `host`,
 * present on the device (`action`: TR_DATA_COPYIN, _COPYOUT, _COPY, _CREATE or _PRESENT).
 * `name` is the array's source name, for messages.  count <= 0: nothing. */
void tr_data_enter(tr_data_site *site, const char *name, const void *host, long long first,
                   long long count, size_t elem_size, unsigned action);

/* Closes the innermost structured data region (reverse order of entry). */
void tr_data_end(tr_data_site *site);

/* exit data: drops one reference of the present data holding the range (`action`:
 * TR_DATA_COPYOUT or TR_DATA_DELETE); at zero, copies back (COPYOUT) and frees. */
void tr_data_exit(tr_data_site *site, const char *name, const void *host, long long first,
                  long long count, size_t elem_size, unsigned action);

/* Copies the range from the device to the host / from the host to the device; the range must
 * be present. */
void tr_update_host(tr_data_site *site, const char *name, const void *host, long long first,
                    long long count, size_t elem_size);
void tr_update_device(tr_data_site *site, const char *name, const void *host, long long first,
                      long long count, size_t elem_size);

/* The same for a section that need not be contiguous (data clauses and updates of sections
 * of arrays of two or more dimensions): `box` holds, per dimension from the fastest varying,
 * the section's element count and the array's extent (2 * dims numbers); `first` is the
 * section's first element.  Exactly the section's elements move (rectangular copies,
 * clEnqueueReadBufferRect/WriteBufferRect); the device buffer spans its first to its last
 * element.  A count <= 0: nothing. */
void tr_data_enter_box(tr_data_site *site, const char *name, const void *host, long long first,
                       size_t elem_size, unsigned action, int dims, const long long *box);
void tr_data_exit_box(tr_data_site *site, const char *name, const void *host, long long first,
                      size_t elem_size, unsigned action, int dims, const long long *box);
void tr_update_host_box(tr_data_site *site, const char *name, const void *host, long long first,
                        size_t elem_size, int dims, const long long *box);
void tr_update_device_box(tr_data_site *site, const char *name, const void *host,
                          long long first, size_t elem_size, int dims, const long long *box);

/* ------------------------------------------------------------------------------------------
 * Update batches and async queues
 * ------------------------------------------------------------------------------------------
 * The glue of an `update` directive calls tr_data_begin (or tr_data_begin_async), one
 * tr_update_* per item, then tr_update_end.  The items' copies are enqueued without waiting;
 * tr_update_end waits once: after it the host sees the data of `update host`, and the host
 * may change the memory an `update device` read.  A write of at most 4 MiB goes from a
 * packed copy of the host data (the runtime's, freed when the write is done), so a directive
 * that only writes such sections returns without waiting for the device.
 *
 * Async queues: `async(n)` on a region or an update puts its work on the in-order queue of id
 * n (TR_ASYNC_NOVAL for a bare `async`; up to 32 ids per process), and the call returns without
 * waiting for it: the host may read what an async `update host` or region copies back, and
 * change what an async `update device` or region copies in, only after `wait(n)` (tr_wait).
 * Work on one queue runs in order.  Async work is ordered after all work without async that
 * the program started before it, but not after other queues' work.  Work without async is
 * ordered after everything started before it, on every queue.  These orders are kept on the
 * device (markers and barriers between the queues); only tr_wait, the end of the last data
 * region and the program's end make the host wait. */
#define TR_SYNC (-2)          /* no async clause */
#define TR_ASYNC_NOVAL (-1)   /* `async` without a queue id */

/* Starts a data directive whose copies go to async queue `queue` (update ... async(n)). */
void tr_data_begin_async(tr_data_site *site, long long queue);
/* Ends an update directive: waits for its copies where the host needs them now. */
void tr_update_end(tr_data_site *site);
/* `wait(q1, ...)`: waits for the work of the `count` async queues `queues` (all queues when
 * count is 0); a queue never used is done. */
void tr_wait(tr_data_site *site, int count, const long long *queues);

/* For `translate check`: a malloc'd copy of the device data of the host range [host,
 * host+bytes) if it is present, else NULL (the host data is current).  The caller frees it. */
void *tr_data_peek(const void *host, size_t bytes);

/* A region that packs an array component of every element of an array of derived type
 * (Fortran `sp(k)%v(i)`) copies the host's data: stops the program (exit status 1) where
 * [host, host+bytes) is present on the device, naming `what` (NUL-terminated), the region
 * `region` and the directive that made it present (the device copy would be stale). */
void tr_check_unheld(const void *host, long long bytes, const char *what, const char *region);

/* Tuning (docs/tuning.md).  A `translate --tune-candidates` build gives each tunable region
 * one glue function per candidate mapping and a dispatcher with the region's own symbol:
 *
 *     static tr_tune_site site = TR_TUNE_SITE("gemm.c", "gemm_k", "gemm.c:12", "<digest>",
 *                                             "n,m", 3, 2, labels, mappings, variants);
 *     void translate_gemm_k(cl_int n, cl_int m, ...)
 *     {
 *         const long long sizes[] = {(long long)n, (long long)m};
 *         switch (tr_tune_begin(&site, sizes)) {
 *         case 1: translate_gemm_k__tune1(n, m, ...); break;
 *         ...
 *         default: translate_gemm_k__tune0(n, m, ...); break;
 *         }
 *         tr_tune_end(&site);
 *     }
 *
 * tr_tune_begin returns 0 (the automatic mapping) unless TRANSLATE_TUNE=1.  Then, per size
 * class (the floor of log2 of each integer parameter), the calls rotate over the candidates
 * for 1 + TRANSLATE_TUNE_REPS (default 3) rounds, each call timed by the profiling events of
 * its launches, and later calls run the fastest.  At exit one JSON line per region and size
 * class is appended to TRANSLATE_TUNE_FILE (default translate-tune.jsonl) with one write under
 * an exclusive fcntl lock. */
struct tr_tune_state;

typedef struct tr_tune_site {
    const char *source;       /* the source file's base name */
    const char *region;
    const char *where;
    const char *fingerprint;  /* what the candidates were made from (translator.tuning) */
    const char *size_names;   /* the integer parameters, comma-separated */
    int ncandidates;
    int nsizes;
    const char *const *labels;
    const char *const *mappings;
    const char *const *variants;
    struct tr_tune_state *state;      /* runtime-owned */
    struct tr_tune_site *next;        /* runtime-owned */
} tr_tune_site;

#define TR_TUNE_SITE(source, region, where, fingerprint, size_names, n, nsizes, labels, \
                     mappings, variants) \
    { (source), (region), (where), (fingerprint), (size_names), (n), (nsizes), (labels), \
      (mappings), (variants), NULL, NULL }

/* The candidate to run for this call (see above); `sizes` holds the integer parameters. */
int tr_tune_begin(tr_tune_site *site, const long long *sizes);
/* Ends the call tr_tune_begin started: its kernel time goes to the chosen candidate. */
void tr_tune_end(tr_tune_site *site);

/* The larger / smaller of two integers, each evaluated once: the glue's host-side sizes (an
 * extent from many accesses is a max of many terms) use them instead of conditionals. */
static inline long long tr_max(long long a, long long b) { return a > b ? a : b; }
static inline long long tr_min(long long a, long long b) { return a < b ? a : b; }

/* The smallest / largest of the `count` elements of an index table (0 / -1 when count <= 0):
 * a call that reads an array through the table (`x[col[k]]`) passes them, so that the glue
 * moves the elements the table can choose and stops values below the array's first element
 * (the region's assumptions).  One pair per element type; the table is `const void *` so that
 * `int`/`long` spellings of one width all pass. */
#define TR_INDEX_SCANS(suffix)                                                      \
    long long tr_index_min_##suffix(const void *table, long long count);            \
    long long tr_index_max_##suffix(const void *table, long long count);            \
    long long tr_index_least_##suffix(const void *table, long long count);          \
    long long tr_index_most_##suffix(const void *table, long long count);
/* tr_index_least_* / tr_index_most_* (Fortran's calls): the same, but an empty table gives
 * TR_INDEX_NONE / -TR_INDEX_NONE, an empty range, which every bound check passes (an array
 * with lower bound 1 and no elements to gather from is no error). */
#define TR_INDEX_NONE (1LL << 40)
TR_INDEX_SCANS(i8) TR_INDEX_SCANS(i16) TR_INDEX_SCANS(i32) TR_INDEX_SCANS(i64)
TR_INDEX_SCANS(u8) TR_INDEX_SCANS(u16) TR_INDEX_SCANS(u32) TR_INDEX_SCANS(u64)
#undef TR_INDEX_SCANS

/* The name of an OpenCL error code ("CL_INVALID_VALUE"), or "unknown OpenCL error". */
const char *tr_error_name(cl_int code);

#ifdef __cplusplus
}
#endif

#endif /* TRANSLATE_RT_H */
