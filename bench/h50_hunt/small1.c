#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define NMAX 9000
static void mixed(int n, const unsigned char *restrict c, const short *restrict s, const float *restrict f,
                  const double *restrict d, int *restrict out_i, double *restrict out_d, char *restrict flag)
{
#pragma translate kernel mixed
    for (int i = 0; i < n; i++) {
        out_i[i] = c[i] + s[i] * 3;
        out_d[i] = d[i] * 0.5 + f[i];
        if (i % 3 == 0) flag[i] = (char)(c[i] & 7);
    }
#pragma translate end kernel
}
static void chain(int n, const double *restrict x, double *restrict t, double *restrict y, double *restrict w)
{
#pragma translate kernel chain
    for (int i = 0; i < n; i++)
        t[i] = x[i] * 2.0 + 1.0;
    for (int i = 1; i < n - 1; i++)
        y[i] = t[i - 1] + t[i + 1] - w[i];
    for (int i = 0; i < n; i++)
        w[i] = y[i] * 0.25;
#pragma translate end kernel
}
static void partial(int n, int lo, int hi, double *restrict y)
{
#pragma translate kernel partial
    for (int i = lo; i < hi; i++)
        y[i] = y[i] * 3.0 - 1.0;
#pragma translate end kernel
}
static void asy(int n, const double *restrict x, double *restrict y)
{
#pragma translate kernel asy async(1)
    for (int i = 0; i < n; i++)
        y[i] = x[i] + y[i] * 0.5;
#pragma translate end kernel
}
static double sum(int n, const double *y) { double s = 0; for (int i = 0; i < n; i++) s += y[i] * (1 + i % 7); return s; }
int main(void)
{
    static unsigned char c[NMAX]; static short s[NMAX]; static float f[NMAX]; static double d[NMAX];
    static int oi[NMAX]; static double od[NMAX]; static char fl[NMAX];
    static double x[NMAX], t[NMAX], y[NMAX], w[NMAX], y2[NMAX];
    static const int sizes[] = {13, 1, 2047, 2048, 2049, 4095, 4096, 4097, 8191, 8192, 1999, 0, 5, 2000, 3};
    for (int i = 0; i < NMAX; i++) { c[i] = (unsigned char)(i * 7); s[i] = (short)(i * 13 - 5000); f[i] = 0.125f * i; d[i] = 1.0 / (i + 1); oi[i] = -1; od[i] = -2; fl[i] = 'z'; x[i] = i % 17; y[i] = 1; w[i] = 0.5 * (i % 3); y2[i] = i; }
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        int n = sizes[k];
        mixed(n, c, s, f, d, oi, od, fl);
        long si = 0; for (int i = 0; i < NMAX; i++) si += (long)oi[i] * (i % 5 + 1) + fl[i];
        printf("mixed %d %ld %.17g\n", n, si, sum(NMAX, od));
        chain(n, x, t, y, w);
        printf("chain %d %.17g %.17g %.17g\n", n, sum(NMAX, t), sum(NMAX, y), sum(NMAX, w));
        partial(n, n / 3, n / 2, y);
        printf("partial %d %.17g\n", n, sum(NMAX, y));
        asy(n, x, y2);
#pragma translate wait(1)
        printf("asy %d %.17g\n", n, sum(NMAX, y2));
        asy(n, x, y2);
        partial(n, 0, n, y2);
        printf("asy+plain %d %.17g\n", n, sum(NMAX, y2));
        x[k] += 1.0;
    }
    for (int r = 0; r < 3; r++) {
        /* inside and outside a data region, alternately; y present, the others packed */
#pragma translate data copy(y[0:2000]) copyin(x[0:2000])
        chain(2000, x, t, y, w);
        partial(2000, 10, 1500, y);
        x[5] = 100.0 + r;   /* host change of present x: not seen on the device without update */
#pragma translate update device(x[5:1])
        chain(1500, x, t, y, w);
#pragma translate update host(y[0:700])
        printf("in data %d %.17g %.17g\n", r, sum(700, y), sum(NMAX, w));
        y[3] = -5.0;
#pragma translate update device(y[3:1])
        partial(2000, 0, 10, y);
#pragma translate end data
        printf("after data %d %.17g %.17g %.17g\n", r, sum(NMAX, y), sum(NMAX, t), sum(NMAX, w));
        chain(2001, x, t, y, w);
        partial(2001, 0, 2001, y);
        printf("outside %d %.17g %.17g\n", r, sum(NMAX, y), sum(NMAX, w));
    }
    return 0;
}
