/* Work without async on an array that async work brings back, without a `wait` between them
 * (the rules order work without async after all async work): a plain region and an `enter
 * data copyin` after an async region, an `update device` after an async `update host`.  On
 * NVIDIA the plain call's copy in read the host array before the async copy back had arrived
 * (h64). */
#include <stdio.h>
#define N 3000000

static void grow(int n, const double *restrict x, double *restrict y)
{
#pragma translate kernel grow async(1)
    for (int i = 0; i < n; i++) {
        double v = y[i];
        for (int k = 0; k < 20; k++)
            v = v * 0.999 + x[i] * 1e-3;
        y[i] = v;
    }
#pragma translate end kernel
}

static void scale(int n, double *restrict y)
{
#pragma translate kernel scale
    for (int i = 0; i < n; i++)
        y[i] = y[i] * 3.0 - 1.0;
#pragma translate end kernel
}

static void shift(int n, double *restrict y)
{
#pragma translate kernel shift
    for (int i = 0; i < n; i++)
        y[i] = y[i] + 0.5;
#pragma translate end kernel
}

static double sum(int n, const double *y)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += y[i] * (1 + i % 7);
    return s;
}

int main(void)
{
    static double x[N], y[N];
    for (int i = 0; i < N; i++) { x[i] = i % 17; y[i] = 1.0 + i % 5; }
    for (int t = 0; t < 3; t++) {
        grow(N - t, x, y);
        scale(N - t, y);          /* plain: after grow, with grow's results */
        printf("plain %d %.17g\n", t, sum(N, y));
    }
    for (int n = 1000; n <= N; n *= 3000) {    /* a copy from a bounce buffer, a plain one */
        grow(n, x, y);
#pragma translate enter data copyin(y[0:n])
        shift(n, y);
#pragma translate exit data copyout(y[0:n])
        printf("enter data %d %.17g\n", n, sum(N, y));
    }
    static double z[1000];
    for (int i = 0; i < 1000; i++) z[i] = i;
#pragma translate data copy(z[0:1000])
    shift(1000, z);                                /* the device's z changes */
    grow(N, x, y);                                 /* queue 1 busy for a while */
#pragma translate update host(z[0:1000]) async(1)
#pragma translate update device(z[0:1000])
    scale(1000, z);                                /* on the values sent back */
#pragma translate end data
    printf("update %.17g\n", sum(1000, z));
    return 0;
}
