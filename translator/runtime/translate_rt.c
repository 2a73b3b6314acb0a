/*
 * translate_rt.c -- the runtime behind the generated host glue.  See translate_rt.h for the
 * behaviour and the calling convention.
 */
#if !defined(_POSIX_C_SOURCE) && !defined(_GNU_SOURCE)
#define _POSIX_C_SOURCE 200809L   /* mkdir, getpid, rename under -std=c99 */
#define _XOPEN_SOURCE 700         /* sigaltstack (early_run) */
#endif
#include "translate_rt.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#if defined(__SSE2__)
#include <emmintrin.h>   /* non-temporal stores for staged reads (copy_to_user) */
#endif
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------ */
/* Error reporting                                                                             */

const char *tr_error_name(cl_int code)
{
    switch (code) {
#define TR_NAME(c) case c: return #c;
    TR_NAME(CL_SUCCESS)
    TR_NAME(CL_DEVICE_NOT_FOUND)
    TR_NAME(CL_DEVICE_NOT_AVAILABLE)
    TR_NAME(CL_COMPILER_NOT_AVAILABLE)
    TR_NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    TR_NAME(CL_OUT_OF_RESOURCES)
    TR_NAME(CL_OUT_OF_HOST_MEMORY)
    TR_NAME(CL_PROFILING_INFO_NOT_AVAILABLE)
    TR_NAME(CL_MEM_COPY_OVERLAP)
    TR_NAME(CL_IMAGE_FORMAT_MISMATCH)
    TR_NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    TR_NAME(CL_BUILD_PROGRAM_FAILURE)
    TR_NAME(CL_MAP_FAILURE)
    TR_NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    TR_NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    TR_NAME(CL_COMPILE_PROGRAM_FAILURE)
    TR_NAME(CL_LINKER_NOT_AVAILABLE)
    TR_NAME(CL_LINK_PROGRAM_FAILURE)
    TR_NAME(CL_DEVICE_PARTITION_FAILED)
    TR_NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    TR_NAME(CL_INVALID_VALUE)
    TR_NAME(CL_INVALID_DEVICE_TYPE)
    TR_NAME(CL_INVALID_PLATFORM)
    TR_NAME(CL_INVALID_DEVICE)
    TR_NAME(CL_INVALID_CONTEXT)
    TR_NAME(CL_INVALID_QUEUE_PROPERTIES)
    TR_NAME(CL_INVALID_COMMAND_QUEUE)
    TR_NAME(CL_INVALID_HOST_PTR)
    TR_NAME(CL_INVALID_MEM_OBJECT)
    TR_NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    TR_NAME(CL_INVALID_IMAGE_SIZE)
    TR_NAME(CL_INVALID_SAMPLER)
    TR_NAME(CL_INVALID_BINARY)
    TR_NAME(CL_INVALID_BUILD_OPTIONS)
    TR_NAME(CL_INVALID_PROGRAM)
    TR_NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    TR_NAME(CL_INVALID_KERNEL_NAME)
    TR_NAME(CL_INVALID_KERNEL_DEFINITION)
    TR_NAME(CL_INVALID_KERNEL)
    TR_NAME(CL_INVALID_ARG_INDEX)
    TR_NAME(CL_INVALID_ARG_VALUE)
    TR_NAME(CL_INVALID_ARG_SIZE)
    TR_NAME(CL_INVALID_KERNEL_ARGS)
    TR_NAME(CL_INVALID_WORK_DIMENSION)
    TR_NAME(CL_INVALID_WORK_GROUP_SIZE)
    TR_NAME(CL_INVALID_WORK_ITEM_SIZE)
    TR_NAME(CL_INVALID_GLOBAL_OFFSET)
    TR_NAME(CL_INVALID_EVENT_WAIT_LIST)
    TR_NAME(CL_INVALID_EVENT)
    TR_NAME(CL_INVALID_OPERATION)
    TR_NAME(CL_INVALID_GL_OBJECT)
    TR_NAME(CL_INVALID_BUFFER_SIZE)
    TR_NAME(CL_INVALID_MIP_LEVEL)
    TR_NAME(CL_INVALID_GLOBAL_WORK_SIZE)
    TR_NAME(CL_INVALID_PROPERTY)
    TR_NAME(CL_INVALID_IMAGE_DESCRIPTOR)
    TR_NAME(CL_INVALID_COMPILER_OPTIONS)
    TR_NAME(CL_INVALID_LINKER_OPTIONS)
    TR_NAME(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef TR_NAME
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "unknown OpenCL error";
    }
}

static const char *where_of(const tr_region *region)
{
    return region != NULL && region->where != NULL ? region->where : "translate";
}

/* The early start (early_start and its thread) leaves through here where a call would stop
 * the program: the first call then does the same work again and reports the error at its own
 * location. */
static __thread int in_early;
static jmp_buf early_bail;

static void leave_early_thread(void)
{
    if (in_early)
        longjmp(early_bail, 1);
}

/* Prints `where: error: translate runtime: <message>` and exits with status 1. */
static void fail(const tr_region *region, const char *fmt, ...)
{
    va_list ap;
    leave_early_thread();
    fflush(stdout);
    fprintf(stderr, "%s: error: translate runtime: ", where_of(region));
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

/* Exits through fail() unless `err` is CL_SUCCESS; `what` names the failed operation. */
static void check(const tr_region *region, cl_int err, const char *what)
{
    if (err != CL_SUCCESS)
        fail(region, "%s failed: %s (%d)", what, tr_error_name(err), (int)err);
}

static void *xcalloc(const tr_region *region, size_t count, size_t size)
{
    void *p = calloc(count == 0 ? 1 : count, size == 0 ? 1 : size);
    if (p == NULL)
        fail(region, "allocating host memory failed");
    return p;
}

/* ------------------------------------------------------------------------------------------ */
/* Process-wide state                                                                          */

/* A device buffer kept by a region between calls, for one buffer slot. */
struct tr_cached_buffer {
    cl_mem buffer;
    size_t bytes;             /* the size asked for (the buffer holds at least one byte) */
    cl_mem_flags mem;
};

/* The value a kernel argument was last set to, so that an unchanged one is not set again. */
struct tr_arg_memo {
    size_t size;              /* 0: unknown (set it) */
    unsigned long long epoch; /* buffers: rt.mem_epoch when set */
    unsigned char value[16];
};

/* Per-kernel memo of argument values. */
struct tr_kernel_memo {
    cl_uint nargs;
    struct tr_arg_memo *args;
};

/* Per-region runtime data: the cached kernel and the profile counters. */
struct tr_region_state {
    tr_region *region;
    cl_kernel kernel;
    unsigned long long calls;
    int launched;             /* one-kernel regions: the kernel was launched once */
    unsigned long long kernel_ns;
    unsigned long long bytes_in;
    unsigned long long bytes_out;
    struct tr_region_state *next;
    /* host programs: one entry per kernel of the region's table */
    cl_kernel *kernels;
    unsigned long long *launches;
    unsigned long long *each_ns;
    /* reused from call to call (see tr_region_begin) */
    int busy;                          /* a call of this region is in progress */
    tr_slot *slots;                    /* the call's slots */
    cl_uint slots_cap;
    unsigned char *kernel_set;         /* host programs: the call's argument marks */
    cl_uint kernel_set_cap;
    struct tr_cached_buffer *cache;    /* device buffers by slot, kept between calls */
    cl_uint cache_cap;
    struct tr_kernel_memo *memos;      /* one per kernel (one-kernel regions: one) */
    /* profiling: per argument, the copies made because no data region held it */
    const char *arg_names;             /* the glue's names (a string literal) */
    const char *hint;                  /* tr_region_hint (a string literal) */
    struct tr_traffic *traffic;
    cl_uint traffic_cap;
    /* small arrays of a plain call, packed (see "Small arrays of a call") */
    cl_mem small_pool;                 /* the region's device block, TR_SMALL_BLOCK bytes */
    struct tr_small_slot *small;       /* by slot: its sub-buffer of the block */
    cl_uint small_cap;
    size_t small_next;                 /* the call's next free offset in the block */
    size_t small_lo, small_hi;         /* the call's bytes to write ([lo, hi), lo < hi) */
};

/* A slot's part of its region's small-array block: a sub-buffer kept while it fits. */
struct tr_small_slot {
    cl_mem sub;
    size_t offset, bytes;     /* the sub-buffer's place in the block */
    size_t at;                /* the call's place of the slot's data (a shared one's too) */
};

/* Copies of one array argument of a region (TRANSLATE_PROFILE). */
struct tr_traffic {
    unsigned long long ins, outs;      /* calls that copied it in, and back */
    unsigned long long bytes;          /* its size at the last copy */
};

/* A built program, keyed by the hash of its source. */
struct tr_program {
    uint64_t hash;
    const char *source;
    cl_program program;
    struct tr_program *next;
};

static struct {
    int ready;
    int profile;
    int timing;               /* profiling events: TRANSLATE_PROFILE or TRANSLATE_TUNE */
    unsigned long long kernel_ns_all;   /* every launch's device time (timing) */
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;   /* the queue of work without an async clause */
    cl_command_queue active;  /* the queue the current call or directive enqueues on */
    char device_name[256];
    char device_note[64];     /* "P:D" and the local rank, for the profile */
    char device_pd[24];       /* "P:D" (TRANSLATE_VERBOSE) */
    char platform_name[256];
    int has_fp64;
    int has_int64_atomics;    /* cl_khr_int64_base_atomics: 64-bit atomic updates */
    char build_options[96];   /* clBuildProgram's options for this device (device_build_options) */
    struct tr_region_state *regions;      /* in order of first call */
    struct tr_region_state **regions_tail;
    struct tr_program *programs;
    int sync;                 /* TRANSLATE_SYNC=1: every region call waits for the device */
    cl_uint align_bytes;      /* CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes (sub-buffers) */
    unsigned long long mem_epoch;  /* counts buffer releases (see struct tr_arg_memo) */
} rt;

static int env_flag(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Device selection                                                                            */

typedef struct {
    cl_uint platform_index, device_index;
    cl_platform_id platform;
    cl_device_id device;
    cl_device_type type;
    char platform_name[256];
    char device_name[256];
} tr_device_entry;

static void get_device_string(const tr_region *region, cl_device_id dev, cl_device_info what,
                              char *buf, size_t size)
{
    buf[0] = '\0';
    check(region, clGetDeviceInfo(dev, what, size - 1, buf, NULL), "clGetDeviceInfo");
    buf[size - 1] = '\0';
}

/* Appends the devices of `platform` to `list` (grown as needed); returns the new count. */
static size_t list_platform_devices(const tr_region *region, cl_platform_id platform, cl_uint p,
                                    tr_device_entry **list, size_t count)
{
    cl_uint n = 0, d;
    cl_device_id *ids;
    char pname[256] = "";
    cl_int err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, &n);
    if (err == CL_DEVICE_NOT_FOUND || n == 0)
        return count;
    check(region, err, "clGetDeviceIDs");
    check(region, clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof pname - 1, pname, NULL),
          "clGetPlatformInfo");
    ids = xcalloc(region, n, sizeof *ids);
    check(region, clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n, ids, NULL), "clGetDeviceIDs");
    *list = realloc(*list, (count + n) * sizeof **list);
    if (*list == NULL)
        fail(region, "allocating host memory failed");
    for (d = 0; d < n; ++d) {
        tr_device_entry *e = &(*list)[count + d];
        e->platform_index = p;
        e->device_index = d;
        e->platform = platform;
        e->device = ids[d];
        memcpy(e->platform_name, pname, sizeof pname);
        get_device_string(region, ids[d], CL_DEVICE_NAME, e->device_name, sizeof e->device_name);
        check(region, clGetDeviceInfo(ids[d], CL_DEVICE_TYPE, sizeof e->type, &e->type, NULL),
              "clGetDeviceInfo");
    }
    free(ids);
    return count + n;
}

/* Every device of every platform, in platform order then device order. */
static size_t list_devices(const tr_region *region, tr_device_entry **list)
{
    cl_uint nplat = 0, p;
    cl_platform_id *plats;
    size_t count = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &nplat);
    *list = NULL;
    if (err == -1001 || nplat == 0)   /* CL_PLATFORM_NOT_FOUND_KHR from the ICD loader */
        return 0;
    check(region, err, "clGetPlatformIDs");
    plats = xcalloc(region, nplat, sizeof *plats);
    check(region, clGetPlatformIDs(nplat, plats, NULL), "clGetPlatformIDs");
    for (p = 0; p < nplat; ++p)
        count = list_platform_devices(region, plats[p], p, list, count);
    free(plats);
    return count;
}

static int contains_nocase(const char *hay, const char *needle)
{
    size_t i, j, nlen = strlen(needle);
    for (i = 0; hay[i] != '\0'; ++i) {
        for (j = 0; j < nlen && hay[i + j] != '\0'; ++j)
            if (tolower((unsigned char)hay[i + j]) != tolower((unsigned char)needle[j]))
                break;
        if (j == nlen)
            return 1;
    }
    return nlen == 0;
}

