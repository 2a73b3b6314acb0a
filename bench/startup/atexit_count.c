/* bench/startup/atexit_count.c: an LD_PRELOAD library that prints every __cxa_atexit (and so
 * atexit) registration with the library that made it and the ms since load (h44), to see where
 * an OpenCL implementation registers its exit handlers:
 *
 *   gcc -shared -fPIC -O2 atexit_count.c -o atexit_count.so -ldl
 *   LD_PRELOAD=./atexit_count.so ./phases 2>&1 | awk '/ATEXIT/{c[$NF]++; next}
 *       /PHASE/{for (l in c) print "   " c[l] " atexit from " l; delete c; print}'
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>
typedef int (*cxa_t)(void (*)(void *), void *, void *);
static double t0;
static double now(void){struct timespec ts;clock_gettime(CLOCK_MONOTONIC,&ts);return ts.tv_sec*1e3+ts.tv_nsec*1e-6;}
__attribute__((constructor)) static void init(void){t0=now();}
int __cxa_atexit(void (*f)(void *), void *arg, void *d)
{
    static cxa_t real; Dl_info info = {0};
    if (!real) real = (cxa_t)dlsym(RTLD_NEXT, "__cxa_atexit");
    dladdr(__builtin_return_address(0), &info);
    fprintf(stderr, "ATEXIT %.2f ms from %s\n", now()-t0, info.dli_fname ? info.dli_fname : "?");
    return real(f, arg, d);
}
