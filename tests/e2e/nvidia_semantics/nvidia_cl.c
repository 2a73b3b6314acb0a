/* An LD_PRELOAD interposer that gives the CPU OpenCL device the behaviours of NVIDIA's OpenCL
 * (driver 580, H200) that PoCL does not have and that translated programs met (bench/RESULTS.md,
 * "Differential hunt on an NVIDIA GPU (h64)"):
 *
 * - the platform's name says NVIDIA;
 * - a non-blocking clEnqueueWriteBuffer reads the host memory when it is enqueued, as CUDA
 *   does for pageable memory, not when the commands it waits for on the device have run;
 * - releasing a sub-buffer crashes the driver (here: a message on stderr and abort()); on the
 *   H200 the runtime's small-array sub-buffers crashed in clReleaseMemObject.
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SUBS 4096

static cl_mem subs[MAX_SUBS];
static int nsubs;

typedef cl_int (*write_fn)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *,
                           cl_uint, const cl_event *, cl_event *);
typedef cl_mem (*sub_fn)(cl_mem, cl_mem_flags, cl_buffer_create_type, const void *, cl_int *);
typedef cl_int (*release_mem_fn)(cl_mem);
typedef cl_int (*platform_fn)(cl_platform_id, cl_platform_info, size_t, void *, size_t *);

static const char platform_name[] = "NVIDIA CUDA (emulated by nvidia_cl.c)";

cl_int clGetPlatformInfo(cl_platform_id platform, cl_platform_info what, size_t size,
                         void *value, size_t *size_ret)
{
    platform_fn real = (platform_fn)dlsym(RTLD_NEXT, "clGetPlatformInfo");
    if (what != CL_PLATFORM_NAME)
        return real(platform, what, size, value, size_ret);
    if (size_ret != NULL)
        *size_ret = sizeof platform_name;
    if (value != NULL) {
        if (size < sizeof platform_name)
            return CL_INVALID_VALUE;
        memcpy(value, platform_name, sizeof platform_name);
    }
    return CL_SUCCESS;
}

static void CL_CALLBACK free_copy(cl_event ev, cl_int status, void *copy)
{
    (void)ev;
    (void)status;
    free(copy);
}

cl_int clEnqueueWriteBuffer(cl_command_queue q, cl_mem b, cl_bool blocking, size_t offset,
                            size_t size, const void *ptr, cl_uint n, const cl_event *wait,
                            cl_event *ev)
{
    write_fn real = (write_fn)dlsym(RTLD_NEXT, "clEnqueueWriteBuffer");
    cl_event own = NULL;
    void *copy;
    cl_int err;
    if (blocking || size == 0 || (copy = malloc(size)) == NULL)
        return real(q, b, blocking, offset, size, ptr, n, wait, ev);
    memcpy(copy, ptr, size);   /* the host memory as it is now */
    err = real(q, b, CL_FALSE, offset, size, copy, n, wait, &own);
    if (err != CL_SUCCESS) {
        free(copy);
        return err;
    }
    clSetEventCallback(own, CL_COMPLETE, free_copy, copy);
    if (ev != NULL)
        *ev = own;
    else
        clReleaseEvent(own);
    return err;
}

cl_mem clCreateSubBuffer(cl_mem parent, cl_mem_flags flags, cl_buffer_create_type type,
                         const void *info, cl_int *err)
{
    sub_fn real = (sub_fn)dlsym(RTLD_NEXT, "clCreateSubBuffer");
    cl_mem sub = real(parent, flags, type, info, err);
    if (sub != NULL && nsubs < MAX_SUBS)
        subs[nsubs++] = sub;
    return sub;
}

cl_int clReleaseMemObject(cl_mem mem)
{
    release_mem_fn real = (release_mem_fn)dlsym(RTLD_NEXT, "clReleaseMemObject");
    int k;
    for (k = 0; k < nsubs; ++k)
        if (subs[k] == mem) {
            fprintf(stderr, "nvidia_cl: a sub-buffer released (the NVIDIA driver crashed "
                    "here)\n");
            abort();
        }
    return real(mem);
}
