/* Splits with tails (factors that divide nothing), float and double mixed, 64-bit integers,
 * a large NDRange (2^25 + 3 items) and many small launches in a row. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

static void mix(int n, const float *restrict f, const double *restrict d, int64_t *restrict q,
                float *restrict g, double *restrict e)
{
#pragma translate kernel mix
#pragma translate split_iname("i", 96, outer_tag="g.0", inner_tag="l.0")
    for (int i = 0; i < n; i++) {
        g[i] = f[i] * 1.5f + (float)d[i];
        e[i] = (double)f[i] * d[i] - (double)(f[i] / 3.0f);
        q[i] = (int64_t)i * (int64_t)i * 3037 - ((int64_t)1 << 40) + (int64_t)(d[i] * 1000.0);
    }
#pragma translate end kernel
}

static void tri(int n, int m, const double *restrict a, double *restrict b)
{
#pragma translate kernel tri
#pragma translate split_iname("i", 7, outer_tag="g.1", inner_tag="l.1")
#pragma translate split_iname("j", 37, outer_tag="g.0", inner_tag="l.0")
    for (int i = 0; i < n; i++)
        for (int j = i / 3; j < m; j++)
            b[i * m + j] = a[i * m + j] * (i - j) + 0.5;
#pragma translate end kernel
}

static void tiny(int n, double *restrict y, double c)
{
#pragma translate kernel tiny
    for (int i = 0; i < n; i++)
        y[i] = y[i] * c + 1.0;
#pragma translate end kernel
}

int main(void)
{
    const int n = (1 << 25) + 3;
    float *f = malloc(sizeof(float) * n), *g = malloc(sizeof(float) * n);
    double *d = malloc(sizeof(double) * n), *e = malloc(sizeof(double) * n);
    int64_t *q = malloc(sizeof(int64_t) * n);
    for (int i = 0; i < n; i++) {
        f[i] = (float)((i % 1000) * 0.37 - 11.0);
        d[i] = (i % 777) * 1.0e-3 + 1.0 / (1 + i % 13);
    }
    mix(n, f, d, q, g, e);
    double sg = 0, se = 0; int64_t sq = 0;
    for (int i = 0; i < n; i++) { sg += g[i]; se += e[i] * (i % 3); sq += q[i] ^ (int64_t)i; }
    printf("%.17g %.17g %lld %.9g %.17g %lld\n", sg, se, (long long)sq, g[n - 1], e[n / 3], (long long)q[n - 2]);

    const int ni = 1001, mi = 333;
    double *a = malloc(sizeof(double) * ni * mi), *b = calloc((size_t)ni * mi, sizeof(double));
    for (int k = 0; k < ni * mi; k++) a[k] = (k % 101) * 0.125;
    tri(ni, mi, a, b);
    double sb = 0;
    for (int k = 0; k < ni * mi; k++) sb += b[k] * (k % 5 + 1);
    printf("%.17g\n", sb);

    double y[77];
    for (int i = 0; i < 77; i++) y[i] = i * 0.5;
    for (int t = 0; t < 3000; t++) tiny(77 - t % 5, y, 0.999);
    double sy = 0;
    for (int i = 0; i < 77; i++) sy += y[i] * (i + 1);
    printf("%.17g %.17g\n", sy, y[76]);
    return 0;
}
