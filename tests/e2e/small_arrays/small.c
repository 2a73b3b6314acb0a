/* Small arrays of plain calls (h49, issue 23 item 5): the runtime packs the arrays of at most
 * 16 KiB that a call copies into one write and reads the written ones back in one read.  This
 * program calls regions with such arrays in every way that could go wrong: inputs changed on
 * the host between calls, an output written only in part (the rest must keep its values), an
 * output written whole, sizes changing from call to call (also past the per-array limit and
 * past the 64 KiB block, so that one call mixes packed and plain arrays), pointers that may
 * alias (one array passed twice, also as an output written whole and an input; two parts of
 * one array), a region of several kernels, a sum, an empty call, and calls inside a data
 * region where some arrays are present. */
#include <stdio.h>
#include <stdlib.h>

static void axpy(int n, double a, const double *restrict x, double *restrict y)
{
#pragma translate kernel axpy
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
#pragma translate end kernel
}

/* y written only at even indices; z written whole */
static void evens(int n, double *restrict y, double *restrict z)
{
#pragma translate kernel evens
    for (int i = 0; i < n; i++) {
        y[2 * i] = 3.0 * y[2 * i] + 1.0;
        z[i] = 0.5 * i;
    }
#pragma translate end kernel
}

/* pointers that may alias: no restrict */
static void scale_add(int n, double a, double *x, double *y)
{
#pragma translate kernel scale_add
    for (int i = 0; i < n; i++)
        y[i] = a * y[i] + x[i];
#pragma translate end kernel
}

/* may alias; out is written whole and comes first: twice(n, y, y) reads y through out's buffer */
static void twice(int n, double *out, const double *in)
{
#pragma translate kernel twice
    for (int i = 0; i < n; i++)
        out[i] = 2.0 * in[i] + 1.0;
#pragma translate end kernel
}

/* five arrays: with 2000 doubles each they pass the 64 KiB block */
static void five(int n, const double *restrict a, const double *restrict b,
                 const double *restrict c, double *restrict d, double *restrict e)
{
#pragma translate kernel five
    for (int i = 0; i < n; i++) {
        d[i] = a[i] + 2.0 * b[i] - c[i] + d[i];
        e[i] = a[i] * c[i];
    }
#pragma translate end kernel
}

/* two dependent nests: a region of several kernels */
static void mirror(int n, const double *restrict x, double *restrict t, double *restrict y)
{
#pragma translate kernel mirror
    for (int i = 0; i < n; i++)
        t[i] = 2.0 * x[i];
    for (int i = 0; i < n; i++)
        y[i] = t[i] + t[n - 1 - i];
#pragma translate end kernel
}

static double total(int n, const double *restrict x)
{
    double s = 0.0;
#pragma translate kernel total
#pragma translate set_options(reassociate=True)
    for (int i = 0; i < n; i++)
        s += x[i];
#pragma translate end kernel
    return s;
}

static void show(const char *what, int n, const double *y)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += y[i] * (1 + i % 7);
    printf("%-10s n=%5d sum %.17g first %.17g last %.17g\n", what, n, s, n > 0 ? y[0] : 0.0,
           n > 0 ? y[n - 1] : 0.0);
}

int main(void)
{
    enum { N = 4200 };
    static double x[N], y[N], z[N], t[N], a[N], b[N], c[N], d[N], e[N];
    static const int sizes[] = {16, 100, 3, 2048, 2049, 16, 0, 2000, 7};
    for (int i = 0; i < N; i++) {
        x[i] = 0.25 * i - 3.0;
        y[i] = 1.0 + i % 5;
        z[i] = -1.0;
        a[i] = i % 11;
        b[i] = 0.5 * (i % 13);
        c[i] = 2.0 - i % 3;
        d[i] = 1.0;
        e[i] = 7.0;
    }
    for (int k = 0; k < 3; k++) {   /* inputs changed between calls */
        x[k] += 10.0;
        axpy(16, 1.5, x, y);
        show("axpy", 16, y);
    }
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        int n = sizes[k];
        axpy(n, -0.5, x, y);
        show("axpy n", n, y);
        evens(n / 2, y, z);
        show("evens y", n, y);
        show("evens z", n, z);
        scale_add(n, 2.0, x, y);
        show("alias xy", n, y);
        scale_add(n, 0.5, y, y);    /* one array twice */
        show("alias yy", n, y);
        scale_add(n / 2, 1.0, y, y + n / 2);   /* two parts of one array */
        show("alias parts", n, y);
        twice(n, y, y);
        show("alias twice", n, y);
        five(n, a, b, c, d, e);
        show("five d", n, d);
        show("five e", n, e);
        mirror(n, x, t, y);
        show("mirror", n, y);
        printf("total %.17g\n", total(n, y));
    }
#pragma translate data copy(y[0:N])
    for (int k = 0; k < 3; k++) {   /* y present, x and z copied */
        axpy(100, 2.0, x, y);
        evens(50, y, z);
    }
#pragma translate end data
    show("data y", 100, y);
    show("data z", 50, z);
    return 0;
}