static int equals_nocase(const char *a, const char *b)
{
    for (; *a != '\0' && *b != '\0'; ++a, ++b)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

/* Parses "P:D" (decimal indices); returns 1 on success. */
static int parse_indices(const char *s, unsigned long *p, unsigned long *d)
{
    char *end;
    if (!isdigit((unsigned char)s[0]))
        return 0;
    *p = strtoul(s, &end, 10);
    if (*end != ':' || !isdigit((unsigned char)end[1]))
        return 0;
    *d = strtoul(end + 1, &end, 10);
    return *end == '\0';
}

/* The `nth` device (counted from 0, modulo their count) of `type`, or -1 if there is none. */
static size_t count_of_type(const tr_device_entry *list, size_t n, cl_device_type type)
{
    size_t i, count = 0;
    for (i = 0; i < n; ++i)
        count += (list[i].type & type) != 0;
    return count;
}

static long nth_of_type(const tr_device_entry *list, size_t n, cl_device_type type, long nth)
{
    size_t i, count = count_of_type(list, n, type);
    long k = -1;
    if (count == 0)
        return -1;
    nth = (long)((size_t)nth % count);
    for (i = 0; i < n && k < 0; ++i)
        if ((list[i].type & type) && nth-- == 0)
            k = (long)i;
    return k;
}

/* The `nth` (modulo their count) device whose platform or device name contains `needle`. */
static long nth_named(const tr_device_entry *list, size_t n, const char *needle, long nth)
{
    size_t i, count = 0;
    for (i = 0; i < n; ++i)
        count += contains_nocase(list[i].platform_name, needle)
                 || contains_nocase(list[i].device_name, needle);
    if (count == 0)
        return -1;
    nth = (long)((size_t)nth % count);
    for (i = 0; i < n; ++i)
        if ((contains_nocase(list[i].platform_name, needle)
             || contains_nocase(list[i].device_name, needle)) && nth-- == 0)
            return (long)i;
    return -1;
}

/* The device type a word names (gpu, cpu, accelerator), or 0. */
static cl_device_type type_named(const char *word)
{
    if (equals_nocase(word, "gpu"))
        return CL_DEVICE_TYPE_GPU;
    if (equals_nocase(word, "cpu"))
        return CL_DEVICE_TYPE_CPU;
    if (equals_nocase(word, "accelerator"))
        return CL_DEVICE_TYPE_ACCELERATOR;
    return 0;
}

/* 1 and the number if `s` is a decimal number and nothing else. */
static int parse_number(const char *s, long *k)
{
    char *end;
    if (!isdigit((unsigned char)s[0]))
        return 0;
    *k = strtol(s, &end, 10);
    return *end == '\0';
}

/* Index into `list` of the device one TRANSLATE_DEVICE choice names for a process whose local
 * rank is `rank`, or -1.  A choice that names a kind of device (gpu, a name substring; unset:
 * GPUs, else every device) gives rank r the device r mod count of that kind; P:D and TYPE:K
 * (device K of that type) name one device.  `type` is the TYPE of a TYPE:K choice or 0. */
static long match_one(const tr_device_entry *list, size_t n, const char *choice, long rank,
                      cl_device_type *type)
{
    unsigned long p, d;
    long k;
    size_t i;
    const char *colon = choice != NULL ? strchr(choice, ':') : NULL;
    if (choice == NULL || choice[0] == '\0') {
        long gpu = nth_of_type(list, n, CL_DEVICE_TYPE_GPU, rank);
        return gpu >= 0 ? gpu : (n > 0 ? (long)((size_t)rank % n) : -1);
    }
    if (type_named(choice) != 0)
        return nth_of_type(list, n, type_named(choice), rank);
    if (parse_indices(choice, &p, &d)) {
        for (i = 0; i < n; ++i)
            if (list[i].platform_index == p && list[i].device_index == d)
                return (long)i;
        return -1;
    }
    if (colon != NULL && parse_number(colon + 1, &k)) {
        char word[16] = "";
        if ((size_t)(colon - choice) < sizeof word)
            memcpy(word, choice, (size_t)(colon - choice));
        *type = type_named(word);
        if (*type != 0)
            return (size_t)k < count_of_type(list, n, *type) ? nth_of_type(list, n, *type, k)
                                                             : -1;
    }
    if (*type != 0 && parse_number(choice, &k))   /* "gpu:1,0": 0 is another GPU */
        return (size_t)k < count_of_type(list, n, *type) ? nth_of_type(list, n, *type, k) : -1;
    if (parse_number(choice, &k))
        return k < (long)n ? k : -1;
    return nth_named(list, n, choice, rank);
}

/* The local rank of this process under an MPI or batch launcher (the first variable set of
 * TRANSLATE_LOCAL_RANK, OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID, PMI_LOCAL_RANK,
 * SLURM_LOCALID), or -1 when none is set. */
static long local_rank(void)
{
    static const char *const names[] = {"TRANSLATE_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK",
                                        "MPI_LOCALRANKID", "PMI_LOCAL_RANK", "SLURM_LOCALID"};
    size_t i;
    long k;
    for (i = 0; i < sizeof names / sizeof names[0]; ++i) {
        const char *v = getenv(names[i]);
        if (v != NULL && parse_number(v, &k))
            return k;
    }
    return -1;
}

/* Index into `list` of the device TRANSLATE_DEVICE asks for, or -1.  A comma-separated list
 * gives local rank r its entry r mod length; every entry, or a single choice, is read by
 * match_one for rank r. */
static long match_device_for_rank(const tr_device_entry *list, size_t n, const char *choice,
                                  long rank)
{
    char entry[256];
    size_t count = 1, len;
    const char *at = choice;
    cl_device_type type = 0;
    long pick, k = -1;
    if (rank < 0)
        rank = 0;
    if (choice == NULL || strchr(choice, ',') == NULL)
        return match_one(list, n, choice, rank, &type);
    for (at = choice; (at = strchr(at, ',')) != NULL; ++at)
        count += 1;
    pick = (long)((size_t)rank % count);
    for (at = choice; pick >= 0; --pick) {   /* read entries up to the picked one (types carry) */
        len = strcspn(at, ",");
        if (len == 0 || len >= sizeof entry)
            return -1;
        memcpy(entry, at, len);
        entry[len] = '\0';
        k = match_one(list, n, entry, 0, &type);
        at += len + (at[len] == ',');
    }
    return k;
}

static long match_device(const tr_device_entry *list, size_t n, const char *choice)
{
    return match_device_for_rank(list, n, choice, local_rank());
}

/* " for local rank R" under a launcher, else "" (for messages and the profile). */
static const char *rank_note(void)
{
    static char note[48];
    long r = local_rank();
    note[0] = '\0';
    if (r >= 0)
        snprintf(note, sizeof note, " for local rank %ld", r);
    return note;
}

static void fail_no_device(const tr_region *region, const tr_device_entry *list, size_t n,
                           const char *choice)
{
    size_t i;
    leave_early_thread();
    fflush(stdout);
    if (choice == NULL || choice[0] == '\0')
        fprintf(stderr, "%s: error: translate runtime: no OpenCL device found\n",
                where_of(region));
    else
        fprintf(stderr, "%s: error: translate runtime: no OpenCL device matches "
                "TRANSLATE_DEVICE=\"%s\"%s (expected gpu, cpu, accelerator, P:D, TYPE:K, a "
                "platform or device name substring, or a comma-separated list of these, one "
                "per local rank)\n", where_of(region), choice, rank_note());
    fprintf(stderr, "note: available devices:%s\n", n == 0 ? " none" : "");
    for (i = 0; i < n; ++i)
        fprintf(stderr, "  %u:%u  %s / %s\n", list[i].platform_index, list[i].device_index,
                list[i].platform_name, list[i].device_name);
    exit(1);
}

/* The options every program is built with on rt.device.  Float division and sqrt rounded
 * correctly where the device can (CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT): OpenCL otherwise
 * allows 2.5 and 3 ulp, and NVIDIA's compiler takes them (a quarter of float divisions and a
 * sixth of square roots differed from gcc's on an H200, bench/RESULTS.md); the sequential
 * program's float results are the contract.  Doubles are always rounded correctly. */
static void device_build_options(void)
{
    cl_device_fp_config single = 0;
    clGetDeviceInfo(rt.device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof single, &single, NULL);
    snprintf(rt.build_options, sizeof rt.build_options, "-cl-kernel-arg-info%s",
             single & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT
                 ? " -cl-fp32-correctly-rounded-divide-sqrt" : "");
}

static void select_device(const tr_region *region)
{
    tr_device_entry *list = NULL;
    size_t n = list_devices(region, &list);
    const char *choice = getenv("TRANSLATE_DEVICE");
    long k = match_device(list, n, choice);
    char ext[4096];
    if (k < 0)
        fail_no_device(region, list, n, choice);
    rt.platform = list[k].platform;
    rt.device = list[k].device;
    memcpy(rt.device_name, list[k].device_name, sizeof rt.device_name);
    get_device_string(region, rt.device, CL_DEVICE_EXTENSIONS, ext, sizeof ext);
    rt.has_fp64 = strstr(ext, "cl_khr_fp64") != NULL;
    rt.has_int64_atomics = strstr(ext, "cl_khr_int64_base_atomics") != NULL;
    if (!rt.has_fp64) {
        cl_device_fp_config cfg = 0;
        clGetDeviceInfo(rt.device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof cfg, &cfg, NULL);
        rt.has_fp64 = cfg != 0;
    }
    snprintf(rt.device_note, sizeof rt.device_note, "%u:%u%s", list[k].platform_index,
             list[k].device_index, rank_note());
    snprintf(rt.device_pd, sizeof rt.device_pd, "%u:%u", list[k].platform_index,
             list[k].device_index);
    memcpy(rt.platform_name, list[k].platform_name, sizeof rt.platform_name);
    device_build_options();
    free(list);
}

/* TRANSLATE_VERBOSE: which device select_device chose, and whether the early start opened
 * it (printed by the first call: the early start's thread prints nothing). */
static void print_device_choice(int early_opened)
{
    if (!env_flag("TRANSLATE_VERBOSE"))
        return;
    fprintf(stderr, "translate runtime: using device %s \"%s\" (platform \"%s\")%s\n",
            rt.device_pd, rt.device_name, rt.platform_name, rank_note());
    if (early_opened)
        fprintf(stderr, "translate runtime: device opened while the program started "
                "(TRANSLATE_EARLY_INIT)\n");
}

/* ------------------------------------------------------------------------------------------ */
/* Setup, profile report and teardown                                                          */

/* Data regions (the last section of this file). */
static void print_data_profile(unsigned long long *in, unsigned long long *out);
static void cache_profile_note(char *note, size_t size);
static void print_copy_hints(const struct tr_region_state *s);
static void release_data(void);
static int data_present(void);
static int one_present(const void *a, size_t a_bytes, const void *b, size_t b_bytes);
static int present_buffer(tr_call *call, cl_uint index, const void *host, size_t bytes,
                          cl_mem *out, int *owned);
/* Pinned staging (after setup). */
static void staging_setup(const tr_region *region);
static char *pinned_map(size_t bytes, cl_mem *buffer);
static void pinned_release(cl_mem *buffer, char **ptr);
static void release_staging(void);
static cl_int flush_held(void);
/* Async queues (after staging). */
static void release_queues(void);
static cl_int use_queue(long long id);
static void unpack_pending(cl_command_queue queue, int drop);
static void release_packing(void);
static void print_pack_note(void);
static int async_active(void);
static int async_pending(void);

/* The hints first (a region that dominates the kernel time and could run in parallel, whole
 * arrays copied per call), then the table, whose last row is the total. */
static void print_profile(void)
{
    struct tr_region_state *s;
    unsigned long long calls = 0, ns = 0, in = 0, out = 0;
    cl_uint k;
    fflush(stdout);
    for (s = rt.regions; s != NULL; s = s->next)
        ns += s->kernel_ns;
    for (s = rt.regions; s != NULL; s = s->next) {
        if (s->hint != NULL && s->kernel_ns > 0 && 2 * s->kernel_ns >= ns)
            fprintf(stderr, "hint: region %s (%s) takes %.0f%% of the kernel time: %s\n",
                    s->region->name, where_of(s->region),
                    100.0 * (double)s->kernel_ns / (double)ns, s->hint);
        print_copy_hints(s);
    }
    print_pack_note();
    {   /* one write: the ranks of an MPI run share standard error */
        char note[1280];   /* the cache directory (at most 1024 bytes) and its counts */
        cache_profile_note(note, sizeof note);
        fprintf(stderr, "translate profile (device \"%s\", %s%s):\n", rt.device_name,
                rt.device_note, note);
    }
    fprintf(stderr, "%-24s %-24s %8s %14s %16s %16s\n", "region", "location", "calls",
            "kernel ms", "bytes to dev", "bytes from dev");
    for (s = rt.regions; s != NULL; s = s->next) {
        fprintf(stderr, "%-24s %-24s %8llu %14.3f %16llu %16llu\n", s->region->name,
                where_of(s->region), s->calls, (double)s->kernel_ns * 1e-6, s->bytes_in,
                s->bytes_out);
        for (k = 0; k < s->region->nkernels; ++k)   /* launches, time; bytes are the region's */
            fprintf(stderr, "  %-22s %-24s %8llu %14.3f %16s %16s\n",
                    s->region->kernels[k].name, "-", s->launches[k],
                    (double)s->each_ns[k] * 1e-6, "-", "-");
        calls += s->calls;
        in += s->bytes_in;
        out += s->bytes_out;
    }
    print_data_profile(&in, &out);
    /* every region call, all kernel time, and all bytes moved (regions and data directives) */
    fprintf(stderr, "%-24s %-24s %8llu %14.3f %16llu %16llu\n", "total", "-", calls,
            (double)ns * 1e-6, in, out);
}

static void at_exit(void);
static void write_tune_records(void);
static void early_join(void);
static void early_discard(void);
static void release_results(void);
static void release_small(void);
static void release_small_pool(struct tr_region_state *s);
static void small_setup(void);

/* After the first launch of a kernel: waits for it (the implementation compiles it now) and
 * registers the exit handler again (see at_exit). */
static void first_launch_done(const tr_region *region)
{
    check(region, clFinish(rt.active), "running the kernel (clFinish)");
    if (atexit(at_exit) != 0)
        fail(region, "registering the exit handler (atexit) failed");
}

static void release_kernels(struct tr_region_state *s)
{
    cl_uint k;
    for (k = 0; s->kernels != NULL && k < s->region->nkernels; ++k)
        if (s->kernels[k] != NULL)
            clReleaseKernel(s->kernels[k]);
    free(s->kernels);
    free(s->launches);
    free(s->each_ns);
    for (k = 0; k < s->cache_cap; ++k)
        if (s->cache[k].buffer != NULL)
            clReleaseMemObject(s->cache[k].buffer);
    free(s->cache);
    for (k = 0; s->memos != NULL && k < (s->region->nkernels > 0 ? s->region->nkernels : 1); ++k)
        free(s->memos[k].args);
    free(s->memos);
    free(s->slots);
    free(s->kernel_set);
    free(s->traffic);
    release_small_pool(s);
}

/* The exit handler.  Exit handlers run in reverse order of registration, and an OpenCL
 * implementation may register its own (its compiler's static objects, say) when it first builds
 * or launches a kernel, after setup registered this one: those then run first and pending
 * device work crashes in them.  So a region call outside data regions returns with the device
 * idle (tr_region_end), and the first launch of each kernel waits for it and registers this
 * handler again (first_launch_done), so that it runs before anything the implementation
 * registered up to then.  It runs once: the later registrations find rt cleared. */
static void at_exit(void)
{
    struct tr_region_state *s, *snext;
    struct tr_program *p, *pnext;
    early_join();
    if (!rt.ready) {
        early_discard();   /* no call came: what the early start made, if anything */
        return;
    }
    release_queues();   /* launches on present data and async work may still run */
    if (rt.profile)
        print_profile();
    write_tune_records();
    release_data();
    release_staging();
    release_results();
    release_small();
    /* Release in reverse order of creation; errors no longer matter at exit. */
    for (s = rt.regions; s != NULL; s = snext) {
        snext = s->next;
        if (s->kernel != NULL)
            clReleaseKernel(s->kernel);
        release_kernels(s);
        s->region->state = NULL;
        free(s);
    }
    for (p = rt.programs; p != NULL; p = pnext) {
        pnext = p->next;
        clReleaseProgram(p->program);
        free(p);
    }
    if (rt.queue != NULL)
        clReleaseCommandQueue(rt.queue);
    if (rt.context != NULL)
        clReleaseContext(rt.context);
    memset(&rt, 0, sizeof rt);
}

/* The device (the first call, or the early start on the loading thread). */
static void choose_device(const tr_region *region)
{
    rt.profile = env_flag("TRANSLATE_PROFILE");
    rt.timing = rt.profile || env_flag("TRANSLATE_TUNE");
    select_device(region);
}

/* The context and the queue of the chosen device (the first call, or the early start's
 * thread). */
static void open_context(const tr_region *region)
{
    cl_int err;
    cl_context_properties props[3];
    props[0] = CL_CONTEXT_PLATFORM;
    props[1] = (cl_context_properties)rt.platform;
    props[2] = 0;
    rt.context = clCreateContext(props, 1, &rt.device, NULL, NULL, &err);
    check(region, err, "clCreateContext");
    rt.queue = clCreateCommandQueue(rt.context, rt.device,
                                    rt.timing ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
    check(region, err, "clCreateCommandQueue");
    check(region, clGetDeviceInfo(rt.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                                  sizeof rt.align_bytes, &rt.align_bytes, NULL),
          "clGetDeviceInfo");
    rt.align_bytes /= 8;   /* the device reports bits */
}

/* ------------------------------------------------------------------------------------------ */
/* Early start: the device opened while the program sets itself up                            */

/* At program load (a constructor) the runtime loads the OpenCL implementation on the loading
 * thread (clGetPlatformIDs: on NVIDIA's and PoCL's, the implementation registers its exit
 * handlers there) and chooses the device, then registers its own exit handler, then starts a
 * thread that creates the context and the queue (open_context) while the program runs.  The
 * first region or data call joins the thread and takes what it made when the environment that
 * chose the device is unchanged; else, or if the thread failed, the call opens the device
 * itself as before, and reports any error at its own location.  The exit handler joins the
 * thread before it releases anything, and it runs before every exit handler registered by the
 * implementation while loading; the thread registers it once more when it ends, so that it
 * also runs first for any registered while the thread worked.  A child of fork() never joins
 * the thread (it does not exist there) and opens its device itself.  TRANSLATE_EARLY_INIT=0
 * turns all this off. */
#if defined(__GNUC__) && !defined(TR_NO_EARLY_START)
#define TR_EARLY_START 1
#endif

static struct {
    pthread_t thread;
    int joinable;        /* a thread to join (only the loading and the main thread read it) */
    int ok;              /* set by the thread: device, context and queue made */
    int forked;          /* this process is a child of fork() made after the early start */
    char env[1024];      /* the variables that chose the device, when the thread started */
} early;

/* The variables choose_device reads (TRANSLATE_DEVICE, the local rank's, the queue's
 * properties), as one string: the early device is used only if they did not change. */
static void early_env(char *out, size_t size)
{
    static const char *const names[] = {
        "TRANSLATE_DEVICE", "TRANSLATE_PROFILE", "TRANSLATE_TUNE", "TRANSLATE_LOCAL_RANK",
        "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "PMI_LOCAL_RANK", "SLURM_LOCALID"};
    size_t i, at = 0;
    out[0] = '\0';
    for (i = 0; i < sizeof names / sizeof names[0] && at < size; ++i) {
        const char *v = getenv(names[i]);
        int n = snprintf(out + at, size - at, "%s%c", v != NULL ? v : "", v != NULL ? '=' : '-');
        at += n > 0 ? (size_t)n : 0;
    }
}

#if defined(TR_EARLY_START)
/* The thread.  An implementation may install an alternate signal stack of its own on the
 * thread that first loads its compiler (PoCL's LLVM does, from malloc'd memory); the thread
 * puts its own back before it ends, so that whoever set that one up (AddressSanitizer does, on
 * every thread) finds it at the thread's end ("unable to unmap" otherwise). */
static void *early_run(void *unused)
{
#if defined(SS_DISABLE)   /* sigaltstack declared (XSI) */
    stack_t own;
    int have_own = sigaltstack(NULL, &own) == 0;
#endif
    (void)unused;
    in_early = 1;
    if (setjmp(early_bail) == 0) {
        open_context(NULL);
        early.ok = 1;
    }
#if defined(SS_DISABLE)
    if (have_own)
        sigaltstack(&own, NULL);
#endif
    atexit(at_exit);   /* after whatever the implementation registered meanwhile */
    return NULL;
}
#endif

/* Waits for the thread (once). */
static void early_join(void)
{
    if (early.joinable) {
        pthread_join(early.thread, NULL);
        early.joinable = 0;
    }
}

/* Releases what the thread made and forgets it (rt is not ready yet). */
static void early_discard(void)
{
    if (rt.queue != NULL)
        clReleaseCommandQueue(rt.queue);
    if (rt.context != NULL)
        clReleaseContext(rt.context);
    memset(&rt, 0, sizeof rt);
    early.ok = 0;
}

/* For setup: 1 if the thread's device, context and queue are now rt's; else none are. */
static int early_adopt(void)
{
    char env[sizeof early.env];
    early_join();
    if (!early.ok) {
        early_discard();   /* a thread that failed may have made some */
        return 0;
    }
    early_env(env, sizeof env);
    if (strcmp(env, early.env) != 0) {
        early_discard();
        return 0;
    }
    early.ok = 0;
    return 1;
}

#if defined(TR_EARLY_START)
/* The child of a fork: the thread is not there, and what it made belongs to the parent. */
static void early_forked(void)
{
    early.joinable = 0;
    early.ok = 0;
    early.forked = 1;
    if (!rt.ready)
        memset(&rt, 0, sizeof rt);
}
#endif

static void setup(const tr_region *region)
{
    int adopted;
    if (early.forked)   /* the implementation's threads stayed in the parent: it would hang */
        fail(region, "this process is a child of fork() and the OpenCL implementation was "
             "started in its parent at program start; no implementation works in such a "
             "child: set TRANSLATE_EARLY_INIT=0 to start it at the first region or data call");
    adopted = early_adopt();
    if (!adopted) {
        choose_device(region);
        open_context(region);
    }
    print_device_choice(adopted);
    rt.active = rt.queue;
    rt.sync = env_flag("TRANSLATE_SYNC");
    staging_setup(region);
    small_setup();
    rt.regions_tail = &rt.regions;
    rt.ready = 1;
    atexit(at_exit);
}

/* The loading thread's part: loads the implementation and chooses the device (PoCL's lazy
 * device set-up is not safe against a first clGetDeviceIDs of another thread at the same
 * time, such as a program listing devices itself), then starts the thread.  A program that
 * includes this file for its functions (translate devices' lister) defines
 * TR_NO_EARLY_START. */
#if defined(TR_EARLY_START)
__attribute__((constructor)) static void early_start(void)
{
    cl_uint n = 0;
    const char *v = getenv("TRANSLATE_EARLY_INIT");
    if (v != NULL && (strcmp(v, "0") == 0 || equals_nocase(v, "off")))
        return;
    if (clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS || n == 0)
        return;   /* the first call finds no device and says so */
    early_env(early.env, sizeof early.env);
    in_early = 1;
    if (setjmp(early_bail) != 0) {   /* no device: the first call says why */
        in_early = 0;
        memset(&rt, 0, sizeof rt);
        return;
    }
    choose_device(NULL);
    in_early = 0;
    if (atexit(at_exit) != 0 || pthread_atfork(NULL, NULL, early_forked) != 0)
        return;
    early.joinable = pthread_create(&early.thread, NULL, early_run, NULL) == 0;
}
#endif

/* ------------------------------------------------------------------------------------------ */
/* Pinned staging for large transfers                                                          */

/* Transfers of at least `min_bytes` are cut into chunks of `chunk` bytes, copied by `nlanes`
 * threads through one pinned ring (CL_MEM_ALLOC_HOST_PTR, mapped once) of 2 x nlanes chunks:
 * chunk m goes to lane m % nlanes and ring slot m % (2 x nlanes), so that `group` adjacent
 * chunks are adjacent in the ring, in the host array and in the device buffer, and go over
 * the link as ONE command once their lanes have copied them in (a write), or come in as one
 * command whose slot is read into again when its lanes have copied it out (a read).  The
 * memcpy of one group overlaps the DMA of others.  DMA commands of 8 MiB (group x chunk with
 * the defaults) ran at 54 GB/s on an H200 against 51 for 2 MiB ("Data-region copies at the
 * link's rate"); the lanes before copied one contiguous part each, one command per chunk, and
 * the ring took heat's data region on an H100 from 42 to 45 GB/s in one run (bench/RESULTS.md,
 * "Host cost per plain call and copy rate (h49)").  The defaults come from bench/RESULTS.md
 * ("Pinned staging"; 12 threads and 2 MiB chunks from "Data-region copies at the link's
 * rate", groups of 4 from h49); TRANSLATE_STAGING=off|BYTES, TRANSLATE_STAGING_CHUNK=BYTES,
 * TRANSLATE_STAGING_THREADS=N and TRANSLATE_STAGING_GROUP=N override them.  Devices that
 * share host memory never stage. */
#define TR_STAGING_MIN_DEFAULT ((size_t)16 << 20)
#define TR_STAGING_CHUNK_DEFAULT ((size_t)2 << 20)
#define TR_STAGING_THREADS_DEFAULT 12   /* at most the online processors (staging_setup) */
#define TR_STAGING_MAX_THREADS 16
#define TR_STAGING_GROUP_DEFAULT 4

/* One group's place in the ring: which group may use it now, how many of its chunks are
 * done, and the DMA that last used it (the next group's lanes wait for it before a write). */
struct tr_ring_slot {
    long long group;
    int count;
    cl_event ev;
};

/* The last group of the latest staged write, copied into the ring but not yet enqueued (see
 * ring_done); buffer NULL: none. */
struct tr_held_chunk {
    cl_mem buffer;            /* retained until the write is enqueued */
    size_t offset, len;
    char *ptr;                /* its place in the ring */
    struct tr_ring_slot *slot;
};

/* The copy in progress (one at a time: copies come from the program's one thread). */
struct tr_ring_copy {
    int to_device;
    cl_mem buffer;
    size_t offset, bytes;     /* device bytes [offset, offset+bytes) */
    char *host;               /* their host copy */
    long long nchunks, ngroups;
    unsigned long long ns;    /* device time of its DMAs (profiling) */
    cl_int err;
};

static struct {
    size_t min_bytes;         /* 0: never stage */
    size_t chunk;
    int nlanes;
    int group;                /* chunks per DMA command; divides 2 x nlanes */
    cl_mem ring;              /* 2 x nlanes chunks, pinned, mapped at ring_ptr */
    char *ring_ptr;
    struct tr_ring_slot slots[2 * TR_STAGING_MAX_THREADS];
    struct tr_held_chunk held;
    struct tr_ring_copy cur;
    pthread_mutex_t lock;     /* slots, cur.ns, cur.err */
    pthread_cond_t moved;     /* a slot passed to its next group */
} stg = {.lock = PTHREAD_MUTEX_INITIALIZER, .moved = PTHREAD_COND_INITIALIZER};

/* A byte count from the environment, or `fallback` if unset; "off" is 0. */
static size_t env_bytes(const char *name, size_t fallback)
{
    const char *v = getenv(name);
    char *end;
    unsigned long long n;
    if (v == NULL || v[0] == '\0')
        return fallback;
    if (equals_nocase(v, "off"))
        return 0;
    n = strtoull(v, &end, 10);
    return *end == '\0' ? (size_t)n : fallback;
}

/* TR_STAGING_THREADS_DEFAULT, or fewer where fewer processors are online. */
static size_t default_lanes(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > 0 && cpus < TR_STAGING_THREADS_DEFAULT ? (size_t)cpus
                                                         : TR_STAGING_THREADS_DEFAULT;
}

/* The chunks per DMA command: `wanted`, at most the lanes, lowered to a divisor of the ring's
 * 2 x nlanes slots (so that a group never wraps around the ring's end). */
static int ring_group(size_t wanted, int nlanes)
{
    int g = wanted < 1 ? 1 : wanted > (size_t)nlanes ? nlanes : (int)wanted;
    while ((2 * nlanes) % g != 0)
        g -= 1;
    return g;
}

static void staging_setup(const tr_region *region)
{
    cl_device_type type = 0;
    cl_bool unified = CL_FALSE;
    size_t lanes;
    check(region, clGetDeviceInfo(rt.device, CL_DEVICE_TYPE, sizeof type, &type, NULL),
          "clGetDeviceInfo");
    clGetDeviceInfo(rt.device, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL);
    stg.min_bytes = (type & CL_DEVICE_TYPE_GPU) && !unified ? TR_STAGING_MIN_DEFAULT : 0;
    stg.min_bytes = env_bytes("TRANSLATE_STAGING", stg.min_bytes);
    stg.chunk = env_bytes("TRANSLATE_STAGING_CHUNK", TR_STAGING_CHUNK_DEFAULT);
    if (stg.chunk < 4096)
        stg.chunk = 4096;
    lanes = env_bytes("TRANSLATE_STAGING_THREADS", default_lanes());
    stg.nlanes = lanes < 1 ? 1 : lanes > TR_STAGING_MAX_THREADS ? TR_STAGING_MAX_THREADS
                                                                 : (int)lanes;
    stg.group = ring_group(env_bytes("TRANSLATE_STAGING_GROUP", TR_STAGING_GROUP_DEFAULT),
                           stg.nlanes);
}

/* Creates and maps the ring on first use; 1 if a transfer of `bytes` should be staged.
 * Staging that cannot be set up is turned off (the plain copy still works). */
static int staging_wanted(size_t bytes)
{
    if (stg.min_bytes == 0 || bytes < stg.min_bytes || async_pending())
        return 0;
    if (stg.ring_ptr == NULL
        && (stg.ring_ptr = pinned_map(2 * (size_t)stg.nlanes * stg.chunk, &stg.ring)) == NULL)
        stg.min_bytes = 0;
    return stg.ring_ptr != NULL;
}

static unsigned long long event_ns(cl_event event)
{
    cl_ulong start = 0, end = 0;
    if (clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL)
            == CL_SUCCESS
        && clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL)
            == CL_SUCCESS && end > start)
        return (unsigned long long)(end - start);
    return 0;
}

/* memcpy into the user's memory for a staged read: with non-temporal stores where SSE2 is
 * there (the user's array need not pass through the caches; a staged read of 128 MiB over 8
 * lanes: 46 GB/s against 37 with memcpy on the H200 machine, bench/RESULTS.md, "Data-region
 * copies at the link's rate").  Writes keep memcpy (34 GB/s with non-temporal stores, 44
 * without; presumably the DMA then finds the pinned chunk in the cache). */
static void copy_to_user(char *dst, const char *src, size_t n)
{
#if defined(__SSE2__)
    size_t i = 0;
    while (((uintptr_t)(dst + i) & 15) != 0 && i < n) {
        dst[i] = src[i];
        ++i;
    }
    for (; i + 64 <= n; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(src + i + 32));
        __m128i d = _mm_loadu_si128((const __m128i *)(const void *)(src + i + 48));
        _mm_stream_si128((__m128i *)(void *)(dst + i), a);
        _mm_stream_si128((__m128i *)(void *)(dst + i + 16), b);
        _mm_stream_si128((__m128i *)(void *)(dst + i + 32), c);
        _mm_stream_si128((__m128i *)(void *)(dst + i + 48), d);
    }
    if (i < n)
        memcpy(dst + i, src + i, n - i);
    _mm_sfence();   /* the stores are visible before the read returns */
#else
    memcpy(dst, src, n);
#endif
}

