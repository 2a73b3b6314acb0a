/* Work groups at the device's limit and a register-heavy kernel in them: 1024 work items in
 * 1-D and 32 x 32 in 2-D. */
#include <stdio.h>
#include <stdlib.h>

static void heavy(int n, const double *restrict x, double *restrict y)
{
#pragma translate kernel heavy
#pragma translate split_iname("i", 1024, outer_tag="g.0", inner_tag="l.0")
    for (int i = 0; i < n; i++) {
        double a0 = x[i], a1 = a0 * 1.1 + 0.1, a2 = a1 * a0 - 0.2, a3 = a2 * a1 + a0, a4 = a3 * a2 - a1;
        double a5 = a4 * a3 + a2, a6 = a5 * a4 - a3, a7 = a6 * 0.5 + a5 * 0.25, a8 = a7 * a6 - a4;
        double a9 = a8 + a7 * a5 - a3 * a1, a10 = a9 * a8 + a6 * a2, a11 = a10 - a9 * a7 + a0;
        y[i] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11;
    }
#pragma translate end kernel
}

static void sq(int n, int m, const float *restrict a, float *restrict b)
{
#pragma translate kernel sq
#pragma translate split_iname("i", 32, outer_tag="g.1", inner_tag="l.1")
#pragma translate split_iname("j", 32, outer_tag="g.0", inner_tag="l.0")
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            b[i * m + j] = a[i * m + j] * a[i * m + j] - 0.5f * a[j * 0 + i];
#pragma translate end kernel
}

int main(void)
{
    const int n = 1000003, ni = 999, mj = 1025;
    double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
    float *a = malloc(sizeof(float) * ni * mj), *b = malloc(sizeof(float) * ni * mj);
    for (int i = 0; i < n; i++) x[i] = (i % 1000) * 1.0e-3 - 0.5;
    for (int k = 0; k < ni * mj; k++) a[k] = (float)((k % 211) * 0.01);
    heavy(n, x, y);
    sq(ni, mj, a, b);
    double s = 0, t = 0;
    for (int i = 0; i < n; i++) s += y[i] * (i % 7);
    for (int k = 0; k < ni * mj; k++) t += b[k] * (k % 3);
    printf("%.17g %.17g %.17g %.9g\n", s, y[n - 1], t, b[ni * mj - 1]);
    return 0;
}
