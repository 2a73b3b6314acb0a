#include <stdio.h>
#include <stdint.h>
#include <string.h>
#define N 260
#define M 40
static unsigned long long h(const double *x, int n){ unsigned long long s = 1469598103934665603ULL; for (int i = 0; i < n; i++){ uint64_t b; memcpy(&b, x + i, 8); s = (s ^ b) * 1099511628211ULL; } return s; }
static void lo0(int n, int m, const double A[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel lo0
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i - 5 && j < n; j++) {
            double t = 0.0;
            for (int k = 0; k < m; k++)
                t += A[i][k] * A[j][k];
            C[i][j] = 0.5 * C[i][j] + t;
        }
#pragma translate end kernel
}
static void up0(int n, int m, const double A[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel up0
    for (int i = 0; i < n; i++)
        for (int j = (i - 5 > 0 ? i - 5 : 0); j < n; j++)
            for (int k = 0; k < m; k++)
                C[i][j] += A[i][k] * A[j][k];
#pragma translate end kernel
}
static void lo1(int n, int m, const double A[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel lo1
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i - 1 && j < n; j++) {
            double t = 0.0;
            for (int k = 0; k < m; k++)
                t += A[i][k] * A[j][k];
            C[i][j] = 0.5 * C[i][j] + t;
        }
#pragma translate end kernel
}
static void up1(int n, int m, const double A[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel up1
    for (int i = 0; i < n; i++)
        for (int j = (i - 1 > 0 ? i - 1 : 0); j < n; j++)
            for (int k = 0; k < m; k++)
                C[i][j] += A[i][k] * A[j][k];
#pragma translate end kernel
}
static void lo2(int n, int m, const double A[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel lo2
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i + 0 && j < n; j++) {
            double t = 0.0;
            for (int k = 0; k < m; k++)
                t += A[i][k] * A[j][k];
            C[i][j] = 0.5 * C[i][j] + t;
        }
#pragma translate end kernel
}
static void up2(int n, int m, const double A[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel up2
    for (int i = 0; i < n; i++)
        for (int j = (i + 0 > 0 ? i + 0 : 0); j < n; j++)
            for (int k = 0; k < m; k++)
                C[i][j] += A[i][k] * A[j][k];
#pragma translate end kernel
}
static void lo3(int n, int m, const double A[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel lo3
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i + 1 && j < n; j++) {
            double t = 0.0;
            for (int k = 0; k < m; k++)
                t += A[i][k] * A[j][k];
            C[i][j] = 0.5 * C[i][j] + t;
        }
#pragma translate end kernel
}
static void up3(int n, int m, const double A[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel up3
    for (int i = 0; i < n; i++)
        for (int j = (i + 1 > 0 ? i + 1 : 0); j < n; j++)
            for (int k = 0; k < m; k++)
                C[i][j] += A[i][k] * A[j][k];
#pragma translate end kernel
}
static void lo4(int n, int m, const double A[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel lo4
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i + 4 && j < n; j++) {
            double t = 0.0;
            for (int k = 0; k < m; k++)
                t += A[i][k] * A[j][k];
            C[i][j] = 0.5 * C[i][j] + t;
        }
#pragma translate end kernel
}
static void up4(int n, int m, const double A[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel up4
    for (int i = 0; i < n; i++)
        for (int j = (i + 4 > 0 ? i + 4 : 0); j < n; j++)
            for (int k = 0; k < m; k++)
                C[i][j] += A[i][k] * A[j][k];
#pragma translate end kernel
}
static void lo5(int n, int m, const double A[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel lo5
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i + 9 && j < n; j++) {
            double t = 0.0;
            for (int k = 0; k < m; k++)
                t += A[i][k] * A[j][k];
            C[i][j] = 0.5 * C[i][j] + t;
        }
#pragma translate end kernel
}
static void up5(int n, int m, const double A[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel up5
    for (int i = 0; i < n; i++)
        for (int j = (i + 9 > 0 ? i + 9 : 0); j < n; j++)
            for (int k = 0; k < m; k++)
                C[i][j] += A[i][k] * A[j][k];
#pragma translate end kernel
}
static void lo6(int n, int m, const double A[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel lo6
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i + 40 && j < n; j++) {
            double t = 0.0;
            for (int k = 0; k < m; k++)
                t += A[i][k] * A[j][k];
            C[i][j] = 0.5 * C[i][j] + t;
        }
#pragma translate end kernel
}
static void up6(int n, int m, const double A[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel up6
    for (int i = 0; i < n; i++)
        for (int j = (i + 40 > 0 ? i + 40 : 0); j < n; j++)
            for (int k = 0; k < m; k++)
                C[i][j] += A[i][k] * A[j][k];
#pragma translate end kernel
}
int main(void)
{
    static double A[N][M], C[N][N];
    static const int sizes[] = {1, 2, 15, 16, 17, 127, 128, 129, 255, 257};
    for (int s = 0; s < 10; s++) {
    int n = sizes[s], m = (s % 3 == 0) ? M : M - 7 - s;
    for (int i = 0; i < N; i++) for (int k = 0; k < M; k++) A[i][k] = ((i * 7 + k * 3) % 101) / 101.0 - 0.3;
    for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) C[i][j] = ((i + j) % 13) / 7.0;
    lo0(n, m, A, C); printf("%d lo0 %016llx\n", n, h(&C[0][0], N * N));
    up0(n, m, A, C); printf("%d up0 %016llx\n", n, h(&C[0][0], N * N));
    lo1(n, m, A, C); printf("%d lo1 %016llx\n", n, h(&C[0][0], N * N));
    up1(n, m, A, C); printf("%d up1 %016llx\n", n, h(&C[0][0], N * N));
    lo2(n, m, A, C); printf("%d lo2 %016llx\n", n, h(&C[0][0], N * N));
    up2(n, m, A, C); printf("%d up2 %016llx\n", n, h(&C[0][0], N * N));
    lo3(n, m, A, C); printf("%d lo3 %016llx\n", n, h(&C[0][0], N * N));
    up3(n, m, A, C); printf("%d up3 %016llx\n", n, h(&C[0][0], N * N));
    lo4(n, m, A, C); printf("%d lo4 %016llx\n", n, h(&C[0][0], N * N));
    up4(n, m, A, C); printf("%d up4 %016llx\n", n, h(&C[0][0], N * N));
    lo5(n, m, A, C); printf("%d lo5 %016llx\n", n, h(&C[0][0], N * N));
    up5(n, m, A, C); printf("%d up5 %016llx\n", n, h(&C[0][0], N * N));
    lo6(n, m, A, C); printf("%d lo6 %016llx\n", n, h(&C[0][0], N * N));
    up6(n, m, A, C); printf("%d up6 %016llx\n", n, h(&C[0][0], N * N));
    }
    return 0;
}