/* Enqueues the held group's write, if any: called before anything else is enqueued, so that
 * the queue's order stays the order of the program's transfers and launches. */
static cl_int flush_held(void)
{
    struct tr_held_chunk *h = &stg.held;
    cl_int err;
    if (h->buffer == NULL)
        return CL_SUCCESS;
    err = clEnqueueWriteBuffer(rt.active, h->buffer, CL_FALSE, h->offset, h->len, h->ptr, 0,
                               NULL, &h->slot->ev);
    if (err != CL_SUCCESS)
        h->slot->ev = NULL;
    clReleaseMemObject(h->buffer);
    h->buffer = NULL;
    return err;
}

/* Ring slots in use: 2 x nlanes chunks, `group` chunks a slot. */
static int ring_slots(void)
{
    return 2 * stg.nlanes / stg.group;
}

static struct tr_ring_slot *slot_of(long long group)
{
    return &stg.slots[group % ring_slots()];
}

/* Group `group` of the current copy: its bytes, its device offset and its place in the ring. */
static size_t group_bytes(long long group)
{
    size_t at = (size_t)group * (size_t)stg.group * stg.chunk;
    size_t n = (size_t)stg.group * stg.chunk;
    return at + n > stg.cur.bytes ? stg.cur.bytes - at : n;
}

static char *group_ptr(long long group)
{
    return stg.ring_ptr + (size_t)(group % ring_slots()) * (size_t)stg.group * stg.chunk;
}

static long long group_chunks(long long group)
{
    long long n = stg.cur.nchunks - group * stg.group;
    return n < stg.group ? n : stg.group;
}

/* Drops slot `sl`'s event (its DMA has completed: its lanes waited for it), counting its time
 * when profiling.  With stg.lock held. */
static void slot_forget(struct tr_ring_slot *sl)
{
    if (sl->ev == NULL)
        return;
    if (rt.profile)
        stg.cur.ns += event_ns(sl->ev);
    clReleaseEvent(sl->ev);
    sl->ev = NULL;
}

/* Enqueues the DMA of group `group` of the current copy through its slot.  With stg.lock
 * held. */
static void ring_enqueue(long long group)
{
    struct tr_ring_slot *sl = slot_of(group);
    size_t at = stg.cur.offset + (size_t)group * (size_t)stg.group * stg.chunk;
    cl_int err;
    if (stg.cur.to_device)
        err = clEnqueueWriteBuffer(rt.active, stg.cur.buffer, CL_FALSE, at, group_bytes(group),
                                   group_ptr(group), 0, NULL, &sl->ev);
    else
        err = clEnqueueReadBuffer(rt.active, stg.cur.buffer, CL_FALSE, at, group_bytes(group),
                                  group_ptr(group), 0, NULL, &sl->ev);
    if (err == CL_SUCCESS)
        err = clFlush(rt.active);
    if (err != CL_SUCCESS && stg.cur.err == CL_SUCCESS)
        stg.cur.err = err;
}

/* Waits until the slot of `group` is the group's (a read: its DMA is enqueued); returns the
 * event to wait for before touching its memory (retained), or NULL. */
static cl_event ring_claim(long long group)
{
    struct tr_ring_slot *sl = slot_of(group);
    cl_event ev = NULL;
    pthread_mutex_lock(&stg.lock);
    while (sl->group != group)
        pthread_cond_wait(&stg.moved, &stg.lock);
    if (sl->ev != NULL && clRetainEvent(sl->ev) == CL_SUCCESS)
        ev = sl->ev;
    pthread_mutex_unlock(&stg.lock);
    return ev;
}

/* A chunk of `group` is copied (in or out).  When the group's last one is: a write's group
 * goes out as one command (the copy's last group is held back for the next command, so that
 * a kernel right after the copy is queued before the copy ends: bench/RESULTS.md, "Staging
 * and kernel time"), and the slot passes to the group after next; a read's slot is read into
 * for the group after next. */
static void ring_done(long long group)
{
    struct tr_ring_slot *sl = slot_of(group);
    long long next = group + ring_slots();
    pthread_mutex_lock(&stg.lock);
    if (++sl->count == group_chunks(group)) {
        sl->count = 0;
        slot_forget(sl);
        if (stg.cur.to_device && group + 1 == stg.cur.ngroups) {
            clRetainMemObject(stg.cur.buffer);
            stg.held = (struct tr_held_chunk){stg.cur.buffer,
                stg.cur.offset + (size_t)group * (size_t)stg.group * stg.chunk,
                group_bytes(group), group_ptr(group), sl};
        } else if (stg.cur.to_device || next < stg.cur.ngroups) {
            ring_enqueue(stg.cur.to_device ? group : next);
        }
        sl->group = next;
        pthread_cond_broadcast(&stg.moved);
    }
    pthread_mutex_unlock(&stg.lock);
}

/* One lane's chunks of the current copy: k, k + nlanes, ... */
static void *stage_run(void *arg)
{
    long long m;
    for (m = (long long)(intptr_t)arg; m < stg.cur.nchunks; m += stg.nlanes) {
        long long group = m / stg.group;
        size_t at = (size_t)m * stg.chunk;
        size_t len = stg.cur.bytes - at < stg.chunk ? stg.cur.bytes - at : stg.chunk;
        char *pin = stg.ring_ptr + (size_t)(m % (2 * stg.nlanes)) * stg.chunk;
        cl_event ev = ring_claim(group);
        if (ev != NULL) {
            cl_int err = clWaitForEvents(1, &ev);
            clReleaseEvent(ev);
            if (err != CL_SUCCESS) {
                pthread_mutex_lock(&stg.lock);
                stg.cur.err = stg.cur.err == CL_SUCCESS ? err : stg.cur.err;
                pthread_mutex_unlock(&stg.lock);
            }
        }
        if (stg.cur.to_device)
            memcpy(pin, stg.cur.host + at, len);
        else
            copy_to_user(stg.cur.host + at, pin, len);
        ring_done(group);
    }
    return NULL;
}

/* The staging threads: lane k (k >= 1) has worker k, started by the first staged copy and
 * kept until exit (release_staging), so that a copy costs no thread creation; lane 0 runs on
 * the calling thread.  Each staged copy is one round: the workers run their lanes and the
 * caller waits until `busy` is back to 0. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    pthread_t threads[TR_STAGING_MAX_THREADS];
    int started;                   /* workers 1..started run */
    int quit;
    unsigned long long round;      /* counts rounds; a worker runs each new one once */
    int busy;                      /* workers still in the current round */
    int nlanes;                    /* lanes of the current round */
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER,
          {0}, 0, 0, 0, 0, 0};

static void *stage_worker(void *arg)
{
    int k = (int)(intptr_t)arg;
    unsigned long long seen = 0;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (!pool.quit && pool.round == seen)
            pthread_cond_wait(&pool.go, &pool.lock);
        if (pool.quit)
            break;
        seen = pool.round;
        if (k < pool.nlanes) {
            pthread_mutex_unlock(&pool.lock);
            stage_run((void *)(intptr_t)k);
            pthread_mutex_lock(&pool.lock);
        }
        if (--pool.busy == 0)
            pthread_cond_signal(&pool.done);
    }
    pthread_mutex_unlock(&pool.lock);
    return NULL;
}

/* Starts the workers of lanes 1..nlanes-1 that do not run yet (a lane without one is copied
 * on the calling thread). */
static void pool_start(void)
{
    while (pool.started + 1 < stg.nlanes
           && pthread_create(&pool.threads[pool.started + 1], NULL, stage_worker,
                             (void *)(intptr_t)(pool.started + 1)) == 0)
        pool.started += 1;
}

/* Stops and joins the workers. */
static void pool_stop(void)
{
    int k;
    pthread_mutex_lock(&pool.lock);
    pool.quit = 1;
    pthread_cond_broadcast(&pool.go);
    pthread_mutex_unlock(&pool.lock);
    for (k = 1; k <= pool.started; ++k)
        pthread_join(pool.threads[k], NULL);
    pool.started = 0;
    pool.quit = 0;
    pool.round = 0;
}

/* Runs lanes 0..n-1 of the current copy: those with a worker on it, the others here. */
static void pool_run(int n)
{
    int k;
    pool_start();
    pthread_mutex_lock(&pool.lock);
    pool.nlanes = n;
    pool.busy = pool.started;
    pool.round += 1;
    pthread_cond_broadcast(&pool.go);
    pthread_mutex_unlock(&pool.lock);
    stage_run((void *)(intptr_t)0);
    for (k = pool.started + 1; k < n; ++k)
        stage_run((void *)(intptr_t)k);
    pthread_mutex_lock(&pool.lock);
    while (pool.busy > 0)
        pthread_cond_wait(&pool.done, &pool.lock);
    pool.nlanes = 0;
    pthread_mutex_unlock(&pool.lock);
}

/* Waits for every DMA through the ring (profiling: the copy's time counts them). */
static cl_int ring_drain(void)
{
    cl_int err = CL_SUCCESS;
    int i;
    for (i = 0; i < 2 * TR_STAGING_MAX_THREADS; ++i)
        if (stg.slots[i].ev != NULL) {
            cl_int e = clWaitForEvents(1, &stg.slots[i].ev);
            err = err == CL_SUCCESS ? e : err;
            slot_forget(&stg.slots[i]);
        }
    return err;
}

/* A staged copy through the ring (see above).  A write returns once the host data is in the
 * ring: its last groups' DMAs may still run (the next copy's lanes wait for them before they
 * reuse a slot), so that the next array's staging overlaps them, and its last group waits for
 * the next command (flush_held); under TRANSLATE_PROFILE it waits, so that their time counts
 * for this copy.  A read returns when the data is in host memory. */
static cl_int staged_copy(int to_device, cl_mem buffer, size_t offset, size_t bytes, char *host,
                          unsigned long long *ns)
{
    long long nchunks = (long long)((bytes + stg.chunk - 1) / stg.chunk), g;
    int i;
    cl_int err = flush_held();
    if (err != CL_SUCCESS)
        return err;
    stg.cur = (struct tr_ring_copy){to_device, buffer, offset, bytes, host, nchunks,
                                    (nchunks + stg.group - 1) / stg.group, 0, CL_SUCCESS};
    if (!to_device && (err = ring_drain()) != CL_SUCCESS)   /* the last write (any queue) */
        return err;
    for (i = 0; i < ring_slots(); ++i) {
        stg.slots[i].group = i;
        stg.slots[i].count = 0;
    }
    for (g = 0; !to_device && g < ring_slots() && g < stg.cur.ngroups; ++g)
        ring_enqueue(g);
    pool_run(nchunks < stg.nlanes ? (int)nchunks : stg.nlanes);
    if (rt.profile || stg.cur.err != CL_SUCCESS)
        err = ring_drain();
    if (ns != NULL)
        *ns += stg.cur.ns;
    return stg.cur.err != CL_SUCCESS ? stg.cur.err : err;
}

/* A blocking copy host <-> device, staged when large enough; profiling adds device time to
 * *ns (may be NULL). */
static cl_int copy_blocking(int to_device, cl_mem buffer, size_t offset, size_t bytes, void *host,
                            unsigned long long *ns)
{
    cl_event event = NULL;
    cl_event *ev = rt.profile && ns != NULL ? &event : NULL;
    cl_int err = flush_held();
    if (err != CL_SUCCESS)
        return err;
    if (staging_wanted(bytes))
        return staged_copy(to_device, buffer, offset, bytes, host, ns);
    if (to_device)
        err = clEnqueueWriteBuffer(rt.active, buffer, CL_TRUE, offset, bytes, host, 0, NULL, ev);
    else
        err = clEnqueueReadBuffer(rt.active, buffer, CL_TRUE, offset, bytes, host, 0, NULL, ev);
    if (event != NULL) {
        *ns += event_ns(event);
        clReleaseEvent(event);
    }
    return err;
}

/* At exit: stops the lanes, waits for the ring's DMAs, unmaps and releases it. */
static void release_staging(void)
{
    pool_stop();
    flush_held();
    ring_drain();
    pinned_release(&stg.ring, &stg.ring_ptr);
    stg.min_bytes = 0;
    memset(stg.slots, 0, sizeof stg.slots);
    memset(&stg.cur, 0, sizeof stg.cur);
}

/* ------------------------------------------------------------------------------------------ */
/* Async queues: `async(n)` on regions and updates, `wait(n)` (see translate_rt.h)           */

/* One async queue: its id (the n of async(n); TR_ASYNC_NOVAL for a bare `async`), whether
 * work was enqueued on it that work without async is not yet ordered after (`unfenced`),
 * whether work was enqueued on it since its last wait (`busy`), and the sync epoch its work
 * is ordered after. */
struct tr_async_queue {
    long long id;
    cl_command_queue queue;
    int unfenced;
    int busy;
    unsigned long long sync_seen;
};

/* A host buffer holding the data of a write in flight (an `update device` without async
 * returns before its write ends), freed once the write's event completes. */
struct tr_bounce {
    void *data;
    size_t bytes;
    cl_event done;
    struct tr_bounce *next;
};

#define TR_ASYNC_QUEUES 32
#define TR_BOUNCE_MAX ((size_t)4 << 20)        /* larger writes wait instead */
#define TR_BOUNCE_PENDING ((size_t)64 << 20)   /* more in flight: wait for the oldest */

static struct {
    struct tr_async_queue queues[TR_ASYNC_QUEUES];
    int nqueues;
    unsigned long long sync_epoch;   /* counts work started on rt.queue */
    struct tr_bounce *bounces, **bounces_tail;
    size_t bounce_bytes;
} aq;

/* The async queue with id `id`, created on first use; NULL when there are too many. */
static struct tr_async_queue *async_queue(long long id, cl_int *err)
{
    int k;
    struct tr_async_queue *q;
    *err = CL_SUCCESS;
    for (k = 0; k < aq.nqueues; ++k)
        if (aq.queues[k].id == id)
            return &aq.queues[k];
    if (aq.nqueues == TR_ASYNC_QUEUES) {
        *err = CL_OUT_OF_RESOURCES;
        return NULL;
    }
    q = &aq.queues[aq.nqueues];
    q->queue = clCreateCommandQueue(rt.context, rt.device,
                                    rt.profile ? CL_QUEUE_PROFILING_ENABLE : 0, err);
    if (*err != CL_SUCCESS)
        return NULL;
    q->id = id;
    q->unfenced = 0;
    q->busy = 0;
    q->sync_seen = 0;
    aq.nqueues += 1;
    return q;
}

/* 1 if async id `id` would be one queue too many. */
static int too_many_queues(long long id)
{
    int k;
    if (id == TR_SYNC || aq.nqueues < TR_ASYNC_QUEUES)
        return 0;
    for (k = 0; k < aq.nqueues; ++k)
        if (aq.queues[k].id == id)
            return 0;
    return 1;
}

/* Later commands of `to` wait (on the device) for everything enqueued on `from` so far. */
static cl_int fence(cl_command_queue from, cl_command_queue to)
{
    cl_event marker;
    cl_int err = clEnqueueMarkerWithWaitList(from, 0, NULL, &marker);
    if (err != CL_SUCCESS)
        return err;
    err = clEnqueueBarrierWithWaitList(to, 1, &marker, NULL);
    clReleaseEvent(marker);
    return err == CL_SUCCESS ? clFlush(from) : err;
}

/* Makes the queue of async id `id` (TR_SYNC: the queue of work without async) the one the
 * next commands go to.  Work without async is ordered after all work enqueued before it, on
 * every queue; async work after earlier work of its own queue and all earlier work without
 * async, not after other async queues (OpenACC's rule), all by device-side barriers. */
static cl_int use_queue(long long id)
{
    int k;
    cl_int err = flush_held();   /* a held chunk belongs to the queue it was staged on */
    struct tr_async_queue *q;
    if (err != CL_SUCCESS)
        return err;
    if (id == TR_SYNC) {
        for (k = 0; k < aq.nqueues && err == CL_SUCCESS; ++k)
            if (aq.queues[k].unfenced) {
                err = fence(aq.queues[k].queue, rt.queue);
                aq.queues[k].unfenced = 0;
            }
        rt.active = rt.queue;
        aq.sync_epoch += 1;
        return err;
    }
    q = async_queue(id, &err);
    if (q == NULL)
        return err;
    if (q->sync_seen != aq.sync_epoch)
        err = fence(rt.queue, q->queue);
    q->sync_seen = aq.sync_epoch;
    q->unfenced = 1;
    q->busy = 1;
    rt.active = q->queue;
    return err;
}

/* 1 while the current call or directive runs on an async queue. */
static int async_active(void)
{
    return rt.active != rt.queue;
}

/* 1 while some async work has not been waited for.  Its copies back may still be on their way
 * into the program's memory, so the copies that snapshot host memory at once (packed small
 * arrays, staged writes) would read it before them: a copy in must then go
 * from the host memory itself, ordered after that work on the device (h50: a plain call
 * after an async one on the same array read the old values).  An `update device` keeps its
 * bounce copy: the program must not pass data an async copy brings back before `wait`. */
static int async_pending(void)
{
    int k;
    for (k = 0; k < aq.nqueues; ++k)
        if (aq.queues[k].busy)
            return 1;
    return 0;
}

/* The queue of work without async has just been waited for: the async work ordered before it
 * (fenced, see use_queue) is done too. */
static void async_settled(void)
{
    int k;
    for (k = 0; k < aq.nqueues; ++k)
        if (!aq.queues[k].unfenced)
            aq.queues[k].busy = 0;
}

/* Frees the bounce buffers whose writes are done (all of them with `all`, after waiting). */
static void reap_bounces(int all)
{
    struct tr_bounce *b;
    cl_int status;
    while ((b = aq.bounces) != NULL) {
        if (all || aq.bounce_bytes > TR_BOUNCE_PENDING)
            clWaitForEvents(1, &b->done);
        else if (clGetEventInfo(b->done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                                &status, NULL) != CL_SUCCESS || status > CL_COMPLETE)
            break;   /* (an error status is negative: the write is over) */
        aq.bounces = b->next;
        aq.bounce_bytes -= b->bytes;
        clReleaseEvent(b->done);
        free(b->data);
        free(b);
    }
    if (aq.bounces == NULL)
        aq.bounces_tail = &aq.bounces;
}

/* Keeps `data` (malloc'd) until the write that `done` tracks has ended. */
static void keep_bounce(void *data, size_t bytes, cl_event done)
{
    struct tr_bounce *b = malloc(sizeof *b);
    if (b == NULL) {   /* cannot track it: wait for the write here */
        clWaitForEvents(1, &done);
        clReleaseEvent(done);
        free(data);
        return;
    }
    b->data = data;
    b->bytes = bytes;
    b->done = done;
    b->next = NULL;
    if (aq.bounces_tail == NULL)
        aq.bounces_tail = &aq.bounces;
    *aq.bounces_tail = b;
    aq.bounces_tail = &b->next;
    aq.bounce_bytes += bytes;
    reap_bounces(0);
}

/* Waits for the async queues of `ids` (all of them when count is 0). */
static cl_int wait_queues(int count, const long long *ids)
{
    int k, i;
    cl_int err = flush_held();
    for (k = 0; k < aq.nqueues && err == CL_SUCCESS; ++k) {
        int wanted = count == 0;
        for (i = 0; i < count; ++i)
            wanted |= ids[i] == aq.queues[k].id;
        if (wanted) {
            err = clFinish(aq.queues[k].queue);
            aq.queues[k].unfenced = 0;   /* done: later work need not wait for it */
            aq.queues[k].busy = err != CL_SUCCESS;
            if (err == CL_SUCCESS)
                unpack_pending(aq.queues[k].queue, 0);
        }
    }
    reap_bounces(0);
    return err;
}

/* Before a copy to the device that reads host memory without async (a region call's copy in,
 * a data directive): waits on the host for the async work not yet waited for.  Its copies
 * back may still be on their way into that memory, and ordering the copy after them on the
 * device (use_queue) is not enough: NVIDIA's OpenCL reads the host memory of a non-blocking
 * write when the write is enqueued, as CUDA does for pageable memory, not when the barrier
 * before it lets it run (h64, on an H200: a plain call after an async one on the same array
 * sent the old values and brought back results computed from them). */
static cl_int settle_async_copies(void)
{
    return async_pending() ? wait_queues(0, NULL) : CL_SUCCESS;
}

/* At exit: waits for every queue and releases the async ones. */
static void release_queues(void)
{
    int k;
    flush_held();
    for (k = 0; k < aq.nqueues; ++k)
        clFinish(aq.queues[k].queue);
    if (rt.queue != NULL)
        clFinish(rt.queue);
    reap_bounces(1);
    release_packing();
    for (k = 0; k < aq.nqueues; ++k)
        clReleaseCommandQueue(aq.queues[k].queue);
    memset(&aq, 0, sizeof aq);
}

/* ------------------------------------------------------------------------------------------ */
/* Programs                                                                                    */

/* FNV-1a, 64 bit: cheap, and collisions are resolved by comparing the full source. */
static uint64_t hash_source(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s != '\0'; ++s) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

static void fail_build(const tr_region *region, cl_program program, cl_int err)
{
    size_t size = 0;
    char *log;
    fflush(stdout);
    fprintf(stderr, "%s: error: translate runtime: building the OpenCL program of region '%s' "
            "failed: %s (%d)\n", where_of(region), region->name, tr_error_name(err), (int)err);
    if (clGetProgramBuildInfo(program, rt.device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size)
            == CL_SUCCESS && size > 0) {
        log = xcalloc(region, size + 1, 1);
        if (clGetProgramBuildInfo(program, rt.device, CL_PROGRAM_BUILD_LOG, size, log, NULL)
                == CL_SUCCESS)
            fprintf(stderr, "note: build log:\n%s\n", log);
        free(log);
    }
    exit(1);
}

static cl_program load_cached_program(const char *src);
static void store_cached_program(cl_program program, const char *src);

/* The program of `src`, built for rt.device: loaded from the binary cache on disk where it
 * holds the same source for the same device, driver and options (see "Program binary cache"),
 * else built from source and stored there. */
