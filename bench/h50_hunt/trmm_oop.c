#include <stdio.h>
#define N 203
#define M 77
static void trmm_oop(int n, int m, const double A[restrict N][N], const double B[restrict N][M], double D[restrict N][M])
{
#pragma translate kernel trmm_oop
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double acc = 0.0;
            for (int k = 0; k <= i; k++)
                acc += A[i][k] * B[k][j];
            D[i][j] = acc;
        }
#pragma translate end kernel
}
int main(void)
{
    static double A[N][N], B[N][M], D[N][M];
    for (int i = 0; i < N; i++) for (int k = 0; k < M; k++) B[i][k] = ((i * 5 + k * 11) % 97) / 97.0;
    for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) A[i][j] = ((i * 11 + j) % 29) / 29.0 - 0.5;
    trmm_oop(N, M, A, B, D);
    double s = 0; for (int i = 0; i < N; i++) for (int j = 0; j < M; j++) s += D[i][j] * (i + j % 7);
    printf("%a\n", s);
    return 0;
}
