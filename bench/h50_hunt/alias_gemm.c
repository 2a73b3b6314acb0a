#include <stdio.h>
#define N 100
static void gemm(int n, const double *a, const double *b, double *c)
{
#pragma translate kernel gemm
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int k = 0; k < n; k++)
                s += a[i * n + k] * b[k * n + j];
            c[i * n + j] = s;
        }
#pragma translate end kernel
}
static void acc(int n, const double *a, const double *b, double *c)
{
#pragma translate kernel acc
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                c[i * n + j] += a[i * n + k] * b[k * n + j];
#pragma translate end kernel
}
int main(void)
{
    static double A[N * N], B[N * N], C[N * N];
    for (int i = 0; i < N * N; i++) { A[i] = (i % 17) * 0.125 - 1.0; B[i] = (i % 13) * 0.25; C[i] = 0.5; }
    gemm(N, A, B, C);
    double s = 0; for (int i = 0; i < N * N; i++) s += C[i] * (i % 7 + 1);
    printf("%.17g\n", s);
    gemm(N, A, B, B);   /* aliasing: c is b */
    s = 0; for (int i = 0; i < N * N; i++) s += B[i] * (i % 7 + 1);
    printf("%.17g\n", s);
    for (int i = 0; i < N * N; i++) B[i] = (i % 13) * 0.25;
    acc(N, A, B, A);   /* aliasing: c is a */
    s = 0; for (int i = 0; i < N * N; i++) s += A[i] * (i % 7 + 1);
    printf("%.17g\n", s);
    return 0;
}
