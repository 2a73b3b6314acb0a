/* Buffer reuse across calls of the same region: different arrays, different sizes, host data
 * changed between calls, a several-kernel region, inside and outside a data region. */
#include <stdio.h>
#include <stdlib.h>

static void axpy(int n, double a, const double *restrict x, double *restrict y)
{
#pragma translate kernel axpy
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
#pragma translate end kernel
}

/* Writes every element of out (no copy-in needed) */
static void fill(int n, double v, double *restrict out)
{
#pragma translate kernel fill
    for (int i = 0; i < n; i++)
        out[i] = v + i;
#pragma translate end kernel
}

/* Two dependent nests: a region of several kernels. */
static void mirror(int n, const double *restrict x, double *restrict t, double *restrict y)
{
#pragma translate kernel mirror
    for (int i = 0; i < n; i++)
        t[i] = 2.0 * x[i];
    for (int i = 0; i < n; i++)
        y[i] = t[i] + t[n - 1 - i];
#pragma translate end kernel
}

static void show(const char *what, int n, const double *y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += y[i] * (1 + i % 7);
    printf("%-12s n=%5d sum %.17g first %.17g last %.17g\n", what, n, s, y[0], y[n - 1]);
}

int main(void)
{
    enum { N = 3000 };
    double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    double *x = malloc(N * sizeof *x), *t = malloc(N * sizeof *t);
    int sizes[5] = {100, 37, N, 100, 1};
    for (int i = 0; i < N; i++) {
        x[i] = 0.5 * i - 7.0;
        a[i] = 1.0;
        b[i] = -2.0 * i;
        t[i] = 0.0;
    }
    /* different arrays through the same slots */
    for (int k = 0; k < 3; k++) {
        axpy(100, 1.5, x, a);
        show("axpy a", 100, a);
        axpy(100, -0.5, x, b);
        show("axpy b", 100, b);
    }
    /* different sizes, also a size seen before */
    for (int k = 0; k < 5; k++) {
        axpy(sizes[k], 2.0, x, a);
        show("axpy sizes", sizes[k], a);
        fill(sizes[k], 10.0 * k, b);
        show("fill sizes", sizes[k], b);
    }
    /* the same arrays changed on the host between calls */
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < N; i++)
            x[i] += k + 1;
        a[N - 1] = 100.0 * k;
        axpy(N, 0.25, x, a);
        show("axpy host", N, a);
    }
    /* several kernels, sizes changing */
    for (int k = 0; k < 4; k++) {
        mirror(sizes[k], x, t, b);
        show("mirror", sizes[k], b);
        x[0] -= 3.0;
    }
    /* inside a data region: a present, b absent, alternating; host changes of b move */
#pragma translate data copy(a[0:N]) copyin(x[0:N])
    for (int k = 0; k < 3; k++) {
        axpy(N, 1.0, x, a);
        axpy(N, 1.0, x, b);
        show("data b", N, b);
        b[5] = 1000.0 * k;
#pragma translate update host(a[0:N])
        show("data a", N, a);
        mirror(N, x, t, b);
        show("data mirror", N, b);
    }
#pragma translate end data
    show("after data", N, a);
    /* the region again outside the data region, the same arrays */
    axpy(N, 3.0, x, a);
    show("axpy again", N, a);
    free(a);
    free(b);
    free(x);
    free(t);
    return 0;
}
