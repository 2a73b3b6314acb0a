/* An LD_PRELOAD interposer that counts the transfer and launch commands a program enqueues
 * (clEnqueueWriteBuffer, clEnqueueReadBuffer, clEnqueueNDRangeKernel) and writes the counts
 * to the file named by CL_COUNT_FILE at exit:  "writes W reads R launches L". */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long writes, reads, launches;

typedef cl_int (*write_fn)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *,
                           cl_uint, const cl_event *, cl_event *);
typedef cl_int (*read_fn)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *, cl_uint,
                          const cl_event *, cl_event *);
typedef cl_int (*launch_fn)(cl_command_queue, cl_kernel, cl_uint, const size_t *,
                            const size_t *, const size_t *, cl_uint, const cl_event *,
                            cl_event *);

cl_int clEnqueueWriteBuffer(cl_command_queue q, cl_mem b, cl_bool blocking, size_t offset,
                            size_t size, const void *ptr, cl_uint n, const cl_event *wait,
                            cl_event *ev)
{
    write_fn real = (write_fn)dlsym(RTLD_NEXT, "clEnqueueWriteBuffer");
    writes++;
    return real(q, b, blocking, offset, size, ptr, n, wait, ev);
}

cl_int clEnqueueReadBuffer(cl_command_queue q, cl_mem b, cl_bool blocking, size_t offset,
                           size_t size, void *ptr, cl_uint n, const cl_event *wait,
                           cl_event *ev)
{
    read_fn real = (read_fn)dlsym(RTLD_NEXT, "clEnqueueReadBuffer");
    reads++;
    return real(q, b, blocking, offset, size, ptr, n, wait, ev);
}

cl_int clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t *off,
                              const size_t *global, const size_t *local, cl_uint n,
                              const cl_event *wait, cl_event *ev)
{
    launch_fn real = (launch_fn)dlsym(RTLD_NEXT, "clEnqueueNDRangeKernel");
    launches++;
    return real(q, k, dims, off, global, local, n, wait, ev);
}

__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("CL_COUNT_FILE");
    FILE *f = path != NULL ? fopen(path, "w") : NULL;
    if (f == NULL)
        return;
    fprintf(f, "writes %lu reads %lu launches %lu\n", writes, reads, launches);
    fclose(f);
}
