/* translate-test: rtol=1e-4 translate=--directives=openmp */
/* OpenMP reductions (the clause consents to reassociation) over triangles and rectangles:
 * double and float sums, a float accumulator of double terms, integer max/min, 64-bit
 * integer sums, arg-max with ties (first and last wins). */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

static void tri(int n, const double *restrict a, const int *restrict k, double *ds, float *fs,
                long long *is, int *imx, int *imn)
{
    double s = 0; float f = 0; long long q = 0; int mx = -2147483647, mn = 2147483647;
#pragma omp target teams distribute parallel for collapse(2) reduction(+:s, f, q) reduction(max:mx) reduction(min:mn)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            s += a[i * n + j] * (j <= i);
            f += (float)a[j * n + i];
            q += (long long)k[i * n + j] * (i + 1);
            mx = k[i * n + j] > mx ? k[i * n + j] : mx;
            mn = k[i * n + j] < mn ? k[i * n + j] : mn;
        }
    *ds = s; *fs = f; *is = q; *imx = mx; *imn = mn;
}

static void amax(int n, const float *restrict v, float *best, int *at, float *best2, int *at2)
{
    float m = -1.0f, m2 = -1.0f; int l = -1, l2 = -1;
#pragma translate kernel amax
    for (int i = 0; i < n; i++) {
        if (v[i] > m) { m = v[i]; l = i; }
    }
    for (int i = 0; i < n; i++) {
        if (v[i] >= m2) { m2 = v[i]; l2 = i; }
    }
#pragma translate end kernel
    *best = m; *at = l; *best2 = m2; *at2 = l2;
}

int main(void)
{
    const int n = 1531, nv = 5000011;
    double *a = malloc(sizeof(double) * n * n);
    int *k = malloc(sizeof(int) * n * n);
    float *v = malloc(sizeof(float) * nv);
    for (int t = 0; t < n * n; t++) {
        a[t] = sin(t * 0.001) * 3.0 + 1.0 / (1 + t % 17);
        k[t] = (int)((t * 2654435761u) >> 7) - (1 << 24);
    }
    for (int t = 0; t < nv; t++) v[t] = (float)((t * 7919) % 100003);   /* many ties */
    for (int rep = 0; rep < 10; rep++) {
        double ds; float fs; long long is; int mx, mn, at, at2; float b, b2;
        k[rep * 1000] = 1 << 30; k[rep * 2001 + 5] = -(1 << 30) - rep;
        tri(n - rep, a, k, &ds, &fs, &is, &mx, &mn);
        v[(rep * 99991) % nv] = 100003.0f + rep % 3;
        amax(nv - rep, v, &b, &at, &b2, &at2);
        printf("%d %.15e %.6e %lld %d %d %.9g %d %.9g %d\n", rep, ds, fs, is, mx, mn, b, at, b2, at2);
    }
    return 0;
}