static cl_program build_program(const tr_region *region, const char *src)
{
    cl_int err;
    cl_program program = load_cached_program(src);
    if (program != NULL)
        return program;
    program = clCreateProgramWithSource(rt.context, 1, &src, NULL, &err);
    check(region, err, "clCreateProgramWithSource");
    err = clBuildProgram(program, 1, &rt.device, rt.build_options, NULL, NULL);
    if (err != CL_SUCCESS)
        fail_build(region, program, err);
    store_cached_program(program, src);
    return program;
}

/* ------------------------------------------------------------------------------------------ */
/* Program binary cache on disk                                                                */

/* One file per program: <dir>/<key hash, 16 hex digits>.clbin, written to a temporary name
 * and renamed into place.  Contents: the magic line, the length and bytes of the key (device,
 * driver, platform, build options, then the whole kernel source), the length and bytes of the
 * binary, and an FNV-1a hash of the binary.  An entry is used only if its key equals this
 * program's key byte for byte and the hash matches; anything else (truncated, corrupt, another
 * source under the same hash, a binary the driver refuses) is rebuilt and replaced. */
static const char CACHE_MAGIC[8] = {'T', 'R', 'K', 'C', 'A', 'C', '1', '\n'};

static struct {
    int state;                /* 0: not set up, 1: on, -1: off */
    char dir[1024];
    char meta[2048];          /* device, driver, platform and options: the key's head */
    unsigned long loaded, built, replaced;
} kc;

static uint64_t fnv_bytes(uint64_t h, const unsigned char *p, size_t n)
{
    size_t i;
    for (i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* mkdir -p; 0 on success. */
static int make_dirs(char *path)
{
    char *p;
    for (p = path + 1; *p != '\0'; ++p)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0755) != 0 && errno != EEXIST) {
                *p = '/';
                return -1;
            }
            *p = '/';
        }
    return mkdir(path, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* TRANSLATE_KERNEL_CACHE, else $XDG_CACHE_HOME/translate/kernels, else
 * $HOME/.cache/translate/kernels; "off" (or "0") disables the cache. */
static int cache_directory(char *out, size_t cap)
{
    const char *v = getenv("TRANSLATE_KERNEL_CACHE"), *base;
    int n;
    if (v != NULL && (strcmp(v, "off") == 0 || strcmp(v, "0") == 0))
        return -1;
    if (v != NULL && v[0] != '\0')
        n = snprintf(out, cap, "%s", v);
    else if ((base = getenv("XDG_CACHE_HOME")) != NULL && base[0] == '/')
        n = snprintf(out, cap, "%s/translate/kernels", base);
    else if ((base = getenv("HOME")) != NULL && base[0] != '\0')
        n = snprintf(out, cap, "%s/.cache/translate/kernels", base);
    else
        return -1;
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

static void cache_setup(void)
{
    char platform[256] = "", version[256] = "", driver[256] = "";
    if (kc.state != 0)
        return;
    kc.state = -1;
    if (cache_directory(kc.dir, sizeof kc.dir) != 0 || make_dirs(kc.dir) != 0)
        return;
    clGetPlatformInfo(rt.platform, CL_PLATFORM_NAME, sizeof platform - 1, platform, NULL);
    clGetDeviceInfo(rt.device, CL_DEVICE_VERSION, sizeof version - 1, version, NULL);
    clGetDeviceInfo(rt.device, CL_DRIVER_VERSION, sizeof driver - 1, driver, NULL);
    snprintf(kc.meta, sizeof kc.meta, "device=%s\ndevice version=%s\ndriver=%s\n"
             "platform=%s\noptions=%s\nsource:\n", rt.device_name, version, driver, platform,
             rt.build_options);
    kc.state = 1;
}

static void cache_path(const char *src, char *out, size_t cap)
{
    uint64_t h = fnv_bytes(1469598103934665603ull, (const unsigned char *)kc.meta,
                           strlen(kc.meta));
    h = fnv_bytes(h, (const unsigned char *)src, strlen(src));
    snprintf(out, cap, "%s/%016llx.clbin", kc.dir, (unsigned long long)h);
}

static int read_exact(FILE *f, void *buf, size_t n)
{
    return fread(buf, 1, n, f) == n;
}

/* The entry's binary if its key is `src` under kc.meta and it is intact (free it), else NULL
 * with *stale set when a file was there. */
static unsigned char *read_entry(const char *path, const char *src, size_t *size, int *stale)
{
    FILE *f = fopen(path, "rb");
    char magic[8];
    uint64_t keylen, binlen, hash, want = strlen(kc.meta) + strlen(src);
    unsigned char *key = NULL, *bin = NULL;
    int ok;
    if (f == NULL)
        return NULL;
    *stale = 1;
    ok = read_exact(f, magic, 8) && memcmp(magic, CACHE_MAGIC, 8) == 0
         && read_exact(f, &keylen, 8) && keylen == want
         && (key = malloc(keylen + 1)) != NULL && read_exact(f, key, keylen)
         && memcmp(key, kc.meta, strlen(kc.meta)) == 0
         && memcmp(key + strlen(kc.meta), src, strlen(src)) == 0
         && read_exact(f, &binlen, 8) && binlen > 0 && binlen < ((uint64_t)1 << 31)
         && (bin = malloc(binlen)) != NULL && read_exact(f, bin, binlen)
         && read_exact(f, &hash, 8) && hash == fnv_bytes(1469598103934665603ull, bin, binlen)
         && fgetc(f) == EOF;
    fclose(f);
    free(key);
    if (!ok) {
        free(bin);
        return NULL;
    }
    *size = (size_t)binlen;
    return bin;
}

/* The profile header's words about the cache (TRANSLATE_PROFILE). */
/* "; kernel cache DIR: ..." for the profile's header ("" when the cache is off). */
static void cache_profile_note(char *note, size_t size)
{
    note[0] = '\0';
    if (kc.state == 1)
        snprintf(note, size, "; kernel cache %s: %lu program(s) loaded, %lu built, %lu "
                 "unusable entr%s replaced", kc.dir, kc.loaded, kc.built, kc.replaced,
                 kc.replaced == 1 ? "y" : "ies");
}

static void cache_note(const char *what, const char *path)
{
    if (env_flag("TRANSLATE_VERBOSE"))
        fprintf(stderr, "translate runtime: kernel cache: %s %s\n", what, path);
}

static cl_program load_cached_program(const char *src)
{
    char path[1200];
    size_t size = 0;
    int stale = 0;
    unsigned char *bin;
    cl_int status, err;
    cl_program program;
    cache_setup();
    if (kc.state != 1)
        return NULL;
    cache_path(src, path, sizeof path);
    bin = read_entry(path, src, &size, &stale);
    if (bin == NULL) {
        kc.replaced += stale;
        cache_note(stale ? "ignoring an unusable entry" : "miss", path);
        return NULL;
    }
    program = clCreateProgramWithBinary(rt.context, 1, &rt.device, &size,
                                        (const unsigned char **)&bin, &status, &err);
    free(bin);
    if (err == CL_SUCCESS && status == CL_SUCCESS
            && clBuildProgram(program, 1, &rt.device, rt.build_options, NULL, NULL)
               == CL_SUCCESS) {
        kc.loaded++;
        cache_note("loaded", path);
        return program;
    }
    if (err == CL_SUCCESS)
        clReleaseProgram(program);
    kc.replaced++;
    cache_note("the driver refused the binary of", path);
    return NULL;
}

static int write_entry(FILE *f, const char *src, const unsigned char *bin, uint64_t binlen)
{
    uint64_t keylen = strlen(kc.meta) + strlen(src);
    uint64_t hash = fnv_bytes(1469598103934665603ull, bin, binlen);
    return fwrite(CACHE_MAGIC, 1, 8, f) == 8 && fwrite(&keylen, 8, 1, f) == 1
           && fputs(kc.meta, f) >= 0 && fputs(src, f) >= 0 && fwrite(&binlen, 8, 1, f) == 1
           && fwrite(bin, 1, binlen, f) == binlen && fwrite(&hash, 8, 1, f) == 1;
}

/* Stores the built program's binary (a failure to write only costs the next run a build). */
static void store_cached_program(cl_program program, const char *src)
{
    char path[1200], tmp[1300];
    size_t size = 0;
    unsigned char *bin;
    FILE *f;
    int ok;
    kc.built++;
    if (kc.state != 1 || clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size,
                                          NULL) != CL_SUCCESS || size == 0)
        return;
    bin = malloc(size);
    if (bin == NULL || clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL)
            != CL_SUCCESS) {
        free(bin);
        return;
    }
    cache_path(src, path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    f = fopen(tmp, "wb");
    ok = f != NULL && write_entry(f, src, bin, size);
    ok = f != NULL && fclose(f) == 0 && ok;
    free(bin);
    if (ok && rename(tmp, path) == 0) {
        cache_note("stored", path);
        return;
    }
    remove(tmp);
}

/* The built program of `source` (one of `region`'s), from the cache or newly built. */
static cl_program get_program(const tr_region *region, const char *source, int uses_fp64)
{
    uint64_t h = hash_source(source);
    struct tr_program *p;
    for (p = rt.programs; p != NULL; p = p->next)
        if (p->hash == h && strcmp(p->source, source) == 0)
            return p->program;
    if ((uses_fp64 & 1) && !rt.has_fp64)
        fail(region, "region '%s' uses double precision, which device \"%s\" does not support "
             "(cl_khr_fp64); choose another device with TRANSLATE_DEVICE", region->name,
             rt.device_name);
    if ((uses_fp64 & 2) && !rt.has_int64_atomics)
        fail(region, "region '%s' updates 64-bit data atomically (a double or 64-bit integer "
             "atomic update or reduction), which device \"%s\" does not support "
             "(cl_khr_int64_base_atomics); choose another device with TRANSLATE_DEVICE",
             region->name, rt.device_name);
    p = xcalloc(region, 1, sizeof *p);
    p->hash = h;
    p->source = source;
    p->program = build_program(region, source);
    p->next = rt.programs;
    rt.programs = p;
    return p->program;
}

static cl_kernel create_kernel(const tr_region *region, const char *name, const char *source,
                               int uses_fp64)
{
    cl_int err;
    char what[320];
    cl_kernel kernel = clCreateKernel(get_program(region, source, uses_fp64), name, &err);
    snprintf(what, sizeof what, "clCreateKernel(\"%.256s\")", name);
    check(region, err, what);
    return kernel;
}

static struct tr_region_state *region_state(tr_region *region)
{
    struct tr_region_state *s = region->state;
    cl_uint k, n = region->nkernels;
    if (s != NULL)
        return s;
    s = xcalloc(region, 1, sizeof *s);
    s->region = region;
    s->memos = xcalloc(region, n > 0 ? n : 1, sizeof *s->memos);
    if (n == 0) {
        s->kernel = create_kernel(region, region->kernel_name, region->source,
                                  region->uses_fp64);
    } else {
        s->kernels = xcalloc(region, n, sizeof *s->kernels);
        s->launches = xcalloc(region, n, sizeof *s->launches);
        s->each_ns = xcalloc(region, n, sizeof *s->each_ns);
        for (k = 0; k < n; ++k)
            s->kernels[k] = create_kernel(region, region->kernels[k].name,
                                          region->kernels[k].source,
                                          region->kernels[k].uses_fp64);
    }
    *rt.regions_tail = s;
    rt.regions_tail = &s->next;
    region->state = s;
    return s;
}

/* ------------------------------------------------------------------------------------------ */
/* Calls                                                                                       */

/* Forgets the recorded kernel argument values of `s` (they are set again at the next use). */
static void forget_args(struct tr_region_state *s)
{
    cl_uint k, i;
    for (k = 0; k < (s->region->nkernels > 0 ? s->region->nkernels : 1); ++k)
        for (i = 0; i < s->memos[k].nargs; ++i)
            s->memos[k].args[i].size = 0;
}

/* Region calls from several host threads at once (an OpenMP loop left as written that calls
 * a procedure holding a region) run one after another: the runtime's state (the context, the
 * regions' slots and kernels, the staging buffers, the present table) is one for the process.
 * Recursive: a call may begin while the same thread is inside another. */
static pthread_mutex_t call_lock;
static pthread_once_t call_lock_once = PTHREAD_ONCE_INIT;

static void call_lock_init(void)
{
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&call_lock, &attr);
    pthread_mutexattr_destroy(&attr);
}

static void lock_calls(void)
{
    pthread_once(&call_lock_once, call_lock_init);
    pthread_mutex_lock(&call_lock);
}

static void unlock_calls(void)
{
    pthread_mutex_unlock(&call_lock);
}

void tr_region_begin(tr_call *call, tr_region *region, cl_uint nargs)
{
    tr_region_begin_async(call, region, nargs, TR_SYNC);
}

void tr_region_begin_async(tr_call *call, tr_region *region, cl_uint nargs, long long queue)
{
    struct tr_region_state *s;
    lock_calls();   /* until tr_region_end */
    if (!rt.ready)
        setup(region);
    s = region_state(region);
    if (too_many_queues(queue))
        fail(region, "async(%lld): more than %d async queue ids in one run (use fewer ids)",
             queue, TR_ASYNC_QUEUES);
    check(region, use_queue(queue), queue == TR_SYNC ? "ordering the call after async work"
                                                     : "starting the call on its async queue");
    s->calls += 1;
    call->region = region;
    call->kernel = s->kernel;
    call->nargs = nargs;
    call->kernel_index = 0;
    call->kernel_nargs = 0;
    call->kernel_set = NULL;
    call->host_writes = 0;
    call->arg_names = NULL;
    /* A second call while one is in progress (recursion) gets its own slots and buffers. */
    call->private_slots = s->busy;
    if (s->busy) {
        forget_args(s);   /* this call sets the shared kernels' arguments unrecorded */
        call->slots = xcalloc(region, nargs, sizeof *call->slots);
        return;
    }
    s->busy = 1;
    if (nargs > s->slots_cap) {
        free(s->slots);
        s->slots = xcalloc(region, nargs, sizeof *s->slots);
        s->slots_cap = nargs;
    }
    if (nargs > 0)
        memset(s->slots, 0, nargs * sizeof *s->slots);
    call->slots = s->slots;
    s->small_next = s->small_lo = s->small_hi = 0;
}

static tr_slot *slot(tr_call *call, cl_uint index)
{
    if (index >= call->nargs)
        fail(call->region, "kernel argument index %u out of range (the kernel has %u)",
             (unsigned)index, (unsigned)call->nargs);
    if (call->slots[index].is_set)
        fail(call->region, "kernel argument %u set twice", (unsigned)index);
    call->slots[index].is_set = 1;
    return &call->slots[index];
}

/* `table` (`*cap` entries of `size` bytes) grown to hold entry `index`, the new entries
 * zeroed and `*cap` updated; NULL where memory runs out (`table` and `*cap` then unchanged). */
static void *grow_zeroed(void *table, cl_uint *cap, cl_uint index, size_t size)
{
    char *grown;
    if (index < *cap)
        return table;
    grown = realloc(table, ((size_t)index + 1) * size);
    if (grown == NULL)
        return NULL;
    memset(grown + (size_t)*cap * size, 0, ((size_t)index + 1 - *cap) * size);
    *cap = index + 1;
    return grown;
}

/* The argument memo of argument `index` of the call's current kernel, or NULL. */
static struct tr_arg_memo *arg_memo(tr_call *call, cl_uint index)
{
    struct tr_region_state *s = call->region->state;
    struct tr_kernel_memo *m;
    struct tr_arg_memo *grown;
    if (call->private_slots || s->memos == NULL)
        return NULL;
    m = &s->memos[call->region->nkernels > 0 ? call->kernel_index : 0];
    grown = grow_zeroed(m->args, &m->nargs, index, sizeof *m->args);
    if (grown == NULL)
        return NULL;
    m->args = grown;
    return &m->args[index];
}

/* clSetKernelArg, skipped when the argument already holds this value (a buffer only while
 * no buffer has been released since: a new buffer may reuse a released handle). */
static void set_arg(tr_call *call, cl_uint index, size_t size, const void *value, int is_mem)
{
    char what[64];
    struct tr_arg_memo *m = arg_memo(call, index);
    if (m != NULL && m->size == size && memcmp(m->value, value, size) == 0
        && (!is_mem || m->epoch == rt.mem_epoch))
        return;
    snprintf(what, sizeof what, "clSetKernelArg(%u)", (unsigned)index);
    if (m != NULL)
        m->size = 0;
    check(call->region, clSetKernelArg(call->kernel, index, size, value), what);
    if (m != NULL && size <= sizeof m->value) {
        m->size = size;
        m->epoch = rt.mem_epoch;
        memcpy(m->value, value, size);
    }
}

static void release_buffer(cl_mem buffer)
{
    rt.mem_epoch += 1;
    clReleaseMemObject(buffer);
}

/* A new buffer of `bytes` (at least one: OpenCL has no empty buffers). */
static cl_mem new_buffer(tr_call *call, cl_mem_flags mem, size_t bytes)
{
    cl_int err;
    cl_mem buffer = clCreateBuffer(rt.context, mem, bytes > 0 ? bytes : 1, NULL, &err);
    check(call->region, err, "clCreateBuffer");
    return buffer;
}

/* The device buffer of slot `index` for this call: the region's buffer from an earlier call if
 * it has the same size and access, else a new one (kept for later calls). */
static void slot_buffer(tr_call *call, cl_uint index, tr_slot *sl, cl_mem_flags mem)
{
    struct tr_region_state *s = call->region->state;
    struct tr_cached_buffer *c;
    if (call->private_slots) {
        sl->buffer = new_buffer(call, mem, sl->bytes);
        sl->owned = 1;
        return;
    }
    c = grow_zeroed(s->cache, &s->cache_cap, index, sizeof *s->cache);
    if (c == NULL)
        fail(call->region, "allocating host memory failed");
    s->cache = c;
    c = &s->cache[index];
    if (c->buffer != NULL && (c->bytes != sl->bytes || c->mem != mem)) {
        release_buffer(c->buffer);
        c->buffer = NULL;
    }
    if (c->buffer == NULL) {
        c->buffer = new_buffer(call, mem, sl->bytes);
        c->bytes = sl->bytes;
        c->mem = mem;
    }
    sl->buffer = c->buffer;
    sl->owned = 0;
}

/* Profiling: counts a whole-array copy of slot `sl` in (`out` 0) or back (1). */
static void record_copy(tr_call *call, const tr_slot *sl, int out)
{
    struct tr_region_state *s = call->region->state;
    cl_uint index = (cl_uint)(sl - call->slots), cap;
    struct tr_traffic *t;
    if (!rt.profile || call->private_slots || index >= call->nargs)
        return;
    if (index >= s->traffic_cap) {
        cap = call->nargs;
        t = xcalloc(call->region, cap, sizeof *t);
        if (s->traffic != NULL)
            memcpy(t, s->traffic, s->traffic_cap * sizeof *t);
        free(s->traffic);
        s->traffic = t;
        s->traffic_cap = cap;
    }
    t = &s->traffic[index];
    t->bytes = sl->bytes;
    if (out)
        t->outs++;
    else
        t->ins++;
}

/* ------------------------------------------------------------------------------------------ */
/* Small arrays of a call: one copy each way                                                   */

/* On NVIDIA each transfer command of a plain call costs 3-4 us of its ~20 (bench/RESULTS.md,
 * "Host cost per plain call and copy rate (h49)").  So the arrays of at most
 * TRANSLATE_SMALL_ARRAYS bytes (default 16 KiB; `off`) that a call copies are packed into one
 * pinned block of the runtime, each at the offset of its sub-buffer in one device block of the
 * region (TR_SMALL_BLOCK bytes, offsets aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN): they go to
 * the device in one write just before the call's first launch, the written ones come back in
 * one read that the call waits for once (read_back), and each is copied out.  The sub-buffers
 * stay while the offsets and sizes of the call's arrays do not change.  Not packed: present
 * data (nothing moves), async calls (they return before their copies are done), any call while
 * async work is not waited for (async_pending: its copies back may be in flight), a call inside
 * another of the same region, arrays past the block's end.  The pinned block is free when a
 * call starts: a call that packed waits for the device before it returns. */
#define TR_SMALL_ARRAY_MAX ((size_t)16 << 10)
#define TR_SMALL_BLOCK ((size_t)64 << 10)
#define TR_PACKED 0x100u   /* tr_slot.flags: the slot's data is in the region's small block */

static struct {
    size_t max_array;                /* 0: off */
    cl_mem buffer;                   /* the pinned block, mapped at `ptr` */
    char *ptr;
    struct tr_region_state *owner;   /* the call that packed into it, until it ends */
} small;

/* A pinned buffer of `bytes` (CL_MEM_ALLOC_HOST_PTR), mapped; NULL if it cannot be made. */
static char *pinned_map(size_t bytes, cl_mem *buffer)
{
    cl_int err = CL_SUCCESS;
    char *ptr = NULL;
    *buffer = clCreateBuffer(rt.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL,
                             &err);
    if (err == CL_SUCCESS)
        ptr = clEnqueueMapBuffer(rt.queue, *buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                 bytes, 0, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        if (*buffer != NULL)
            clReleaseMemObject(*buffer);
        *buffer = NULL;
        return NULL;
    }
    return ptr;
}

/* Unmaps and releases a buffer of pinned_map (at exit). */
static void pinned_release(cl_mem *buffer, char **ptr)
{
    if (*ptr != NULL) {
        clEnqueueUnmapMemObject(rt.queue, *buffer, *ptr, 0, NULL, NULL);
        clFinish(rt.queue);
    }
    if (*buffer != NULL)
        clReleaseMemObject(*buffer);
    *buffer = NULL;
    *ptr = NULL;
}

/* Packing is off by default on NVIDIA's OpenCL: its driver (580, H200) crashed in
 * clReleaseMemObject on the sub-buffers, both when a call replaced a slot's sub-buffer and, with
 * the sub-buffers kept instead, at other calls and at exit (h64, bench/RESULTS.md); unpacked,
 * the same programs ran right.  TRANSLATE_SMALL_ARRAYS set explicitly is obeyed. */
static void small_setup(void)
{
    int nvidia = contains_nocase(rt.platform_name, "NVIDIA");
    small.max_array = env_bytes("TRANSLATE_SMALL_ARRAYS", nvidia ? 0 : TR_SMALL_ARRAY_MAX);
    small.owner = NULL;
}

static void release_small(void)
{
    pinned_release(&small.buffer, &small.ptr);
    memset(&small, 0, sizeof small);
}

