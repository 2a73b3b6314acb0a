#include <stdio.h>
#include <stdlib.h>
#define NN 500
static double y[10 * NN + 8];
static void bands_shift(int n, double *restrict y)
{
#pragma translate kernel bands_shift
    for (int i = 0; i < n; i++) {
        y[0 * n + i] = y[0 * n + i] * 2.0 + 1.0;
        y[1 * n + i] = y[1 * n + i] * 2.0 + 1.0;
        y[2 * n + i] = y[2 * n + i] * 2.0 + 1.0;
        y[3 * n + i] = y[3 * n + i + 1] + 0.5;
        y[4 * n + i] = y[4 * n + i] * 3.0 - 1.0;
        y[5 * n + i] = y[5 * n + i] * 2.0 + 1.0;
        y[6 * n + i] = y[6 * n + i] * 2.0 + 1.0;
        y[7 * n + i] = y[7 * n + i] * 2.0 + 1.0;
        y[8 * n + i] = y[8 * n + i] * 2.0 + 1.0;
    }
#pragma translate end kernel
}
static void bands_overlap(int n, double *restrict y)
{
#pragma translate kernel bands_overlap
    for (int i = 0; i < n; i++) {
        y[0 * n + i] += 1.0;
        y[1 * n + i] += 1.0;
        y[2 * n + i] += 1.0;
        y[3 * n + i] += 1.0;
        y[4 * n + i + 3] = y[4 * n + i] * 0.5;
        y[5 * n + i] += 1.0;
        y[6 * n + i] += 1.0;
        y[7 * n + i] += 1.0;
        y[8 * n + i] += 1.0;
    }
#pragma translate end kernel
}
static void stride_two(int n, double *restrict y)
{
#pragma translate kernel stride_two
    for (int i = 0; i < n; i++) {
        y[2 * i] = y[2 * i + 1] + 1.0;
        y[2 * n + 2 * i] = y[2 * n + 2 * i + 2] * 0.5;
        y[4 * n + i] += 1.0;
        y[5 * n + i] += 2.0;
        y[6 * n + i] += 3.0;
        y[7 * n + i] += 4.0;
        y[8 * n + i] += 5.0;
        y[9 * n + i] += 6.0;
    }
#pragma translate end kernel
}
/* the bands of statement k are k*m + i with m a parameter that may be smaller than n */
static void param_bands(int n, int m, double *restrict y)
{
#pragma translate kernel param_bands
    for (int i = 0; i < n; i++) {
        y[0 * m + i] = y[0 * m + i] + 1.0;
        y[1 * m + i] = y[1 * m + i] * 2.0;
        y[2 * m + i] = y[2 * m + i] + 3.0;
        y[3 * m + i] = y[3 * m + i] * 0.5;
        y[4 * m + i] = y[4 * m + i] + 5.0;
        y[5 * m + i] = y[5 * m + i] * 1.5;
        y[6 * m + i] = y[6 * m + i] + 7.0;
        y[7 * m + i] = y[7 * m + i] * 0.25;
    }
#pragma translate end kernel
}
/* two views of one buffer: plain pointers may alias */
static void views(int n, double *p, double *q)
{
#pragma translate kernel views
    for (int i = 0; i < n; i++) {
        p[i] = q[i] + 1.0;
        p[n + i] = q[n + i] * 2.0;
        p[2 * n + i] = q[2 * n + i] + 2.0;
        p[3 * n + i] = q[3 * n + i] * 3.0;
        p[4 * n + i] = q[4 * n + i] + 4.0;
        p[5 * n + i] = q[5 * n + i] * 5.0;
        p[6 * n + i] = q[6 * n + i] + 6.0;
        p[7 * n + i] = q[7 * n + i] * 7.0;
    }
#pragma translate end kernel
}
static void reset(void) { for (int i = 0; i < 10 * NN + 8; i++) y[i] = (i % 37) * 0.25 - 3.0; }
static void dump(const char *w) { double s = 0; for (int i = 0; i < 10 * NN + 8; i++) s += y[i] * ((i % 11) + 1); printf("%s %.17g %.17g %.17g\n", w, s, y[3 * NN + 7], y[4 * NN + 2]); }
int main(void)
{
    reset(); bands_shift(NN, y); dump("shift");
    reset(); bands_overlap(NN, y); dump("overlap");
    reset(); stride_two(NN, y); dump("stride2");
    reset(); param_bands(NN, NN, y); dump("pb=");
    reset(); param_bands(NN, NN - 1, y); dump("pb-1");
    reset(); param_bands(NN, 3, y); dump("pb3");
    reset(); views(NN, y, y); dump("views same");
    reset(); views(NN, y + 1, y); dump("views +1");
    reset(); views(NN, y, y + 1); dump("views -1");
    reset(); views(NN, y + NN, y); dump("views +n");
    return 0;
}
