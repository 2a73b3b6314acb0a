#include <stdio.h>
#define N 300
static void trmv(int n, const double A[restrict N][N], const double *restrict x, double *restrict y)
{
#pragma translate kernel trmv
    for (int i = 0; i < n; i++) {
        double t = 0.0;
        for (int j = 0; j <= i; j++)
            t += A[i][j] * x[j];
        y[i] = t;
    }
#pragma translate end kernel
}
static void trmv_t(int n, const double A[restrict N][N], const double *restrict x, double *restrict y)
{
#pragma translate kernel trmv_t
    for (int i = 0; i < n; i++) {
        double t = y[i];
        for (int j = i + 1; j < n; j++)
            t += A[j][i] * x[j];
        y[i] = t;
    }
#pragma translate end kernel
}
static void band(int n, const double A[restrict N][N], const double *restrict x, double *restrict y)
{
#pragma translate kernel band
    for (int i = 0; i < n; i++) {
        double t = 0.0;
        for (int j = 0; j <= i + 3 && j < n; j++)
            if (j >= i - 3)
                t += A[i][j] * x[j];
        y[i] = t;
    }
#pragma translate end kernel
}
int main(void)
{
    static double A[N][N], x[N], y[N];
    int sizes[] = {N, 257, 31, 1};
    for (int s = 0; s < 4; s++) {
        int n = sizes[s];
        for (int i = 0; i < N; i++) { x[i] = (i % 13) / 13.0; y[i] = 1.0; for (int j = 0; j < N; j++) A[i][j] = ((i * 11 + j) % 29) / 29.0 - 0.5; }
        trmv(n, A, x, y); double a = 0; for (int i = 0; i < N; i++) a += y[i] * (i % 7 + 1);
        trmv_t(n, A, x, y); double b = 0; for (int i = 0; i < N; i++) b += y[i] * (i % 7 + 1);
        band(n, A, x, y); double c = 0; for (int i = 0; i < N; i++) c += y[i] * (i % 7 + 1);
        printf("%d %a %a %a\n", n, a, b, c);
    }
    return 0;
}