/* The entry of slot `index` in the region's small-array table (grown as needed). */
static struct tr_small_slot *small_entry(tr_call *call, cl_uint index)
{
    struct tr_region_state *s = call->region->state;
    struct tr_small_slot *grown = grow_zeroed(s->small, &s->small_cap, index, sizeof *s->small);
    if (grown == NULL)
        fail(call->region, "allocating host memory failed");
    s->small = grown;
    return &s->small[index];
}

/* The sub-buffer [offset, offset + bytes) of the region's device block for slot `index`: the
 * one of the last call if it is the same, else a new one; NULL if it cannot be made. */
static cl_mem small_sub(tr_call *call, cl_uint index, size_t offset, size_t bytes)
{
    struct tr_region_state *s = call->region->state;
    struct tr_small_slot *e = small_entry(call, index);
    cl_buffer_region r;
    cl_int err = CL_SUCCESS;
    if (e->sub != NULL && e->offset == offset && e->bytes == bytes)
        return e->sub;
    if (e->sub != NULL)
        release_buffer(e->sub);
    e->sub = NULL;
    if (s->small_pool == NULL)
        s->small_pool = clCreateBuffer(rt.context, CL_MEM_READ_WRITE, TR_SMALL_BLOCK, NULL, &err);
    if (err != CL_SUCCESS) {
        s->small_pool = NULL;
        return NULL;
    }
    r.origin = offset;
    r.size = bytes;
    e->sub = clCreateSubBuffer(s->small_pool, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                               &r, &err);
    if (err != CL_SUCCESS)
        e->sub = NULL;
    e->offset = offset;
    e->bytes = bytes;
    return e->sub;
}

/* Gives slot `index` its place in the small block if it can have one (see above); 1 if so.
 * The data is copied in later by copy_in, into the pinned block. */
static int small_place(tr_call *call, cl_uint index, tr_slot *sl)
{
    struct tr_region_state *s = call->region->state;
    size_t align = rt.align_bytes > 64 ? rt.align_bytes : 64, at;
    if (small.max_array == 0 || sl->bytes == 0 || sl->bytes > small.max_array
        || call->private_slots || async_active() || async_pending()
        || (small.owner != NULL && small.owner != s))
        return 0;
    at = (s->small_next + align - 1) / align * align;
    if (at + sl->bytes > TR_SMALL_BLOCK)
        return 0;
    if (small.ptr == NULL && (small.ptr = pinned_map(TR_SMALL_BLOCK, &small.buffer)) == NULL) {
        small.max_array = 0;   /* no pinned memory: every array the plain way */
        return 0;
    }
    if ((sl->buffer = small_sub(call, index, at, sl->bytes)) == NULL)
        return 0;
    small_entry(call, index)->at = at;
    s->small_next = at + sl->bytes;
    small.owner = s;
    sl->owned = 0;
    sl->flags |= TR_PACKED;
    return 1;
}

/* Copies `bytes` of `host` into the pinned block at the place of slot `sl` (or of the slot
 * whose buffer it shares, `at`), to be written by small_flush. */
static void small_put(tr_call *call, size_t at, const void *host, size_t bytes)
{
    struct tr_region_state *s = call->region->state;
    memcpy(small.ptr + at, host, bytes);
    if (s->small_hi == 0 || at < s->small_lo)
        s->small_lo = at;
    if (at + bytes > s->small_hi)
        s->small_hi = at + bytes;
}

/* Enqueues the one write of the call's packed arrays (before its first launch, or at its end
 * when it launched nothing); the call then waits before it returns (host_writes). */
static void small_flush(tr_call *call)
{
    struct tr_region_state *s = call->region->state;
    if (call->private_slots || s->small_hi == 0)
        return;
    check(call->region, clEnqueueWriteBuffer(rt.active, s->small_pool, CL_FALSE, s->small_lo,
                                             s->small_hi - s->small_lo, small.ptr + s->small_lo,
                                             0, NULL, NULL),
          "clEnqueueWriteBuffer");
    s->small_lo = s->small_hi = 0;
    call->host_writes = 1;
}

/* Enqueues the one read of the call's packed TR_OUT arrays into the pinned block (without
 * waiting); 1 if there was one. */
static int small_read(tr_call *call)
{
    struct tr_region_state *s = call->region->state;
    size_t lo = TR_SMALL_BLOCK, hi = 0;
    cl_uint i;
    for (i = 0; i < call->nargs; ++i) {
        const tr_slot *sl = &call->slots[i];
        size_t at = i < s->small_cap ? s->small[i].at : 0;
        if (!(sl->flags & TR_PACKED) || !(sl->flags & TR_OUT))
            continue;
        lo = at < lo ? at : lo;
        hi = at + sl->bytes > hi ? at + sl->bytes : hi;
    }
    if (hi == 0)
        return 0;
    check(call->region, clEnqueueReadBuffer(rt.active, s->small_pool, CL_FALSE, lo, hi - lo,
                                            small.ptr + lo, 0, NULL, NULL),
          "clEnqueueReadBuffer");
    return 1;
}

/* After the wait: copies the packed TR_OUT arrays from the pinned block to the user. */
static void small_copy_out(tr_call *call)
{
    struct tr_region_state *s = call->region->state;
    cl_uint i;
    for (i = 0; i < call->nargs; ++i) {
        tr_slot *sl = &call->slots[i];
        if ((sl->flags & TR_PACKED) && (sl->flags & TR_OUT)) {
            memcpy(sl->host, small.ptr + s->small[i].at, sl->bytes);
            s->bytes_out += sl->bytes;
            record_copy(call, sl, 1);
        }
    }
}

/* The call ends (after its wait): the pinned block is free again. */
static void small_end(tr_call *call)
{
    struct tr_region_state *s = call->region->state;
    if (call->private_slots)
        return;
    s->small_next = 0;
    if (small.owner == s)
        small.owner = NULL;
}

/* Releases the region's device block and its sub-buffers (at exit). */
static void release_small_pool(struct tr_region_state *s)
{
    cl_uint k;
    for (k = 0; k < s->small_cap; ++k)
        if (s->small[k].sub != NULL)
            clReleaseMemObject(s->small[k].sub);
    free(s->small);
    if (s->small_pool != NULL)
        clReleaseMemObject(s->small_pool);
}

/* Copies the host data of an array argument in: packed (see "Small arrays of a call"), staged
 * (done when it returns) or a non-blocking write that tr_region_end waits for. */
static void copy_in(tr_call *call, tr_slot *sl, const void *host)
{
    if (!async_active())
        check(call->region, settle_async_copies(), "waiting for async work (clFinish)");
    if (sl->flags & TR_PACKED) {
        small_put(call, call->region->state->small[sl - call->slots].at, host, sl->bytes);
    } else if (staging_wanted(sl->bytes)) {
        check(call->region, staged_copy(1, sl->buffer, 0, sl->bytes,
                                        (char *)(uintptr_t)host, NULL),
              "clEnqueueWriteBuffer");
    } else {
        check(call->region, flush_held(), "clEnqueueWriteBuffer");
        check(call->region, clEnqueueWriteBuffer(rt.active, sl->buffer, CL_FALSE, 0, sl->bytes,
                                                 host, 0, NULL, NULL),
              "clEnqueueWriteBuffer");
        call->host_writes = 1;
    }
    call->region->state->bytes_in += sl->bytes;
    record_copy(call, sl, 0);
}

void tr_region_hint(tr_call *call, const char *hint)
{
    call->region->state->hint = hint;
}

void tr_arg_names(tr_call *call, const char *names)
{
    call->arg_names = names;
    call->region->state->arg_names = names;
}

/* The name of argument `index` (tr_arg_names), or "argument N". */
static void slot_name(const tr_call *call, cl_uint index, char *buf, size_t size)
{
    const char *s = call->arg_names;
    cl_uint k;
    for (k = 0; s != NULL && *s != '\0' && k < index; ++k)
        s += strlen(s) + 1;
    if (s != NULL && *s != '\0')
        snprintf(buf, size, "'%s'", s);
    else
        snprintf(buf, size, "argument %u", (unsigned)index);
}

static int slots_overlap(const tr_slot *a, const tr_slot *b)
{
    const char *x = a->host, *y = b->host;
    return x < y + b->bytes && y < x + a->bytes;
}

static void fail_overlap(tr_call *call, cl_uint i, cl_uint j)
{
    const tr_slot *a = &call->slots[i], *b = &call->slots[j];
    char an[80], bn[80];
    int shareable = (a->access & b->access & TR_MAY_ALIAS) != 0;
    slot_name(call, i, an, sizeof an);
    slot_name(call, j, bn, sizeof bn);
    fail(call->region, "region '%s': array arguments %s (host bytes %p..+%zu) and %s (host "
         "bytes %p..+%zu) overlap in memory and the region writes %s: the device would work "
         "on two copies of that memory%s", call->region->name, an, a->host, a->bytes, bn,
         b->host, b->bytes, (b->access & TR_OUT) ? bn : an,
         shareable ? "; pass arrays that do not overlap, or make the array present in a data "
                     "region around the call (one device buffer for both)"
                   : "; the kernel was generated for arrays that do not overlap: pass arrays "
                     "that do not overlap");
}

/* Stops the program where array argument `index` overlaps another one of the call in host
 * memory and either is written: the device would get two copies of one memory (C pointers
 * may overlap; DESIGN.md "Soundness is about memory").  Ranges in one present data entry share
 * its device buffer and pass where the kernel allows for the overlap (TR_MAY_ALIAS). */
static void check_disjoint(tr_call *call, cl_uint index)
{
    const tr_slot *a = &call->slots[index];
    cl_uint i;
    for (i = 0; a->bytes > 0 && i < call->nargs; ++i) {
        const tr_slot *b = &call->slots[i];
        if (i == index || !b->is_set || b->host == NULL || b->bytes == 0
            || (b->buffer != NULL && b->buffer == a->buffer)   /* shared (share_buffer) */
            || !slots_overlap(a, b) || !((a->access | b->access) & TR_OUT)
            || ((a->access & b->access & TR_MAY_ALIAS)
                && one_present(a->host, a->bytes, b->host, b->bytes)))
            continue;
        fail_overlap(call, i, index);
    }
}

static int copies_in(unsigned flags)
{
    return (flags & TR_IN) || ((flags & TR_OUT) && !(flags & TR_OVERWRITE));
}

/* An array the kernel allows to alias others (TR_MAY_ALIAS) that starts where an earlier one
 * of the call starts and is no longer (``f(a, a)``) uses that one's device buffer: copied in
 * if it reads what the other did not copy, read back through the other.  1 if so. */
static int share_buffer(tr_call *call, cl_uint index, tr_slot *sl)
{
    cl_uint i;
    for (i = 0; i < call->nargs; ++i) {
        tr_slot *t = &call->slots[i];
        if (i == index || !t->is_set || t->host != sl->host || t->buffer == NULL
            || !(t->access & TR_MAY_ALIAS) || t->flags == 0 || sl->bytes > t->bytes)
            continue;   /* (flags 0: present or empty; the present path shares) */
        sl->buffer = t->buffer;
        sl->owned = 0;
        if (t->flags & TR_PACKED) {   /* its data goes where t's does */
            size_t at = call->region->state->small[i].at;
            small_entry(call, index)->at = at;   /* (may move the table) */
            sl->flags |= TR_PACKED;
        }
        if (copies_in(sl->access) && !copies_in(t->access))
            copy_in(call, sl, sl->host);
        t->flags |= sl->flags & TR_OUT;
        sl->flags = 0;
        if (call->region->nkernels == 0)
            set_arg(call, index, sizeof(cl_mem), &sl->buffer, 1);
        return 1;
    }
    return 0;
}

void tr_arg_array(tr_call *call, cl_uint index, const void *host, long long count,
                  size_t elem_size, unsigned flags)
{
    tr_slot *sl = slot(call, index);
    /* an array that may alias another may share its buffer with a written one */
    cl_mem_flags mem = (flags & TR_IN) && !(flags & (TR_OUT | TR_MAY_ALIAS))
                     ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE;
    size_t n = count > 0 ? (size_t)count : 0;
    int copy = copies_in(flags);
    if (n > 0 && elem_size > (size_t)-1 / n)
        fail(call->region, "array argument %u is too large (%lld elements)", (unsigned)index,
             count);
    sl->bytes = n * elem_size;
    sl->host = (void *)(uintptr_t)host;   /* written back only for TR_OUT arrays */
    sl->flags = flags;
    sl->access = flags;
    if (sl->bytes > 0 && host == NULL)
        fail(call->region, "array argument %u is a null pointer", (unsigned)index);
    if ((flags & TR_MAY_ALIAS) && sl->bytes > 0 && share_buffer(call, index, sl))
        return;
    check_disjoint(call, index);
    if (present_buffer(call, index, host, sl->bytes, &sl->buffer, &sl->owned)) {
        sl->flags = 0;   /* present (data region): nothing moves */
        if (call->region->nkernels == 0)
            set_arg(call, index, sizeof(cl_mem), &sl->buffer, 1);
        return;
    }
    if (!small_place(call, index, sl))
        slot_buffer(call, index, sl, mem);
    if (copy && sl->bytes > 0)
        copy_in(call, sl, host);
    if (call->region->nkernels == 0)
        set_arg(call, index, sizeof(cl_mem), &sl->buffer, 1);
}

void tr_arg_scratch(tr_call *call, cl_uint index, long long count, size_t elem_size)
{
    tr_slot *sl = slot(call, index);
    size_t n = count > 0 ? (size_t)count : 0;
    if (n > 0 && elem_size > (size_t)-1 / n)
        fail(call->region, "device buffer %u is too large (%lld elements)", (unsigned)index,
             count);
    sl->bytes = n * elem_size;
    sl->flags = 0;
    slot_buffer(call, index, sl, CL_MEM_READ_WRITE);
}

/* Whether slot `index` of the region's buffer cache holds a buffer of `bytes` (which a
 * scratch slot then reuses as it is). */
static int cached_scratch(const tr_call *call, cl_uint index, size_t bytes)
{
    const struct tr_region_state *s = call->region->state;
    if (call->private_slots || index >= s->cache_cap)
        return 0;
    const struct tr_cached_buffer *c = &s->cache[index];
    return c->buffer != NULL && c->bytes == bytes && c->mem == CL_MEM_READ_WRITE;
}

/* A device-only buffer of zero bytes when it is new (the per-group values and arrival counter
 * of a reduction over work groups: the last group to arrive resets the counter, so a buffer
 * reused from the previous call is zero where it matters and needs no fill); also a kernel
 * argument of a one-kernel region. */
void tr_arg_zeroed(tr_call *call, cl_uint index, long long count, size_t elem_size)
{
    const cl_uchar zero = 0;
    size_t n = count > 0 ? (size_t)count : 0;
    int reused = n > 0 && elem_size <= (size_t)-1 / n
                 && cached_scratch(call, index, n * elem_size);
    tr_arg_scratch(call, index, count, elem_size);
    tr_slot *sl = &call->slots[index];   /* checked and marked by tr_arg_scratch */
    if (sl->bytes > 0 && !reused) {
        check(call->region, flush_held(), "clEnqueueWriteBuffer");
        check(call->region, clEnqueueFillBuffer(rt.active, sl->buffer, &zero, 1, 0, sl->bytes,
                                                0, NULL, NULL),
              "clEnqueueFillBuffer");
    }
    if (call->region->nkernels == 0)
        set_arg(call, index, sizeof(cl_mem), &sl->buffer, 1);
}

void tr_kernel(tr_call *call, cl_uint k, cl_uint nargs)
{
    struct tr_region_state *s = call->region->state;
    if (k >= call->region->nkernels)
        fail(call->region, "kernel %u out of range (the region has %u)", (unsigned)k,
             (unsigned)call->region->nkernels);
    call->kernel_index = k;
    call->kernel = s->kernels[k];
    call->kernel_nargs = nargs;
    if (call->private_slots) {
        free(call->kernel_set);
        call->kernel_set = xcalloc(call->region, nargs, 1);
        return;
    }
    if (nargs > s->kernel_set_cap) {
        free(s->kernel_set);
        s->kernel_set = xcalloc(call->region, nargs, 1);
        s->kernel_set_cap = nargs;
    }
    if (s->kernel_set == NULL) {
        s->kernel_set = xcalloc(call->region, 1, 1);
        s->kernel_set_cap = 1;
    }
    memset(s->kernel_set, 0, s->kernel_set_cap);
    call->kernel_set = s->kernel_set;
}

/* Marks argument `arg` of the chosen kernel as set (exactly once per launch). */
static void kernel_arg(tr_call *call, cl_uint arg)
{
    if (call->kernel_set == NULL)
        fail(call->region, "kernel argument %u set before tr_kernel", (unsigned)arg);
    if (arg >= call->kernel_nargs)
        fail(call->region, "kernel argument index %u out of range (kernel '%s' has %u)",
             (unsigned)arg, call->region->kernels[call->kernel_index].name,
             (unsigned)call->kernel_nargs);
    if (call->kernel_set[arg])
        fail(call->region, "kernel argument %u set twice", (unsigned)arg);
    call->kernel_set[arg] = 1;
}

void tr_kernel_buffer(tr_call *call, cl_uint arg, cl_uint index)
{
    kernel_arg(call, arg);
    if (index >= call->nargs || !call->slots[index].is_set)
        fail(call->region, "buffer slot %u is not set", (unsigned)index);
    set_arg(call, arg, sizeof(cl_mem), &call->slots[index].buffer, 1);
}

void tr_kernel_value(tr_call *call, cl_uint arg, const void *value, size_t size)
{
    kernel_arg(call, arg);
    set_arg(call, arg, size, value, 0);
}

void tr_arg_image(tr_call *call, cl_uint index, const void *host, cl_uint dims,
                  long long width, long long height, long long depth, size_t elem_size,
                  cl_channel_type channel_type)
{
    static const cl_mem_object_type types[3] = {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE2D,
                                                CL_MEM_OBJECT_IMAGE3D};
    cl_int err;
    cl_image_format format;
    cl_image_desc desc;
    tr_slot *sl = slot(call, index);
    int empty = width <= 0 || height <= 0 || depth <= 0;
    if (dims < 1 || dims > 3)
        fail(call->region, "image argument %u: bad dimension %u", (unsigned)index,
             (unsigned)dims);
    if (!empty && host == NULL)
        fail(call->region, "image argument %u is a null pointer", (unsigned)index);
    format.image_channel_order = CL_R;
    format.image_channel_data_type = channel_type;
    memset(&desc, 0, sizeof desc);
    desc.image_type = types[dims - 1];
    /* OpenCL has no empty images; one pixel that the kernel never reads stands in. */
    desc.image_width = empty ? 1 : (size_t)width;
    desc.image_height = empty ? 1 : (size_t)height;
    desc.image_depth = empty ? 1 : (size_t)depth;
    sl->flags = TR_IN;
    sl->owned = 1;
    sl->bytes = empty ? 0 : desc.image_width * desc.image_height * desc.image_depth * elem_size;
    sl->buffer = clCreateImage(rt.context, CL_MEM_READ_ONLY | (empty ? 0 : CL_MEM_COPY_HOST_PTR),
                               &format, &desc, empty ? NULL : (void *)(uintptr_t)host, &err);
    check(call->region, err, "clCreateImage");
    call->region->state->bytes_in += sl->bytes;
    set_arg(call, index, sizeof(cl_mem), &sl->buffer, 1);
}

void tr_arg_value(tr_call *call, cl_uint index, const void *value, size_t size)
{
    slot(call, index);
    set_arg(call, index, size, value, 0);
}

static void check_args_set(tr_call *call)
{
    cl_uint i;
    if (call->region->nkernels > 0) {
        if (call->kernel_set == NULL)
            fail(call->region, "tr_launch without tr_kernel");
        for (i = 0; i < call->kernel_nargs; ++i)
            if (!call->kernel_set[i])
                fail(call->region, "argument %u of kernel '%s' was not set before the launch",
                     (unsigned)i, call->region->kernels[call->kernel_index].name);
        memset(call->kernel_set, 0, call->kernel_nargs);
        return;
    }
    for (i = 0; i < call->nargs; ++i)
        if (!call->slots[i].is_set)
            fail(call->region, "kernel argument %u was not set before the launch", (unsigned)i);
}

static void add_kernel_time(tr_call *call, cl_event event)
{
    cl_ulong start = 0, end = 0;
    check(call->region, clWaitForEvents(1, &event), "clWaitForEvents");
    check(call->region, clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start,
                                                &start, NULL), "clGetEventProfilingInfo");
    check(call->region, clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end,
                                                &end, NULL), "clGetEventProfilingInfo");
    if (end > start) {
        rt.kernel_ns_all += (unsigned long long)(end - start);
        call->region->state->kernel_ns += (unsigned long long)(end - start);
        if (call->region->nkernels > 0)
            call->region->state->each_ns[call->kernel_index] += (unsigned long long)(end - start);
    }
}

static const char *launch_name(const tr_call *call)
{
    return call->region->nkernels > 0 ? call->region->kernels[call->kernel_index].name
                                      : call->region->kernel_name;
}

/* "launching kernel 'k' (global 64 x 1 x 1, local 16 x 1 x 1)", for error messages. */
static void describe_launch(const tr_call *call, cl_uint work_dim, const size_t *gsize,
                            const size_t *lsize, char *buf, size_t size)
{
    char local[80] = "chosen by OpenCL";
    if (lsize != NULL)
        snprintf(local, sizeof local, "%zu x %zu x %zu", lsize[0], work_dim > 1 ? lsize[1] : 1,
                 work_dim > 2 ? lsize[2] : 1);
    snprintf(buf, size, "launching kernel '%.64s' (global %zu x %zu x %zu, local %s)",
             launch_name(call), gsize[0], work_dim > 1 ? gsize[1] : 1,
             work_dim > 2 ? gsize[2] : 1, local);
}

/* Counts the launch; 1 if it is the first of its kernel in this process. */
static int is_first_launch(tr_call *call)
{
    struct tr_region_state *s = call->region->state;
    int first;
    if (call->region->nkernels == 0) {
        first = !s->launched;
        s->launched = 1;
        return first;
    }
    s->launches[call->kernel_index] += 1;
    return s->launches[call->kernel_index] == 1;
}

