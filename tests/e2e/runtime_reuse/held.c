/* Pinned staging keeps the last chunk of a staged copy to the device back until the next
 * command is enqueued (translate_rt.c, staged_write).  Every order in which a later command
 * could overtake that chunk: a newer update of the same array, a region that copies another
 * array in first, a copy back with no kernel in between, the array's buffer released while its
 * chunk is held, a region without a launch.  Host and device copies stay consistent, so the
 * output equals the original's. */
#include <stdio.h>
#include <stdlib.h>

static void scale(int n, double s, const double *restrict x, double *restrict y)
{
#pragma translate kernel scale
    for (int i = 0; i < n; i++)
        y[i] = s * x[i];
#pragma translate end kernel
}

static void addto(int n, const double *restrict x, const double *restrict z, double *restrict y)
{
#pragma translate kernel addto
    for (int i = 0; i < n; i++)
        y[i] = x[i] + z[i];
#pragma translate end kernel
}

/* Writes y[lo..hi): no launch when the range is empty, but the arrays are still copied. */
static void part(int n, int lo, int hi, const double *restrict x, double *restrict y)
{
#pragma translate kernel part
    for (int i = lo; i < hi; i++)
        y[i] = x[i] - 1.0;
#pragma translate end kernel
    (void)n;
}

static void show(const char *what, int n, const double *y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += y[i] * (1 + i % 7);
    printf("%-14s sum %.17g first %.17g last %.17g\n", what, s, y[0], y[n - 1]);
}

static void set(int n, double *v, double a, double b)
{
    for (int i = 0; i < n; i++)
        v[i] = a + b * i;
}

int main(void)
{
    enum { N = 5003 };   /* 40024 bytes: ten 4 KiB chunks and a partial one */
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y), *z = malloc(N * sizeof *z);
    set(N, x, 1.0, 0.5);
    set(N, y, 0.0, 0.0);
    set(N, z, -3.0, 0.25);
    /* a newer update of the same array right after the copy-in: the newer data wins */
#pragma translate enter data copyin(x[0:N]) create(y[0:N])
    set(N, x, 2.0, -0.125);
#pragma translate update device(x[0:N])
    scale(N, 3.0, x, y);
#pragma translate update host(y[0:N])
    show("update wins", N, y);
    /* copied back with no kernel in between */
    set(N, x, 7.0, 1.0);
#pragma translate update device(x[0:N])
#pragma translate exit data copyout(x[0:N]) delete(y[0:N])
    show("copied back", N, x);
    /* released while its last chunk is held, then a plain call on the same host array */
#pragma translate enter data copyin(z[0:N])
#pragma translate exit data delete(z[0:N])
    addto(N, x, z, y);
    show("after delete", N, y);
    /* a region copying two arrays in (the first one's chunk held across the second copy) */
    set(N, y, 0.0, 0.0);
    addto(N, z, x, y);
    show("two inputs", N, y);
    /* a region without a launch, then one with */
    part(N, 10, 10, x, y);
    show("no launch", N, y);
    part(N, 0, N, z, y);
    show("launch", N, y);
    free(x);
    free(y);
    free(z);
    return 0;
}
