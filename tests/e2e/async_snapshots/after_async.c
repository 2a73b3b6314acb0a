/* A plain call right after an async call on the same array, without `wait` between: work
 * without async runs after everything started before it, so `plus` must read what `slow`
 * (queue 1) copied back into y.  y is small (its copy in is packed with the call's other
 * small arrays) or, with TRANSLATE_STAGING=1, staged; both copies snapshot the host memory
 * at once and read y before `slow` had brought it back.  `slow` takes long enough for that;
 * the sizes go past the packing limit (2048 doubles). */
#include <stdio.h>

#define N 4100
#define WORK 200

static void slow(int n, const double *restrict x, double *restrict y)
{
#pragma translate kernel slow async(1)
    for (int i = 0; i < n; i++) {
        double v = y[i];
        for (int k = 0; k < WORK; k++)
            v = v * 0.999 + x[i];
        y[i] = v;
    }
#pragma translate end kernel
}

static void fast(int n, const double *restrict x, double *restrict y)
{
#pragma translate kernel fast async(1)
    for (int i = 0; i < n; i++)
        y[i] = x[i] + y[i] * 0.5;
#pragma translate end kernel
}

static void part(int lo, int hi, double *restrict y)
{
#pragma translate kernel part
    for (int i = lo; i < hi; i++)
        y[i] = y[i] * 3.0 - 1.0;
#pragma translate end kernel
}

static void plus(int n, const double *restrict x, double *restrict y)
{
#pragma translate kernel plus
    for (int i = 0; i < n; i++)
        y[i] = 2.0 * y[i] + x[i];
#pragma translate end kernel
}

int main(void)
{
    static double x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = 0.25 * (i % 13);
        y[i] = 1.0;
    }
    static const int sizes[] = {1999, 2049, 4095, 1000, 4100, 2048};
    for (int t = 0; t < 6; t++) {
        slow(sizes[t], x, y);
        plus(sizes[t] - t, x, y);   /* no wait: runs after slow */
        double s = 0.0;
        for (int i = 0; i < N; i++)
            s += y[i] * (1 + i % 7);
        printf("%d %.17g %.17g\n", t, s, y[N / 2]);
    }
    /* a quick async call, waited for, then another one and a plain call without wait */
    static const int more[] = {13, 1, 2047, 2048, 2049, 4095, 4096, 4097, 1999, 5, 2000, 3};
    for (int t = 0; t < 12; t++) {
        fast(more[t], x, y);
#pragma translate wait(1)
        fast(more[t], x, y);
        part(0, more[t], y);
        double s = 0.0;
        for (int i = 0; i < N; i++)
            s += y[i] * (1 + i % 7);
        printf("%d %.17g\n", more[t], s);
        x[t] += 1.0;
    }
    return 0;
}