void tr_launch(tr_call *call, cl_uint work_dim, const long long *global, const long long *local)
{
    size_t gsize[3], lsize[3];
    cl_uint i;
    int first;
    cl_event event = NULL;
    cl_int err;
    char what[256];
    if (work_dim < 1 || work_dim > 3)
        fail(call->region, "bad NDRange dimension %u", (unsigned)work_dim);
    check_args_set(call);
    for (i = 0; i < work_dim; ++i) {
        long long l = local != NULL && local[i] > 0 ? local[i] : 1;
        if (global[i] <= 0)
            return;   /* an empty grid: nothing to run */
        lsize[i] = (size_t)l;
        gsize[i] = (size_t)((global[i] + l - 1) / l * l);
    }
    first = is_first_launch(call);
    small_flush(call);
    check(call->region, flush_held(), "clEnqueueWriteBuffer");   /* the kernel right after */
    err = clEnqueueNDRangeKernel(rt.active, call->kernel, work_dim, NULL, gsize,
                                 local != NULL ? lsize : NULL, 0, NULL,
                                 rt.timing ? &event : NULL);
    if (err != CL_SUCCESS) {
        describe_launch(call, work_dim, gsize, local != NULL ? lsize : NULL, what, sizeof what);
        check(call->region, err, what);
    }
    if (event != NULL) {
        add_kernel_time(call, event);
        clReleaseEvent(event);
    }
    if (first)
        first_launch_done(call->region);
}

/* Small results (scalars, sums, short arrays) of a call are read without waiting into one
 * pinned buffer (CL_MEM_ALLOC_HOST_PTR, mapped once, made at the first use), the call waits
 * once for all of them, and they are copied to the user's memory: a region that returns five
 * sums waits once instead of five times, and on NVIDIA a read into pinned memory costs less
 * than a blocking read into pageable memory (bench/RESULTS.md, "Runtime start-up and per-step
 * cost").  Larger results, and every result if the buffer cannot be made, are read as before. */
#define TR_RESULT_MAX ((size_t)4096)          /* a result of at most this many bytes ... */
#define TR_RESULTS_BYTES ((size_t)64 << 10)   /* ... while this many bytes are free */

static struct {
    cl_mem buffer;
    char *ptr;
    int failed;
} results;

/* The pinned results buffer, or NULL. */
static char *results_memory(void)
{
    if (results.ptr == NULL && !results.failed)
        results.failed = (results.ptr = pinned_map(TR_RESULTS_BYTES, &results.buffer)) == NULL;
    return results.ptr;
}

static void release_results(void)
{
    pinned_release(&results.buffer, &results.ptr);
    memset(&results, 0, sizeof results);
}

/* The offset in the results buffer of a result of `bytes` when `*used` bytes are taken (and
 * takes them), or -1 if it is read the plain way. */
static long result_slot(size_t bytes, size_t *used)
{
    size_t at = *used;
    if (bytes > TR_RESULT_MAX || at + bytes > TR_RESULTS_BYTES)
        return -1;
    *used = at + (bytes + 63) / 64 * 64;
    return (long)at;
}

/* Copies the TR_OUT arrays back; 1 if any was (the queue is in order: the wait for a read
 * waits for every command before it). */
static int read_back(tr_call *call)
{
    cl_uint i;
    int packed = small_read(call), synced = packed;
    char *pin = NULL;   /* the results buffer, once a result fits it */
    size_t used = 0;
    long at;
    for (i = 0; i < call->nargs; ++i) {
        tr_slot *sl = &call->slots[i];
        if (sl->buffer == NULL || !(sl->flags & TR_OUT) || sl->bytes == 0
            || (sl->flags & TR_PACKED))
            continue;
        if (async_active())   /* the host sees it after `wait` */
            check(call->region, clEnqueueReadBuffer(rt.active, sl->buffer, CL_FALSE, 0,
                                                    sl->bytes, sl->host, 0, NULL, NULL),
                  "clEnqueueReadBuffer");
        else if (sl->bytes <= TR_RESULT_MAX && (pin != NULL || (pin = results_memory()) != NULL)
                 && (at = result_slot(sl->bytes, &used)) >= 0)
            check(call->region, clEnqueueReadBuffer(rt.active, sl->buffer, CL_FALSE, 0,
                                                    sl->bytes, pin + at, 0, NULL, NULL),
                  "clEnqueueReadBuffer");
        else
            check(call->region, copy_blocking(0, sl->buffer, 0, sl->bytes, sl->host, NULL),
                  "running the kernel and reading its results (clEnqueueReadBuffer)");
        call->region->state->bytes_out += sl->bytes;
        record_copy(call, sl, 1);
        synced = 1;
    }
    if (used == 0 && !packed)
        return synced;
    check(call->region, clFinish(rt.active),
          "running the kernel and reading its results (clFinish)");
    if (packed)
        small_copy_out(call);
    for (i = 0, used = 0; i < call->nargs; ++i) {   /* the same slots in the same order */
        tr_slot *sl = &call->slots[i];
        if (sl->buffer != NULL && (sl->flags & TR_OUT) && sl->bytes > 0
            && !(sl->flags & TR_PACKED) && (at = result_slot(sl->bytes, &used)) >= 0)
            memcpy(sl->host, pin + at, sl->bytes);
    }
    return synced;
}

void tr_region_end(tr_call *call)
{
    cl_uint i;
    struct tr_region_state *s = call->region->state;
    small_flush(call);   /* a region without launch */
    check(call->region, flush_held(), "clEnqueueWriteBuffer");
    if (rt.sync)
        check(call->region, clFinish(rt.active), "running the kernel (clFinish)");
    if (async_active()) {
        /* async(n): copies in and back and the launches run on; `wait` waits for them */
        read_back(call);
        check(call->region, clFlush(rt.active), "clFlush");
    } else if (!read_back(call)) {
        /* Nothing read back: wait while a copy-in may still read host memory, and outside
         * data regions (nothing later would wait: see at_exit); launches on present data run
         * on (later transfers, the end of the data region and TRANSLATE_SYNC=1 wait). */
        if (call->host_writes || !data_present()) {
            check(call->region, clFinish(rt.active), "running the kernel (clFinish)");
            async_settled();
        } else {
            check(call->region, clFlush(rt.active), "clFlush");
        }
    } else {
        async_settled();   /* read_back waited for the queue */
    }
    small_end(call);
    for (i = 0; i < call->nargs; ++i)
        if (call->slots[i].buffer != NULL && call->slots[i].owned)
            release_buffer(call->slots[i].buffer);
    if (call->private_slots) {
        free(call->slots);
        free(call->kernel_set);
    } else {
        s->busy = 0;
    }
    call->slots = NULL;
    call->kernel_set = NULL;
    unlock_calls();   /* taken by tr_region_begin_async */
}

/* ------------------------------------------------------------------------------------------ */
/* Data regions: the present table (see "Data regions" in translate_rt.h)                      */

/* Profile counters of one data directive. */
struct tr_data_site_state {
    tr_data_site *site;
    unsigned long long calls;
    unsigned long long ns;
    unsigned long long bytes_in;
    unsigned long long bytes_out;
    struct tr_data_site_state *next;
};

/* A section of an array that is not contiguous: `dims` nested runs, the innermost
 * contiguous; run d has count[d] steps of stride[d] bytes (stride[0] is the element size).
 * Dimensions whose section spans the whole extent are merged into the next one. */
#define TR_BOX_MAX 16
struct tr_box {
    int dims;
    size_t count[TR_BOX_MAX];
    size_t stride[TR_BOX_MAX];
};

/* One present host range and its device buffer. */
struct tr_present {
    const char *name;          /* the source name it was entered with */
    const char *where;         /* the directive that made it present */
    char *lo;                  /* host range [lo, lo + bytes) */
    size_t bytes;
    cl_mem buffer;
    long refs;
    const struct tr_box *box;  /* the section it was entered with, if not contiguous */
    struct tr_present *next;
};

/* An entry of the structured-region stack: a region's opening (entry == NULL) or what it
 * entered, with the action to apply at its end. */
struct tr_data_frame {
    struct tr_present *entry;
    tr_data_site *site;
    unsigned action;
};

static struct {
    struct tr_present *present;
    struct tr_data_site_state *sites;   /* in order of first use */
    struct tr_data_site_state **sites_tail;
} dt;

/* The structured data regions a host thread has open (each thread's `data` ... `end data`
 * nest is its own; the present table above is the process's, reference counted).  Data
 * directives, as region calls, hold call_lock while they run (h70: from several threads at
 * once they corrupted the table and the update batch). */
static __thread struct {
    struct tr_data_frame *stack;
    size_t depth, capacity;
} ds;

/* Prints `where: error: translate runtime: ...` for a data directive and exits with 1. */
static void data_fail(const tr_data_site *site, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "%s: error: translate runtime: ", site->where);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static struct tr_data_site_state *data_site(tr_data_site *site)
{
    tr_region where = TR_REGION("data", NULL, "", "", 0);
    where.where = site->where;
    if (!rt.ready)
        setup(&where);
    if (site->state == NULL) {
        site->state = xcalloc(&where, 1, sizeof *site->state);
        site->state->site = site;
        if (dt.sites_tail == NULL)
            dt.sites_tail = &dt.sites;
        *dt.sites_tail = site->state;
        dt.sites_tail = &site->state->next;
    }
    return site->state;
}

/* The byte range of a data clause item; `bytes` is 0 for an empty section. */
static char *data_range(const tr_data_site *site, const char *name, const void *host,
                        long long first, long long count, size_t elem_size, size_t *bytes)
{
    *bytes = 0;
    if (count <= 0)
        return (char *)(uintptr_t)host;
    if (host == NULL)
        data_fail(site, "%s: array '%s' is a null pointer", site->kind, name);
    if (first < 0 || elem_size == 0 || (size_t)count > ((size_t)-1 / 2) / elem_size)
        data_fail(site, "%s: bad section of array '%s' (first element %lld, %lld elements)",
                  site->kind, name, first, count);
    *bytes = (size_t)count * elem_size;
    return (char *)(uintptr_t)host + (size_t)first * elem_size;
}

/* The present entry overlapping [lo, lo+bytes), or NULL. */
static struct tr_present *present_overlap(const char *lo, size_t bytes)
{
    struct tr_present *e;
    for (e = dt.present; e != NULL; e = e->next)
        if (lo < e->lo + e->bytes && e->lo < lo + bytes)
            return e;
    return NULL;
}

static int present_contains(const struct tr_present *e, const char *lo, size_t bytes)
{
    return e->lo <= lo && lo + bytes <= e->lo + e->bytes;
}

/* "host bytes 0x7f..+8000", for messages. */
static void describe_range(const char *lo, size_t bytes, char *buf, size_t size)
{
    snprintf(buf, size, "host bytes %p..+%zu", (const void *)lo, bytes);
}

/* The message for a range that only overlaps present data; `what` names the user. */
static void fail_partly(const char *where, const char *what, const char *name,
                        const char *lo, size_t bytes, const struct tr_present *e)
{
    char mine[96], theirs[96];
    describe_range(lo, bytes, mine, sizeof mine);
    describe_range(e->lo, e->bytes, theirs, sizeof theirs);
    fflush(stdout);
    fprintf(stderr, "%s: error: translate runtime: %s: array '%s' (%s) is only partly present "
            "on the device: '%s' entered at %s holds %s\n", where, what, name, mine, e->name,
            e->where, theirs);
    exit(1);
}

/* The copies of one `update` directive (tr_data_begin ... tr_update_end) are enqueued without
 * waiting; tr_update_end waits once, where it must (see "Update batches" in translate_rt.h). */
static struct {
    tr_data_site *site;        /* the update whose copies are being enqueued; NULL: none */
    int must_wait;             /* a read, or a write from the user's memory, is in flight */
    cl_event *events;          /* profiling: the copies' events */
    size_t nevents, cap;
} ub;

/* A rectangular copy: the byte region and its origin in the buffer, the buffer's (and the
 * host's) row and slice pitches; row 0: a plain copy of region[0] bytes at origin[0]. */
struct tr_rect {
    size_t origin[3], region[3], row, slice;
};

static cl_int enqueue_rect(int to_device, cl_mem buffer, const struct tr_rect *r, char *host,
                           size_t host_row, size_t host_slice, cl_bool blocking, cl_event *ev)
{
    const size_t host_origin[3] = {0, 0, 0};
    if (r->row == 0)
        return to_device
            ? clEnqueueWriteBuffer(rt.active, buffer, blocking, r->origin[0], r->region[0], host,
                                   0, NULL, ev)
            : clEnqueueReadBuffer(rt.active, buffer, blocking, r->origin[0], r->region[0], host,
                                  0, NULL, ev);
    return to_device
        ? clEnqueueWriteBufferRect(rt.active, buffer, blocking, r->origin, host_origin,
                                   r->region, r->row, r->slice, host_row, host_slice, host, 0,
                                   NULL, ev)
        : clEnqueueReadBufferRect(rt.active, buffer, blocking, r->origin, host_origin,
                                  r->region, r->row, r->slice, host_row, host_slice, host, 0,
                                  NULL, ev);
}

/* A malloc'd packed copy of the host side of `r` (rows of region[0] bytes), or NULL. */
static char *bounce_copy(const struct tr_rect *r, const char *host, size_t bytes)
{
    char *b = malloc(bytes);
    size_t y, z;
    if (b == NULL)
        return NULL;
    for (z = 0; z < r->region[2]; ++z)
        for (y = 0; y < r->region[1]; ++y)
            memcpy(b + (z * r->region[1] + y) * r->region[0],
                   host + z * r->slice + y * r->row, r->region[0]);
    return b;
}

static void batch_event(cl_event event)
{
    if (ub.nevents == ub.cap) {
        size_t cap = ub.cap ? 2 * ub.cap : 16;
        cl_event *grown = realloc(ub.events, cap * sizeof *grown);
        if (grown == NULL) {   /* profiling loses this copy's time, nothing else */
            clReleaseEvent(event);
            return;
        }
        ub.events = grown;
        ub.cap = cap;
    }
    ub.events[ub.nevents++] = event;
}

/* A copy of the open update batch, enqueued without waiting.  A write of a directive without
 * async goes from a packed copy of the host data (the host may change its memory as soon as
 * the directive returns) unless it is large; async copies use the host memory itself (the
 * program leaves it alone until `wait`). */
static cl_int batch_copy(int to_device, cl_mem buffer, const struct tr_rect *r, char *host)
{
    size_t bytes = r->region[0] * r->region[1] * r->region[2];
    cl_event event = NULL;
    char *bounce = NULL;
    cl_int err;
    if (to_device && !async_active() && bytes <= TR_BOUNCE_MAX)
        bounce = bounce_copy(r, host, bytes);
    if (bounce != NULL)
        err = enqueue_rect(1, buffer, r, bounce, r->region[0], r->region[0] * r->region[1],
                           CL_FALSE, &event);
    else
        err = enqueue_rect(to_device, buffer, r, host, r->row, r->slice, CL_FALSE,
                           rt.profile ? &event : NULL);
    ub.must_wait |= bounce == NULL && !async_active();
    if (err != CL_SUCCESS) {
        free(bounce);
        return err;
    }
    if (bounce != NULL && rt.profile)
        clRetainEvent(event);   /* one reference for the profile, one for the bounce */
    if (rt.profile && event != NULL)
        batch_event(event);
    if (bounce != NULL)
        keep_bounce(bounce, bytes, event);
    return CL_SUCCESS;
}

/* ------------------------------------------------------------------------------------------ */
/* Sections of many narrow rows, packed on the device                                          */

/* A rectangular copy of many narrow rows (a column of a C array, a Fortran array's halo rows)
 * costs far more than its bytes on some implementations (NVIDIA: 2 columns of 8192 rows of 8
 * bytes, both ways, ~0.6 ms per step of bench/gpu/mpi_weak.sh).  Such a section is packed on
 * the device instead.  A read: a gather kernel copies the section into a contiguous scratch
 * buffer (one per queue and size, kept), one plain read copies that into a host buffer, and the
 * host scatters it into the user's rows where the host would see the data (at once for a
 * blocking copy, at the end of the update's batch, at `wait` for async queues).  A write: the
 * rows packed on the host (a bounce buffer), one plain write into the scratch buffer, a scatter
 * kernel.  TRANSLATE_PACK_ROWS sets which sections (docs/environment.md). */
#define TR_PACK_ROWS_DEFAULT 64     /* at least this many rows ... */
#define TR_PACK_WIDTH_DEFAULT 64    /* ... each of fewer bytes */

/* Gather and scatter kernels per element type (index k: elements of 1 << k bytes); sizes in
 * elements: the section starts at element `base` of `buf`, has rows of `w` elements, `h` rows
 * per slice `row` elements apart, slices `slice` elements apart, `n` elements in all. */
static const char PACK_SOURCE[] =
    "#define TR_PACK(T, K) \\\n"
    "__kernel void tr_gather_##K(__global T *packed, __global const T *buf, ulong base, \\\n"
    "                            ulong w, ulong h, ulong row, ulong slice, ulong n) \\\n"
    "{ \\\n"
    "    ulong i = get_global_id(0), y = i / w; \\\n"
    "    if (i < n) \\\n"
    "        packed[i] = buf[base + i % w + (y % h) * row + (y / h) * slice]; \\\n"
    "} \\\n"
    "__kernel void tr_scatter_##K(__global const T *packed, __global T *buf, ulong base, \\\n"
    "                             ulong w, ulong h, ulong row, ulong slice, ulong n) \\\n"
    "{ \\\n"
    "    ulong i = get_global_id(0), y = i / w; \\\n"
    "    if (i < n) \\\n"
    "        buf[base + i % w + (y % h) * row + (y / h) * slice] = packed[i]; \\\n"
    "}\n"
    "TR_PACK(uchar, 0)\nTR_PACK(ushort, 1)\nTR_PACK(uint, 2)\nTR_PACK(ulong, 3)\n";

/* A contiguous device buffer for packed sections of `bytes` bytes on `queue` (an in-order
 * queue: its copies use it one after the other). */
struct tr_scratch {
    cl_command_queue queue;
    size_t bytes;
    cl_mem mem;
    struct tr_scratch *next;
};

/* A packed read whose host buffer `packed` is scattered into the rows of `r` at `host` once
 * `queue` has finished. */
struct tr_unpack {
    cl_command_queue queue;
    char *host, *packed;
    struct tr_rect r;
    struct tr_unpack *next;
};

static struct {
    int ready;
    size_t min_rows;       /* 0: never pack */
    size_t max_width;      /* rows of fewer bytes are narrow */
    cl_kernel kernels[2][4];   /* [scatter, gather][element kind] */
    struct tr_scratch *scratch;
    struct tr_unpack *unpacks, **unpacks_tail;
} pk;

/* For the profile: packed copies and their bytes (kept after release_packing). */
static struct {
    unsigned long long copies, bytes;
} pk_count;

static tr_region pack_region = TR_REGION("translate runtime: section packing",
                                         "translate runtime", "", PACK_SOURCE, 0);

/* Reads TRANSLATE_PACK_ROWS: unset, the defaults; `off`; `all` (every strided section);
 * ROWS or ROWS:BYTES (at least ROWS rows of fewer than BYTES bytes). */
static void pack_settings(void)
{
    const char *v = getenv("TRANSLATE_PACK_ROWS");
    char *end;
    unsigned long long rows, width = TR_PACK_WIDTH_DEFAULT;
    pk.ready = 1;
    pk.min_rows = TR_PACK_ROWS_DEFAULT;
    pk.max_width = TR_PACK_WIDTH_DEFAULT;
    if (v == NULL || v[0] == '\0')
        return;
    if (equals_nocase(v, "off")) {
        pk.min_rows = 0;
        return;
    }
    if (equals_nocase(v, "all")) {
        pk.min_rows = 1;
        pk.max_width = (size_t)-1;
        return;
    }
    rows = strtoull(v, &end, 10);
    if (*end == ':')
        width = strtoull(end + 1, &end, 10);
    if (*end == '\0' && end != v) {
        pk.min_rows = (size_t)rows;
        pk.max_width = (size_t)width;
    }
}

/* 1 if the rectangular copy `r` is better packed on the device. */
static int pack_wanted(const struct tr_rect *r)
{
    if (!pk.ready)
        pack_settings();
    return r->row != 0 && pk.min_rows != 0 && r->region[0] < pk.max_width
        && r->region[1] * r->region[2] >= pk.min_rows;
}

/* The byte offset of the first element of `r` in its buffer. */
static size_t rect_offset(const struct tr_rect *r)
{
    return r->origin[0] + r->origin[1] * r->row + r->origin[2] * r->slice;
}

/* The element kind of `r`'s kernels: the widest of 8, 4, 2, 1 bytes dividing its offset,
 * row width and pitches. */
static int pack_kind(const struct tr_rect *r)
{
    size_t all = rect_offset(r) | r->region[0] | r->row | r->slice;
    int k = 3;
    while (k > 0 && all % ((size_t)1 << k) != 0)
        k -= 1;
    return k;
}

static cl_int pack_kernel(int gather, int k, cl_kernel *out)
{
    cl_int err = CL_SUCCESS;
    char name[32];
    if (pk.kernels[gather][k] == NULL) {
        snprintf(name, sizeof name, "tr_%s_%d", gather ? "gather" : "scatter", k);
        pk.kernels[gather][k] = clCreateKernel(get_program(&pack_region, PACK_SOURCE, 0), name,
                                               &err);
    }
    *out = pk.kernels[gather][k];
    return err;
}

