/* An LD_PRELOAD interposer that gives the CPU OpenCL device two behaviours of NVIDIA's OpenCL
 * (driver 580, H200) that PoCL does not have (bench/RESULTS.md, "Differential hunt on an NVIDIA
 * GPU (h64)"):
 *
 * - a non-blocking clEnqueueWriteBuffer reads the host memory when it is enqueued, as CUDA
 *   does for pageable memory, not when the commands it waits for on the device have run;
 * - releasing a sub-buffer that a live kernel still has as an argument crashes the driver
 *   (here: a message on stderr and abort()).
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SUBS 4096
#define MAX_ARGS 4096

static cl_mem subs[MAX_SUBS];
static int nsubs;
static struct { cl_kernel kernel; cl_uint index; cl_mem mem; } args[MAX_ARGS];
static int nargs;

typedef cl_int (*write_fn)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *,
                           cl_uint, const cl_event *, cl_event *);
typedef cl_mem (*sub_fn)(cl_mem, cl_mem_flags, cl_buffer_create_type, const void *, cl_int *);
typedef cl_int (*arg_fn)(cl_kernel, cl_uint, size_t, const void *);
typedef cl_int (*release_kernel_fn)(cl_kernel);
typedef cl_int (*release_mem_fn)(cl_mem);

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

static int is_sub(cl_mem mem)
{
    int k;
    for (k = 0; k < nsubs; ++k)
        if (subs[k] == mem)
            return 1;
    return 0;
}

cl_int clSetKernelArg(cl_kernel kernel, cl_uint index, size_t size, const void *value)
{
    arg_fn real = (arg_fn)dlsym(RTLD_NEXT, "clSetKernelArg");
    int k;
    for (k = 0; k < nargs; ++k)
        if (args[k].kernel == kernel && args[k].index == index)
            args[k] = args[--nargs];
    if (size == sizeof(cl_mem) && value != NULL && is_sub(*(const cl_mem *)value)
        && nargs < MAX_ARGS) {
        args[nargs].kernel = kernel;
        args[nargs].index = index;
        args[nargs++].mem = *(const cl_mem *)value;
    }
    return real(kernel, index, size, value);
}

cl_int clReleaseKernel(cl_kernel kernel)
{
    release_kernel_fn real = (release_kernel_fn)dlsym(RTLD_NEXT, "clReleaseKernel");
    int k;
    for (k = 0; k < nargs; ++k)
        if (args[k].kernel == kernel)
            args[k--] = args[--nargs];
    return real(kernel);
}

cl_int clReleaseMemObject(cl_mem mem)
{
    release_mem_fn real = (release_mem_fn)dlsym(RTLD_NEXT, "clReleaseMemObject");
    int k;
    for (k = 0; k < nargs; ++k)
        if (args[k].mem == mem) {
            fprintf(stderr, "nvidia_cl: sub-buffer released while kernel argument %u holds it "
                    "(the NVIDIA driver crashes here)\n", (unsigned)args[k].index);
            abort();
        }
    for (k = 0; k < nsubs; ++k)
        if (subs[k] == mem)
            subs[k] = subs[--nsubs];
    return real(mem);
}
