/* Tuning (tests/e2e/test_tuning.py): a dense product, an axpy and atax (a host program of
 * two kernels), each called 30 times. */
#include <stdio.h>
#include <stdlib.h>

static void mm(int n, double a[n][n], double b[n][n], double c[n][n])
{
#pragma translate kernel mm_k
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double acc = 0.0;
            for (int k = 0; k < n; k++)
                acc += a[i][k] * b[k][j];
            c[i][j] = acc;
        }
#pragma translate end kernel
}

static void scale(int n, double *restrict x, double *restrict y)
{
#pragma translate kernel scale_k
    for (int i = 0; i < n; i++)
        y[i] = 2.0 * x[i] + y[i];
#pragma translate end kernel
}

/* two nests, the second reading the first's result: a host program of two kernels */
static void atax(int n, double a[n][n], double *restrict x, double *restrict tmp,
                 double *restrict y)
{
#pragma translate kernel atax_k
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++)
            s += a[i][j] * x[j];
        tmp[i] = s;
    }
    for (int j = 0; j < n; j++) {
        double s = 0.0;
        for (int i = 0; i < n; i++)
            s += a[i][j] * tmp[i];
        y[j] = s;
    }
#pragma translate end kernel
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 40, reps = argc > 2 ? atoi(argv[2]) : 30;
    double (*a)[n] = malloc(sizeof(double) * n * n), (*b)[n] = malloc(sizeof(double) * n * n);
    double (*c)[n] = malloc(sizeof(double) * n * n);
    double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
    double *t = malloc(sizeof(double) * n), *u = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) {
        x[i] = i % 7; y[i] = 0;
        for (int j = 0; j < n; j++) { a[i][j] = (i + j) % 5; b[i][j] = (i * j) % 3; }
    }
    double s = 0;
    for (int r = 0; r < reps; r++) {
        mm(n, a, b, c);
        scale(n, x, y);
        atax(n, a, x, t, u);
        s += c[r % n][(r * 7) % n] + u[r % n];
    }
    printf("%.6f %.6f %.6f\n", s, c[n - 1][n - 1], y[n - 1]);
    return 0;
}