/* The scratch buffer of `bytes` bytes of the active queue. */
static cl_mem pack_scratch(size_t bytes, cl_int *err)
{
    struct tr_scratch *s;
    *err = CL_SUCCESS;
    for (s = pk.scratch; s != NULL; s = s->next)
        if (s->queue == rt.active && s->bytes == bytes)
            return s->mem;
    s = malloc(sizeof *s);
    if (s == NULL) {
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    s->mem = clCreateBuffer(rt.context, CL_MEM_READ_WRITE, bytes, NULL, err);
    if (*err != CL_SUCCESS) {
        free(s);
        return NULL;
    }
    s->queue = rt.active;
    s->bytes = bytes;
    s->next = pk.scratch;
    pk.scratch = s;
    return s->mem;
}

/* Enqueues the gather (scratch <- section `r` of `buffer`) or scatter kernel. */
static cl_int pack_launch(int gather, cl_mem scratch, cl_mem buffer, const struct tr_rect *r,
                          cl_event *ev)
{
    int k = pack_kind(r), i;
    size_t e = (size_t)1 << k, global;
    cl_ulong a[6];
    cl_kernel kernel;
    cl_int err = pack_kernel(gather, k, &kernel);
    a[0] = rect_offset(r) / e;
    a[1] = r->region[0] / e;
    a[2] = r->region[1];
    a[3] = r->row / e;
    a[4] = r->slice / e;
    a[5] = a[1] * r->region[1] * r->region[2];
    global = (a[5] + 63) / 64 * 64;   /* lets the implementation pick groups of 64 */
    if (err == CL_SUCCESS)
        err = clSetKernelArg(kernel, 0, sizeof scratch, &scratch);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(kernel, 1, sizeof buffer, &buffer);
    for (i = 0; i < 6 && err == CL_SUCCESS; ++i)
        err = clSetKernelArg(kernel, (cl_uint)(2 + i), sizeof a[i], &a[i]);
    if (err != CL_SUCCESS)
        return err;
    return clEnqueueNDRangeKernel(rt.active, kernel, 1, NULL, &global, NULL, 0, NULL, ev);
}

/* Copies the packed rows of `r` from `packed` into the host rows at `host`. */
static void unpack_rows(const struct tr_rect *r, char *host, const char *packed)
{
    size_t y, z;
    for (z = 0; z < r->region[2]; ++z)
        for (y = 0; y < r->region[1]; ++y)
            memcpy(host + z * r->slice + y * r->row,
                   packed + (z * r->region[1] + y) * r->region[0], r->region[0]);
}

/* Scatters the packed reads of `queue` (all queues' with NULL) after it finished; `drop`:
 * frees them without scattering. */
static void unpack_pending(cl_command_queue queue, int drop)
{
    struct tr_unpack **p = &pk.unpacks, *u;
    while ((u = *p) != NULL) {
        if (queue != NULL && u->queue != queue) {
            p = &u->next;
            continue;
        }
        if (!drop)
            unpack_rows(&u->r, u->host, u->packed);
        *p = u->next;
        free(u->packed);
        free(u);
    }
    pk.unpacks_tail = p;
    while (*pk.unpacks_tail != NULL)
        pk.unpacks_tail = &(*pk.unpacks_tail)->next;
}

/* Keeps the packed read `packed` for unpack_pending; CL_OUT_OF_HOST_MEMORY if it cannot. */
static cl_int unpack_later(const struct tr_rect *r, char *host, char *packed)
{
    struct tr_unpack *u = malloc(sizeof *u);
    if (u == NULL)
        return CL_OUT_OF_HOST_MEMORY;
    u->queue = rt.active;
    u->host = host;
    u->packed = packed;
    u->r = *r;
    u->next = NULL;
    if (pk.unpacks_tail == NULL)
        pk.unpacks_tail = &pk.unpacks;
    *pk.unpacks_tail = u;
    pk.unpacks_tail = &u->next;
    return CL_SUCCESS;
}

/* The profile's time of a packed copy's commands: kept for the batch's wait, else waited for
 * and added to *ns. */
static void pack_events(cl_event *ev, int n, unsigned long long *ns)
{
    int i;
    for (i = 0; i < n; ++i) {
        if (ev[i] == NULL)
            continue;
        if (ub.site != NULL) {
            batch_event(ev[i]);
            continue;
        }
        clWaitForEvents(1, &ev[i]);
        *ns += event_ns(ev[i]);
        clReleaseEvent(ev[i]);
    }
}

/* A packed write of section `r` from the host rows at `host`. */
static cl_int pack_write(cl_mem buffer, cl_mem scratch, const struct tr_rect *r, char *host,
                         size_t bytes, unsigned long long *ns)
{
    cl_event ev[2] = {NULL, NULL};
    char *packed = bounce_copy(r, host, bytes);
    cl_int err;
    if (packed == NULL)
        return CL_OUT_OF_HOST_MEMORY;
    err = clEnqueueWriteBuffer(rt.active, scratch, CL_FALSE, 0, bytes, packed, 0, NULL, &ev[0]);
    if (err != CL_SUCCESS) {
        free(packed);
        return err;
    }
    if (rt.profile)
        clRetainEvent(ev[0]);   /* one reference for the profile, one for the bounce */
    keep_bounce(packed, bytes, ev[0]);
    err = pack_launch(0, scratch, buffer, r, rt.profile ? &ev[1] : NULL);
    if (!rt.profile)
        ev[0] = NULL;
    pack_events(ev, 2, ns);
    return err;
}

/* A packed read of section `r` into the host rows at `host`: scattered now outside an update
 * batch, else where the host waits for the batch's queue. */
static cl_int pack_read(cl_mem buffer, cl_mem scratch, const struct tr_rect *r, char *host,
                        size_t bytes, unsigned long long *ns)
{
    cl_event ev[2] = {NULL, NULL};
    cl_event *want = rt.profile ? ev : NULL;
    int batch = ub.site != NULL;
    char *packed = malloc(bytes);
    cl_int err;
    if (packed == NULL)
        return CL_OUT_OF_HOST_MEMORY;
    err = pack_launch(1, scratch, buffer, r, want);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(rt.active, scratch, batch ? CL_FALSE : CL_TRUE, 0, bytes,
                                  packed, 0, NULL, want != NULL ? &ev[1] : NULL);
    if (err == CL_SUCCESS && batch)
        err = unpack_later(r, host, packed);
    else if (err == CL_SUCCESS)
        unpack_rows(r, host, packed);
    if (err != CL_SUCCESS || !batch)
        free(packed);
    ub.must_wait |= batch && !async_active();
    pack_events(ev, 2, ns);
    return err;
}

/* The copy of section `r` between `buffer` and the host rows at `host`, packed on the device;
 * only the section's bytes count in the profile (the caller's). */
static cl_int pack_copy(int to_device, cl_mem buffer, const struct tr_rect *r, char *host,
                        unsigned long long *ns)
{
    size_t bytes = r->region[0] * r->region[1] * r->region[2];
    cl_int err;
    cl_mem scratch = pack_scratch(bytes, &err);
    if (scratch == NULL)
        return err;
    pk_count.copies += 1;
    pk_count.bytes += bytes;
    return to_device ? pack_write(buffer, scratch, r, host, bytes, ns)
                     : pack_read(buffer, scratch, r, host, bytes, ns);
}

/* The profile's line on packed sections, if there were any. */
static void print_pack_note(void)
{
    if (pk_count.copies > 0)
        fprintf(stderr, "note: %llu copies of sections of narrow rows (%llu bytes) were packed "
                "on the device (TRANSLATE_PACK_ROWS)\n", pk_count.copies, pk_count.bytes);
}

/* At exit: frees what packing kept (after the queues finished). */
static void release_packing(void)
{
    struct tr_scratch *s, *next;
    int g, k;
    unpack_pending(NULL, 1);
    for (s = pk.scratch; s != NULL; s = next) {
        next = s->next;
        clReleaseMemObject(s->mem);
        free(s);
    }
    for (g = 0; g < 2; ++g)
        for (k = 0; k < 4; ++k)
            if (pk.kernels[g][k] != NULL)
                clReleaseKernel(pk.kernels[g][k]);
    memset(&pk, 0, sizeof pk);
}

/* Ends the batch: waits where the host must see the data (or may change it) now. */
static cl_int batch_end(unsigned long long *ns)
{
    size_t k;
    cl_int err = CL_SUCCESS;
    if (ub.must_wait || (rt.profile && ub.nevents > 0)) {
        err = clFinish(rt.active);
        if (err == CL_SUCCESS)
            unpack_pending(rt.active, 0);
    } else {
        err = clFlush(rt.active);
    }
    for (k = 0; k < ub.nevents; ++k) {
        *ns += event_ns(ub.events[k]);
        clReleaseEvent(ub.events[k]);
    }
    ub.nevents = 0;
    ub.must_wait = 0;
    ub.site = NULL;
    return err;
}

/* A blocking copy between `host` and bytes [offset, offset+bytes) of `buffer`. */
static void data_copy(tr_data_site *site, int to_device, cl_mem buffer, size_t offset,
                      size_t bytes, char *host)
{
    struct tr_data_site_state *st = data_site(site);
    cl_int err;
    if (bytes == 0)
        return;
    if (ub.site != NULL && (async_active() || !staging_wanted(bytes))) {
        struct tr_rect r = {{offset, 0, 0}, {bytes, 1, 1}, 0, 0};
        err = batch_copy(to_device, buffer, &r, host);
    } else {
        err = copy_blocking(to_device, buffer, offset, bytes, host, &st->ns);
    }
    if (err != CL_SUCCESS)
        data_fail(site, "%s: %s failed: %s (%d)", site->kind,
                  to_device ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer",
                  tr_error_name(err), (int)err);
    if (to_device)
        st->bytes_in += bytes;
    else
        st->bytes_out += bytes;
}

static void push_frame(tr_data_site *site, struct tr_present *entry, unsigned action)
{
    if (ds.depth == ds.capacity) {
        size_t cap = ds.capacity ? 2 * ds.capacity : 16;
        struct tr_data_frame *grown = realloc(ds.stack, cap * sizeof *grown);
        if (grown == NULL)
            data_fail(site, "allocating host memory failed");
        ds.stack = grown;
        ds.capacity = cap;
    }
    ds.stack[ds.depth].entry = entry;
    ds.stack[ds.depth].site = site;
    ds.stack[ds.depth].action = action;
    ds.depth += 1;
}

static int is_structured(const tr_data_site *site)
{
    return strcmp(site->kind, "data") == 0;
}

/* An `update` directive (kind "update", or "update if_present"). */
static int is_update(const tr_data_site *site)
{
    return strncmp(site->kind, "update", 6) == 0;
}

/* `update ... if_present` of a range no present entry overlaps: nothing to do (h70; OpenMP's
 * `target update` of data not mapped, OpenACC's `declare`d data, which regions move
 * themselves). */
static int absent_if_present(const tr_data_site *site, const char *lo, size_t bytes)
{
    return strstr(site->kind, "if_present") != NULL && present_overlap(lo, bytes) == NULL;
}

void tr_data_begin(tr_data_site *site)
{
    tr_data_begin_async(site, TR_SYNC);
}

void tr_data_begin_async(tr_data_site *site, long long queue)
{
    cl_int err;
    lock_calls();   /* an update's items and its tr_update_end: until tr_update_end */
    data_site(site)->calls += 1;
    if (too_many_queues(queue))
        data_fail(site, "%s: async(%lld): more than %d async queue ids in one run (use fewer "
                  "ids)", site->kind, queue, TR_ASYNC_QUEUES);
    err = use_queue(queue);
    if (err == CL_SUCCESS && queue == TR_SYNC)
        err = settle_async_copies();   /* its copies in read host memory at once */
    if (err != CL_SUCCESS)
        data_fail(site, "%s: %s failed: %s (%d)", site->kind, queue == TR_SYNC
                  ? "ordering the directive after async work" : "starting an async queue",
                  tr_error_name(err), (int)err);
    if (is_structured(site))
        push_frame(site, NULL, 0);
    if (is_update(site))
        ub.site = site;
    else
        unlock_calls();
}

void tr_update_end(tr_data_site *site)
{
    cl_int err = CL_SUCCESS;
    if (ub.site == site)
        err = batch_end(&data_site(site)->ns);
    if (err != CL_SUCCESS)
        data_fail(site, "%s: waiting for the copies failed: %s (%d)", site->kind,
                  tr_error_name(err), (int)err);
    unlock_calls();   /* taken by tr_data_begin_async */
}

void tr_wait(tr_data_site *site, int count, const long long *queues)
{
    cl_int err;
    lock_calls();
    data_site(site)->calls += 1;
    err = wait_queues(count, queues);
    if (err != CL_SUCCESS)
        data_fail(site, "%s: the async work failed: %s (%d)", site->kind, tr_error_name(err),
                  (int)err);
    unlock_calls();
}

/* A new present entry for [lo, lo+bytes), copied in if asked. */
static void box_copy(tr_data_site *site, int to_device, cl_mem buffer, size_t offset,
                     char *host, const struct tr_box *box);
static struct tr_box *box_keep(tr_data_site *site, const struct tr_box *box);

/* The device bytes for the present range [lo, lo+bytes) of section `box` (NULL: none): whole
 * rows (planes) of the section's outermost run.  NVIDIA's clEnqueue{Read,Write}BufferRect
 * refuse with CL_INVALID_VALUE a rectangle whose last row ends the buffer before a full row
 * pitch (h64: rows of 16 bytes at a pitch of 40 in a buffer of the 216-byte span). */
static size_t present_bytes(size_t bytes, const struct tr_box *box)
{
    size_t whole;
    if (box == NULL || box->dims < 2)
        return bytes;
    whole = box->count[box->dims - 1] * box->stride[box->dims - 1];
    return whole > bytes ? whole : bytes;
}

static struct tr_present *present_new(tr_data_site *site, const char *name, char *lo,
                                      size_t bytes, unsigned action, const struct tr_box *box)
{
    cl_int err;
    struct tr_present *e = calloc(1, sizeof *e);
    if (e == NULL)
        data_fail(site, "allocating host memory failed");
    e->buffer = clCreateBuffer(rt.context, CL_MEM_READ_WRITE, present_bytes(bytes, box), NULL,
                               &err);
    if (err != CL_SUCCESS) {
        free(e);
        data_fail(site, "%s: clCreateBuffer for array '%s' (%zu bytes) failed: %s (%d)",
                  site->kind, name, bytes, tr_error_name(err), (int)err);
    }
    e->name = name;
    e->where = site->where;
    e->lo = lo;
    e->bytes = bytes;
    e->refs = 1;
    e->box = box != NULL ? box_keep(site, box) : NULL;
    e->next = dt.present;
    dt.present = e;
    if ((action & TR_DATA_COPYIN) && box != NULL)
        box_copy(site, 1, e->buffer, 0, lo, box);
    else if (action & TR_DATA_COPYIN)
        data_copy(site, 1, e->buffer, 0, bytes, lo);
    return e;
}

/* tr_data_enter of [lo, lo+bytes), or of the section `box` in it (NULL: all of it). */
static void data_enter(tr_data_site *site, const char *name, char *lo, size_t bytes,
                       unsigned action, const struct tr_box *box)
{
    struct tr_present *e;
    e = present_overlap(lo, bytes);
    if (e != NULL && !present_contains(e, lo, bytes))
        fail_partly(site->where, site->kind, name, lo, bytes, e);
    if (e == NULL && action == TR_DATA_PRESENT)
        data_fail(site, "%s: array '%s' (%p..+%zu) is not present on the device", site->kind,
                  name, (void *)lo, bytes);
    if (e != NULL)
        e->refs += 1;
    else
        e = present_new(site, name, lo, bytes, action, box);
    if (is_structured(site))
        push_frame(site, e, action);
}

void tr_data_enter(tr_data_site *site, const char *name, const void *host, long long first,
                   long long count, size_t elem_size, unsigned action)
{
    size_t bytes;
    char *lo;
    lock_calls();
    lo = data_range(site, name, host, first, count, elem_size, &bytes);
    data_site(site);   /* sets the device up if this is the first runtime call */
    if (bytes != 0)
        data_enter(site, name, lo, bytes, action, NULL);
    unlock_calls();
}

/* Drops one reference of `e`; at zero copies it back (if `action` says so) and frees it. */
static void present_release(tr_data_site *site, struct tr_present *e, unsigned action)
{
    struct tr_present **link;
    const char *e_name = e->name;
    e->refs -= 1;
    if (e->refs > 0)
        return;
    if ((action & TR_DATA_COPYOUT) && e->box != NULL)
        box_copy(site, 0, e->buffer, 0, e->lo, e->box);
    else if (action & TR_DATA_COPYOUT)
        data_copy(site, 0, e->buffer, 0, e->bytes, e->lo);
    for (link = &dt.present; *link != e; link = &(*link)->next)
        ;
    *link = e->next;
    release_buffer(e->buffer);
    free((void *)e->box);
    free(e);
    if (dt.present == NULL && clFinish(rt.queue) != CL_SUCCESS)   /* launches on it end */
        data_fail(site, "%s: running the kernels on array '%s' failed (clFinish)", site->kind,
                  e_name);
}

/* 1 if both host ranges lie in one present entry (they share its device buffer). */
static int one_present(const void *a, size_t a_bytes, const void *b, size_t b_bytes)
{
    struct tr_present *e = present_overlap(a, a_bytes);
    return e != NULL && present_contains(e, a, a_bytes) && present_contains(e, b, b_bytes);
}

/* 1 while some data is present on the device (region calls on it may return early). */
static int data_present(void)
{
    return dt.present != NULL;
}

static void tr_data_end_unlocked(tr_data_site *site)
{
    cl_int err;
    data_site(site)->calls += 1;
    err = use_queue(TR_SYNC);
    if (err != CL_SUCCESS)
        data_fail(site, "end data: ordering it after async work failed: %s (%d)",
                  tr_error_name(err), (int)err);
    for (;;) {
        struct tr_data_frame f;
        if (ds.depth == 0)
            data_fail(site, "end data: no data region is open (a data region was left "
                      "without passing its 'end data')");
        f = ds.stack[--ds.depth];
        if (f.entry == NULL)
            return;
        /* copies at the end of a region count for the directive that opened it */
        present_release(f.site, f.entry, f.action);
    }
}

void tr_data_end(tr_data_site *site)
{
    lock_calls();
    tr_data_end_unlocked(site);
    unlock_calls();
}

/* The present entry holding the range, failing if it is absent or partly present. */
static struct tr_present *present_lookup(tr_data_site *site, const char *name, char *lo,
                                         size_t bytes)
{
    struct tr_present *e = present_overlap(lo, bytes);
    if (e == NULL)
        data_fail(site, "%s: array '%s' (%p..+%zu) is not present on the device", site->kind,
                  name, (void *)lo, bytes);
    if (!present_contains(e, lo, bytes))
        fail_partly(site->where, site->kind, name, lo, bytes, e);
    return e;
}

static void tr_data_exit_unlocked(tr_data_site *site, const char *name, const void *host,
                                  long long first, long long count, size_t elem_size,
                                  unsigned action)
{
    size_t bytes;
    char *lo = data_range(site, name, host, first, count, elem_size, &bytes);
    if (bytes == 0)
        return;
    present_release(site, present_lookup(site, name, lo, bytes), action);
}

void tr_data_exit(tr_data_site *site, const char *name, const void *host, long long first,
                  long long count, size_t elem_size, unsigned action)
{
    lock_calls();
    tr_data_exit_unlocked(site, name, host, first, count, elem_size, action);
    unlock_calls();
}

static void update(tr_data_site *site, int to_device, const char *name, const void *host,
                   long long first, long long count, size_t elem_size)
{
    size_t bytes;
    char *lo = data_range(site, name, host, first, count, elem_size, &bytes);
    struct tr_present *e;
    if (bytes == 0 || absent_if_present(site, lo, bytes))
        return;
    e = present_lookup(site, name, lo, bytes);
    data_copy(site, to_device, e->buffer, (size_t)(lo - e->lo), bytes, lo);
}

void tr_update_host(tr_data_site *site, const char *name, const void *host, long long first,
                    long long count, size_t elem_size)
{
    lock_calls();
    update(site, 0, name, host, first, count, elem_size);
    unlock_calls();
}

void tr_update_device(tr_data_site *site, const char *name, const void *host, long long first,
                      long long count, size_t elem_size)
{
    lock_calls();
    update(site, 1, name, host, first, count, elem_size);
    unlock_calls();
}

/* The name of kernel argument `index` (kernel argument info), or "argument N". */
static void arg_name(tr_call *call, cl_uint index, char *buf, size_t size)
{
    buf[0] = '\0';
    if (clGetKernelArgInfo(call->kernel, index, CL_KERNEL_ARG_NAME, size - 1, buf, NULL)
            != CL_SUCCESS || buf[0] == '\0')
        snprintf(buf, size, "argument %u", (unsigned)index);
    buf[size - 1] = '\0';
}

/* The hook of tr_arg_array: 1 and the buffer to use if the range is present, 0 if absent;
 * stops the program if it is partly present or misaligned for a sub-buffer.  *owned says
 * whether the call must release the buffer (a sub-buffer) or only borrows it. */
static int present_buffer(tr_call *call, cl_uint index, const void *host, size_t bytes,
                          cl_mem *out, int *owned)
{
    char name[128], what[160];
    const char *lo = host;
    struct tr_present *e;
    cl_buffer_region sub;
    cl_int err;
    if (bytes == 0 || host == NULL || (e = present_overlap(lo, bytes)) == NULL)
        return 0;
    if (lo == e->lo && bytes == e->bytes) {
        *out = e->buffer;   /* lives until its data region ends, after this call */
        *owned = 0;
        return 1;
    }
    arg_name(call, index, name, sizeof name);
    snprintf(what, sizeof what, "region '%.64s'", call->region->name);
    if (!present_contains(e, lo, bytes))
        fail_partly(where_of(call->region), what, name, lo, bytes, e);
    sub.origin = (size_t)(lo - e->lo);
    sub.size = bytes;
    if (rt.align_bytes >= 1 && sub.origin % rt.align_bytes != 0)
        fail(call->region, "%s: array '%s' starts %zu bytes into the present data '%s' (entered "
             "at %s); the device needs sub-buffers aligned to %u bytes: make the data region "
             "cover exactly what the region uses", what, name, sub.origin, e->name, e->where,
             (unsigned)rt.align_bytes);
    *out = clCreateSubBuffer(e->buffer, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &sub,
                             &err);
    check(call->region, err, "clCreateSubBuffer");
    *owned = 1;
    return 1;
}

static void *tr_data_peek_unlocked(const void *host, size_t bytes)
{
    const char *lo = host;
    struct tr_present *e;
    void *copy;
    if (bytes == 0 || host == NULL || (e = present_overlap(lo, bytes)) == NULL
        || !present_contains(e, lo, bytes))
        return NULL;
    copy = malloc(bytes);
    if (copy == NULL || use_queue(TR_SYNC) != CL_SUCCESS) {
        free(copy);
        return NULL;
    }
    if (clEnqueueReadBuffer(rt.queue, e->buffer, CL_TRUE, (size_t)(lo - e->lo), bytes, copy, 0,
                            NULL, NULL) != CL_SUCCESS) {
        free(copy);
        return NULL;
    }
    return copy;
}

void *tr_data_peek(const void *host, size_t bytes)
{
    void *out;
    lock_calls();
    out = tr_data_peek_unlocked(host, bytes);
    unlock_calls();
    return out;
}

void tr_check_unheld(const void *host, long long bytes, const char *what, const char *region)
{
    struct tr_present *e;
    if (bytes <= 0)
        return;
    lock_calls();
    e = present_overlap((const char *)host, (size_t)bytes);
    if (e != NULL) {
        fflush(stdout);
        fprintf(stderr, "translate runtime: %s is present on the device ('%s' entered at %s), "
                "but region %s copies it from and to the host at each call (it packs that "
                "component of every element into one array): the device copy would be stale; "
                "leave it out of data directives\n", what, e->name, e->where, region);
        exit(1);
    }
    unlock_calls();
}

/* Profile rows of the data directives; adds their bytes to the totals. */
/* The name of argument `index` in the glue's list `names`, or NULL. */
static const char *listed_name(const char *names, cl_uint index)
{
    cl_uint k;
    for (k = 0; names != NULL && *names != '\0' && k < index; ++k)
        names += strlen(names) + 1;
    return names != NULL && *names != '\0' ? names : NULL;
}

/* Arrays smaller than this get no copy hint (a scalar result, a small table). */
#define TR_HINT_BYTES 65536ull

/* Profile hints: the arrays of at least TR_HINT_BYTES a region copied whole because no data
 * region held them, with the directive that keeps them on the device. */
static void print_copy_hints(const struct tr_region_state *s)
{
    cl_uint i;
    const char *name, *how;
    for (i = 0; i < s->traffic_cap; ++i) {
        const struct tr_traffic *t = &s->traffic[i];
        unsigned long long copies = t->ins > t->outs ? t->ins : t->outs;
        name = listed_name(s->arg_names, i);
        if (name == NULL || copies == 0 || t->bytes < TR_HINT_BYTES)
            continue;
        how = t->ins > 0 && t->outs > 0 ? "in and out" : t->ins > 0 ? "in" : "out";
        fprintf(stderr, "hint: region %s (%s) copies %s (%.1f MB) %s on %llu of its %llu "
                "call%s: no data region holds it; an `enter data` after its allocation (or a "
                "data region around the calls) would keep it on the device\n",
                s->region->name, where_of(s->region), name, (double)t->bytes * 1e-6, how,
                copies, s->calls, s->calls == 1 ? "" : "s");
    }
}

static void print_data_profile(unsigned long long *in, unsigned long long *out)
{
    struct tr_data_site_state *s;
    for (s = dt.sites; s != NULL; s = s->next) {
        fprintf(stderr, "%-24s %-24s %8llu %14.3f %16llu %16llu\n", s->site->kind,
                s->site->where, s->calls, (double)s->ns * 1e-6, s->bytes_in, s->bytes_out);
        *in += s->bytes_in;
        *out += s->bytes_out;
    }
}

/* At exit: frees the present table (nothing is copied back) and the profile records. */
static void release_data(void)
{
    struct tr_present *e, *enext;
    struct tr_data_site_state *s, *snext;
    for (e = dt.present; e != NULL; e = enext) {
        enext = e->next;
        clReleaseMemObject(e->buffer);
        free((void *)e->box);
        free(e);
    }
    for (s = dt.sites; s != NULL; s = snext) {
        snext = s->next;
        s->site->state = NULL;
        free(s);
    }
    free(ds.stack);
    memset(&ds, 0, sizeof ds);
    memset(&dt, 0, sizeof dt);
}

/* ------------------------------------------------------------------------------------------ */
/* Exact sections: data clauses and updates of sections that are not contiguous              */

/* Reads the glue's description of a section (`box`: per dimension, fastest first, the
 * section's element count and the array's extent) into `out`, merging a dimension into the
 * next while the section spans it whole.  Returns the bytes the section holds (0: empty) and
 * sets *span to the bytes from its first to its last element. */
static size_t box_read(tr_data_site *site, const char *name, size_t elem_size, int dims,
                       const long long *box, struct tr_box *out, size_t *span)
{
    size_t stride = elem_size, total = elem_size;
    int d;
    out->dims = 0;
    *span = 0;
    if (dims < 1 || dims > TR_BOX_MAX || elem_size == 0)
        data_fail(site, "%s: section of array '%s' has %d dimensions (1 to %d supported)",
                  site->kind, name, dims, TR_BOX_MAX);
    for (d = 0; d < dims; ++d) {
        long long count = box[2 * d], extent = box[2 * d + 1];
        if (count <= 0)
            return 0;
        if (d + 1 < dims && count > extent)
            data_fail(site, "%s: section of array '%s' has %lld elements along a dimension "
                      "of extent %lld", site->kind, name, count, extent);
        if (out->dims > 0 && out->count[out->dims - 1] * out->stride[out->dims - 1] == stride)
            out->count[out->dims - 1] *= (size_t)count;     /* the run before spans it whole */
        else {
            out->count[out->dims] = (size_t)count;
            out->stride[out->dims] = stride;
            out->dims += 1;
        }
        total *= (size_t)count;
        stride *= (size_t)(extent > 0 ? extent : 1);
    }
    *span = elem_size;
    for (d = 0; d < out->dims; ++d)
        *span += (out->count[d] - 1) * out->stride[d];
    return total;
}

/* A malloc'd copy of `box` (a present entry keeps the section it copies back at its end). */
static struct tr_box *box_keep(tr_data_site *site, const struct tr_box *box)
{
    struct tr_box *copy = malloc(sizeof *copy);
    if (copy == NULL)
        data_fail(site, "allocating host memory failed");
    *copy = *box;
    return copy;
}

/* One rectangular copy of the innermost three runs of `box`, between the host section at
 * `host` and the same layout at byte `offset` of `buffer`. */
static cl_int rect_copy(int to_device, cl_mem buffer, size_t offset, char *host,
                        const struct tr_box *box, unsigned long long *ns)
{
    struct tr_rect r;
    cl_event event = NULL;
    cl_int err = flush_held();
    r.row = box->dims > 1 ? box->stride[1] : 0;
    r.slice = box->dims > 2 ? box->stride[2] : 0;
    r.region[0] = box->count[0] * box->stride[0];
    r.region[1] = box->dims > 1 ? box->count[1] : 1;
    r.region[2] = box->dims > 2 ? box->count[2] : 1;
    r.origin[2] = r.slice != 0 ? offset / r.slice : 0;
    offset -= r.origin[2] * r.slice;
    r.origin[1] = r.row != 0 ? offset / r.row : 0;
    r.origin[0] = offset - r.origin[1] * r.row;
    if (err != CL_SUCCESS)
        return err;
    if (pack_wanted(&r))
        return pack_copy(to_device, buffer, &r, host, ns);
    if (ub.site != NULL)
        return batch_copy(to_device, buffer, &r, host);
    err = enqueue_rect(to_device, buffer, &r, host, r.row, r.slice, CL_TRUE,
                       rt.profile ? &event : NULL);
    if (event != NULL) {
        *ns += event_ns(event);
        clReleaseEvent(event);
    }
    return err;
}

/* Copies runs [0, top) of `box`: one rectangular copy per index of the runs above the third. */
static cl_int box_copy_runs(int to_device, cl_mem buffer, size_t offset, char *host,
                            const struct tr_box *box, int top, unsigned long long *ns)
{
    size_t i;
    cl_int err = CL_SUCCESS;
    struct tr_box inner = *box;
    if (top <= 3) {
        inner.dims = top;
        return rect_copy(to_device, buffer, offset, host, &inner, ns);
    }
    for (i = 0; i < box->count[top - 1] && err == CL_SUCCESS; ++i)
        err = box_copy_runs(to_device, buffer, offset + i * box->stride[top - 1],
                            host + i * box->stride[top - 1], box, top - 1, ns);
    return err;
}

/* Copies exactly the elements of the section `box` starting at `host` (a contiguous section:
 * one plain copy), counting their bytes in the site's profile row. */
static void box_copy(tr_data_site *site, int to_device, cl_mem buffer, size_t offset,
                     char *host, const struct tr_box *box)
{
    struct tr_data_site_state *st = data_site(site);
    size_t bytes = box->stride[0];
    int d;
    cl_int err;
    if (box->dims == 1) {
        data_copy(site, to_device, buffer, offset, box->count[0] * box->stride[0], host);
        return;
    }
    for (d = 0; d < box->dims; ++d)
        bytes *= box->count[d];
    err = box_copy_runs(to_device, buffer, offset, host, box, box->dims, &st->ns);
    if (err != CL_SUCCESS)
        data_fail(site, "%s: %s failed: %s (%d)", site->kind,
                  to_device ? "clEnqueueWriteBufferRect" : "clEnqueueReadBufferRect",
                  tr_error_name(err), (int)err);
    if (to_device)
        st->bytes_in += bytes;
    else
        st->bytes_out += bytes;
}

/* The first byte of the section (element `first` of `host`) and, in *box, its shape; NULL
 * when it is empty. */
static char *box_start(tr_data_site *site, const char *name, const void *host, long long first,
                       size_t elem_size, int dims, const long long *box, struct tr_box *out,
                       size_t *span)
{
    size_t one;
    data_site(site);   /* sets the device up if this is the first runtime call */
    if (box_read(site, name, elem_size, dims, box, out, span) == 0)
        return NULL;
    return data_range(site, name, host, first, 1, elem_size, &one);
}

void tr_data_enter_box(tr_data_site *site, const char *name, const void *host, long long first,
                       size_t elem_size, unsigned action, int dims, const long long *box)
{
    struct tr_box b;
    size_t span;
    char *lo;
    lock_calls();
    lo = box_start(site, name, host, first, elem_size, dims, box, &b, &span);
    if (lo != NULL)
        data_enter(site, name, lo, span, action, b.dims > 1 ? &b : NULL);
    unlock_calls();
}

void tr_data_exit_box(tr_data_site *site, const char *name, const void *host, long long first,
                      size_t elem_size, unsigned action, int dims, const long long *box)
{
    struct tr_box b;
    size_t span;
    char *lo;
    lock_calls();
    lo = box_start(site, name, host, first, elem_size, dims, box, &b, &span);
    if (lo != NULL)
        present_release(site, present_lookup(site, name, lo, span), action);
    unlock_calls();
}

static void update_box(tr_data_site *site, int to_device, const char *name, const void *host,
                       long long first, size_t elem_size, int dims, const long long *box)
{
    struct tr_box b;
    size_t span;
    char *lo = box_start(site, name, host, first, elem_size, dims, box, &b, &span);
    struct tr_present *e;
    if (lo == NULL || absent_if_present(site, lo, span))
        return;
    e = present_lookup(site, name, lo, span);
    box_copy(site, to_device, e->buffer, (size_t)(lo - e->lo), lo, &b);
}

void tr_update_host_box(tr_data_site *site, const char *name, const void *host, long long first,
                        size_t elem_size, int dims, const long long *box)
{
    lock_calls();
    update_box(site, 0, name, host, first, elem_size, dims, box);
    unlock_calls();
}

void tr_update_device_box(tr_data_site *site, const char *name, const void *host,
                          long long first, size_t elem_size, int dims, const long long *box)
{
    lock_calls();
    update_box(site, 1, name, host, first, elem_size, dims, box);
    unlock_calls();
}

/* ------------------------------------------------------------------------------------------ */
/* Tuning (see translate_rt.h and docs/tuning.md)                                              */

/* One size class of a tuned region: per candidate, the calls and their kernel times. */
struct tr_tune_class {
    char name[192];
    unsigned long long calls;
    unsigned long long *runs;
    double *first_ms, *best_ms;
    struct tr_tune_class *next;
};

struct tr_tune_state {
    struct tr_tune_class *classes;
    struct tr_tune_class *current;    /* the call in progress */
    int candidate;
    unsigned long long start_ns;
};

static struct {
    int checked, on, reps;
    tr_tune_site *sites;
} tune;

/* "n=2^10 m=0": the floor of log2 of each size, 0 for a value <= 0. */
static void size_class(const tr_tune_site *site, const long long *sizes, char *out, size_t n)
{
    const char *names = site->size_names;
    size_t used = 0;
    int i;
    out[0] = '\0';
    for (i = 0; i < site->nsizes && used + 1 < n; ++i) {
        size_t len = strcspn(names, ",");
        int e = -1;
        long long v = sizes[i];
        while (v > 0) {
            ++e;
            v >>= 1;
        }
        if (e >= 0)
            used += (size_t)snprintf(out + used, n - used, "%s%.*s=2^%d", i ? " " : "",
                                     (int)len, names, e);
        else
            used += (size_t)snprintf(out + used, n - used, "%s%.*s=0", i ? " " : "",
                                     (int)len, names);
        names += len + (names[len] == ',');
    }
}

static struct tr_tune_class *tune_class(tr_tune_site *site, const long long *sizes)
{
    char name[192];
    struct tr_tune_class *c;
    size_class(site, sizes, name, sizeof name);
    for (c = site->state->classes; c != NULL; c = c->next)
        if (strcmp(c->name, name) == 0)
            return c;
    c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    memcpy(c->name, name, sizeof name);
    c->runs = calloc((size_t)site->ncandidates, sizeof *c->runs);
    c->first_ms = calloc((size_t)site->ncandidates, sizeof *c->first_ms);
    c->best_ms = calloc((size_t)site->ncandidates, sizeof *c->best_ms);
    if (c->runs == NULL || c->first_ms == NULL || c->best_ms == NULL) {
        free(c->runs);
        free(c->first_ms);
        free(c->best_ms);
        free(c);
        return NULL;
    }
    c->next = site->state->classes;
    site->state->classes = c;
    return c;
}

/* A candidate's time: the best of its calls after the first (the first warms caches up), or
 * the first if it ran once. */
static double tune_ms(const struct tr_tune_class *c, int k)
{
    return c->runs[k] > 1 ? c->best_ms[k] : c->first_ms[k];
}

static int tune_winner(const tr_tune_site *site, const struct tr_tune_class *c)
{
    int k, best = -1;
    for (k = 0; k < site->ncandidates; ++k)
        if (c->runs[k] > 0 && (best < 0 || tune_ms(c, k) < tune_ms(c, best)))
            best = k;
    return best;
}

int tr_tune_begin(tr_tune_site *site, const long long *sizes)
{
    struct tr_tune_class *c;
    unsigned long long t, rounds;
    if (!tune.checked) {
        const char *reps = getenv("TRANSLATE_TUNE_REPS");
        tune.checked = 1;
        tune.on = env_flag("TRANSLATE_TUNE");
        tune.reps = reps != NULL && atoi(reps) > 0 ? atoi(reps) : 3;
    }
    if (!tune.on || site->ncandidates < 1)
        return 0;
    if (site->state == NULL) {
        site->state = calloc(1, sizeof *site->state);
        if (site->state == NULL)
            return 0;
        site->next = tune.sites;
        tune.sites = site;
    }
    c = tune_class(site, sizes);
    site->state->current = c;
    if (c == NULL)
        return 0;
    t = c->calls++;
    rounds = (unsigned long long)(1 + tune.reps);
    site->state->candidate = t < rounds * (unsigned long long)site->ncandidates
        ? (int)(t % (unsigned long long)site->ncandidates) : tune_winner(site, c);
    if (site->state->candidate < 0)
        site->state->candidate = 0;
    site->state->start_ns = rt.kernel_ns_all;
    return site->state->candidate;
}

void tr_tune_end(tr_tune_site *site)
{
    struct tr_tune_class *c;
    int k;
    double ms;
    if (site->state == NULL || site->state->current == NULL)
        return;
    c = site->state->current;
    k = site->state->candidate;
    ms = (double)(rt.kernel_ns_all - site->state->start_ns) * 1e-6;
    if (c->runs[k] == 0)
        c->first_ms[k] = ms;
    else if (c->runs[k] == 1 || ms < c->best_ms[k])
        c->best_ms[k] = ms;
    c->runs[k] += 1;
    site->state->current = NULL;
}

/* `text` as a JSON string. */
static void json_string(FILE *f, const char *text)
{
    const unsigned char *p;
    fputc('"', f);
    for (p = (const unsigned char *)text; *p; ++p) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void tune_record(FILE *f, const tr_tune_site *site, const struct tr_tune_class *c)
{
    int k;
    fputs("{\"format\": \"translate-tune-1\", \"source\": ", f);
    json_string(f, site->source);
    fputs(", \"region\": ", f);
    json_string(f, site->region);
    fputs(", \"fingerprint\": ", f);
    json_string(f, site->fingerprint);
    fputs(", \"device\": ", f);
    json_string(f, rt.device_name);
    fputs(", \"size_class\": ", f);
    json_string(f, c->name);
    fputs(", \"candidates\": [", f);
    for (k = 0; k < site->ncandidates; ++k) {
        fputs(k ? ", {\"variant\": " : "{\"variant\": ", f);
        json_string(f, site->variants[k]);
        fputs(", \"label\": ", f);
        json_string(f, site->labels[k]);
        fputs(", \"mapping\": ", f);
        json_string(f, site->mappings[k]);
        fprintf(f, ", \"calls\": %llu, \"ms\": ", c->runs[k]);
        if (c->runs[k] > 0)
            fprintf(f, "%.6f}", tune_ms(c, k));
        else
            fputs("null}", f);
    }
    fprintf(f, "], \"winner\": %d}\n", tune_winner(site, c));
}

/* Appends `len` bytes to `path` with one write under an exclusive lock of the whole file. */
static int append_locked(const char *path, const char *data, size_t len)
{
    struct flock lock;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    ssize_t done = 0;
    if (fd < 0)
        return -1;
    memset(&lock, 0, sizeof lock);
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    while (fcntl(fd, F_SETLKW, &lock) != 0 && errno == EINTR)
        ;
    while ((size_t)done < len) {
        ssize_t n = write(fd, data + done, len - (size_t)done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += n;
    }
    lock.l_type = F_UNLCK;
    fcntl(fd, F_SETLK, &lock);
    return close(fd) == 0 && (size_t)done == len ? 0 : -1;
}

/* At exit: one record per tuned region and size class (those with a timed candidate). */
static void write_tune_records(void)
{
    tr_tune_site *site;
    struct tr_tune_class *c, *cnext;
    const char *path = getenv("TRANSLATE_TUNE_FILE");
    char *text = NULL;
    size_t len = 0;
    int count = 0;
    FILE *f;
    if (tune.sites == NULL)
        return;
    if (path == NULL || path[0] == '\0')
        path = "translate-tune.jsonl";
    f = open_memstream(&text, &len);
    for (site = tune.sites; site != NULL; site = site->next)
        for (c = site->state->classes; c != NULL && f != NULL; c = c->next)
            if (tune_winner(site, c) >= 0) {
                tune_record(f, site, c);
                ++count;
            }
    if (f == NULL || fclose(f) != 0 || append_locked(path, text, len) != 0)
        fprintf(stderr, "translate runtime: error: cannot write the tuning file %s: %s\n",
                path, strerror(errno));
    else
        fprintf(stderr, "translate: tuning: %d record%s appended to %s\n", count,
                count == 1 ? "" : "s", path);
    free(text);
    for (site = tune.sites; site != NULL; site = site->next) {
        for (c = site->state->classes; c != NULL; c = cnext) {
            cnext = c->next;
            free(c->runs);
            free(c->first_ms);
            free(c->best_ms);
            free(c);
        }
        free(site->state);
        site->state = NULL;
    }
    tune.sites = NULL;
}


/* ---- index tables (tr_index_min_* / tr_index_max_*) ---- */

/* The table elements a kernel will read: the device copy where a data region holds the table
   (there the host copy may be stale: a region may have written the table on the device), else
   the host's.  *copy is what the caller frees (NULL when the host's are read). */
static const void *tr_index_elements(const void *table, size_t bytes, void **copy)
{
    *copy = tr_data_peek(table, bytes);
    return *copy != NULL ? *copy : table;
}

#define TR_INDEX_SCAN(suffix, type)                                                 \
    long long tr_index_min_##suffix(const void *table, long long count)             \
    {                                                                               \
        void *copy;                                                                 \
        const type *t;                                                              \
        type low;                                                                   \
        if (count <= 0) return 0;                                                   \
        t = tr_index_elements(table, (size_t)count * sizeof(type), &copy);          \
        low = t[0];                                                                 \
        for (long long k = 1; k < count; ++k)                                       \
            if (t[k] < low) low = t[k];                                             \
        free(copy);                                                                 \
        return (long long)low;                                                      \
    }                                                                               \
    static type tr_index_high_##suffix(const type *t, long long count)              \
    {                                                                               \
        type high = t[0];                                                           \
        for (long long k = 1; k < count; ++k)                                       \
            if (t[k] > high) high = t[k];                                           \
        return high;                                                                \
    }                                                                               \
    long long tr_index_max_##suffix(const void *table, long long count)             \
    {                                                                               \
        void *copy;                                                                 \
        long long high;                                                             \
        if (count <= 0) return -1;                                                  \
        high = TR_INDEX_HIGH(tr_index_high_##suffix(                                \
            (const type *)tr_index_elements(table, (size_t)count * sizeof(type), &copy), \
            count));                                                                \
        free(copy);                                                                 \
        return high;                                                                \
    }                                                                               \
    long long tr_index_least_##suffix(const void *table, long long count)           \
    {                                                                               \
        return count <= 0 ? TR_INDEX_NONE : tr_index_min_##suffix(table, count);    \
    }                                                                               \
    long long tr_index_most_##suffix(const void *table, long long count)            \
    {                                                                               \
        return count <= 0 ? -TR_INDEX_NONE : tr_index_max_##suffix(table, count);   \
    }
#define TR_INDEX_HIGH(value) ((long long)(value))
TR_INDEX_SCAN(i8, signed char) TR_INDEX_SCAN(i16, short) TR_INDEX_SCAN(i32, int)
TR_INDEX_SCAN(i64, long long) TR_INDEX_SCAN(u8, unsigned char)
TR_INDEX_SCAN(u16, unsigned short) TR_INDEX_SCAN(u32, unsigned int)
#undef TR_INDEX_HIGH
/* a u64 value past LLONG_MAX cannot be an extent: it reads as the largest */
#define TR_INDEX_HIGH(value) tr_index_clamped(value)
static long long tr_index_clamped(unsigned long long value)
{
    return value > (~0ULL >> 1) ? (long long)(~0ULL >> 1) : (long long)value;
}
TR_INDEX_SCAN(u64, unsigned long long)
#undef TR_INDEX_HIGH
#undef TR_INDEX_SCAN
