/* NDRanges with many work groups along the second and third axes (more than 65535, CUDA's
 * grid limit in y and z): a 2-D nest of 600001 x 33 and a 3-D nest of 70001 x 5 x 7. */
#include <stdio.h>
#include <stdlib.h>

static void rows(int ni, int nj, const double *restrict a, double *restrict b)
{
#pragma translate kernel rows
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++)
            b[i * nj + j] = a[i * nj + j] * 2.0 + i - j;
#pragma translate end kernel
}

static void planes(int nk, int nj, int ni, const float *restrict u, float *restrict v)
{
#pragma translate kernel planes
    for (int k = 0; k < nk; k++)
        for (int j = 0; j < nj; j++)
            for (int i = 0; i < ni; i++)
                v[(k * nj + j) * ni + i] = u[(k * nj + j) * ni + i] + 0.5f * k - 0.25f * j + i;
#pragma translate end kernel
}

static void rows_pinned(int ni, int nj, const double *restrict a, double *restrict b)
{
#pragma translate kernel rows_pinned
#pragma translate split_iname("i", 4, outer_tag="g.1", inner_tag="l.1")
#pragma translate split_iname("j", 32, outer_tag="g.0", inner_tag="l.0")
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++)
            b[i * nj + j] = a[i * nj + j] - 3.0 * i;
#pragma translate end kernel
}

int main(void)
{
    const int ni = 600001, nj = 33, nk = 70001, nj3 = 5, ni3 = 7;
    double *a = malloc(sizeof(double) * ni * nj), *b = malloc(sizeof(double) * ni * nj);
    float *u = malloc(sizeof(float) * nk * nj3 * ni3), *v = malloc(sizeof(float) * nk * nj3 * ni3);
    for (long t = 0; t < (long)ni * nj; t++) { a[t] = (t % 1009) * 0.5; b[t] = -1.0; }
    for (long t = 0; t < (long)nk * nj3 * ni3; t++) { u[t] = (float)(t % 97); v[t] = -1.0f; }
    rows(ni, nj, a, b);
    double s = 0;
    for (long t = 0; t < (long)ni * nj; t++) s += b[t] * (t % 3 + 1);
    planes(nk, nj3, ni3, u, v);
    double w = 0;
    for (long t = 0; t < (long)nk * nj3 * ni3; t++) w += v[t] * (t % 5 + 1);
    rows_pinned(ni, nj, a, b);
    double s2 = 0;
    for (long t = 0; t < (long)ni * nj; t++) s2 += b[t] * (t % 7 + 1);
    printf("%.17g %.17g %.17g %.17g %.9g\n", s, b[(long)ni * nj - 1], s2, w, v[nk * nj3 * ni3 - 1]);
    return 0;
}
