#include <stdio.h>
#include <stdint.h>
#include <string.h>
#define N 203
#define M 77
static unsigned long long h(const double *x, int n){ unsigned long long s = 1469598103934665603ULL; for (int i = 0; i < n; i++){ uint64_t b; memcpy(&b, x + i, 8); s = (s ^ b) * 1099511628211ULL; } return s; }
static void syrk_off(int n, int m, const double A[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel syrk_off
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i + 3 && j < n; j++)
            for (int k = 0; k < m; k++)
                C[i][j] += A[i][k] * A[j][k];
#pragma translate end kernel
}
static void syrk_strict(int n, int m, const double A[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel syrk_strict
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) {
            double acc = C[i][j] * 0.5;
            for (int k = 0; k < m; k++)
                acc += A[i][k] * A[j][k];
            C[i][j] = acc * 1.5 + 1.0;
        }
#pragma translate end kernel
}
static void syrk_upper(int n, int m, const double A[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel syrk_upper
    for (int i = 0; i < n; i++)
        for (int j = i - 2 > 0 ? i - 2 : 0; j < n; j++)
            for (int k = 0; k < m; k++)
                C[i][j] += A[i][k] * A[j][k];
#pragma translate end kernel
}
static void syr2k_lower(int n, int m, const double A[restrict N][M], const double B[restrict N][M], double C[restrict N][N])
{
#pragma translate kernel syr2k_lower
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            C[i][j] *= 0.75;
            for (int k = 0; k < m; k++)
                C[i][j] += A[j][k] * 1.25 * B[i][k] + B[j][k] * 1.25 * A[i][k];
        }
#pragma translate end kernel
}
/* trmm-like: B = A^T B with A unit lower triangular, k over a triangle */
static void trmm(int n, int m, const double A[restrict N][N], double B[restrict N][M])
{
#pragma translate kernel trmm
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            for (int k = i + 1; k < n; k++)
                B[i][j] += A[k][i] * B[k][j];
            B[i][j] = 1.5 * B[i][j];
        }
#pragma translate end kernel
}
/* out of place trmm-like: D = tri(A) * B */
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
    static double A[N][M], B[N][M], C[N][N], T[N][N], D[N][M];
    int sizes[3][2] = {{N, M}, {N - 7, M - 20}, {5, 3}};
    for (int s = 0; s < 3; s++) {
        int n = sizes[s][0], m = sizes[s][1];
        for (int i = 0; i < N; i++) for (int k = 0; k < M; k++) { A[i][k] = ((i * 7 + k * 3) % 101) / 101.0 - 0.3; B[i][k] = ((i * 5 + k * 11) % 97) / 97.0; }
        for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) { C[i][j] = ((i + j) % 13) / 7.0; T[i][j] = ((i * 11 + j) % 29) / 29.0 - 0.5; }
        syrk_off(n, m, A, C); printf("%d syrk_off %016llx\n", s, h(&C[0][0], N * N));
        syrk_strict(n, m, A, C); printf("%d syrk_strict %016llx\n", s, h(&C[0][0], N * N));
        syrk_upper(n, m, A, C); printf("%d syrk_upper %016llx\n", s, h(&C[0][0], N * N));
        syr2k_lower(n, m, A, B, C); printf("%d syr2k %016llx\n", s, h(&C[0][0], N * N));
        trmm(n, m, T, B); printf("%d trmm %016llx\n", s, h(&B[0][0], N * M));
        trmm_oop(n, m, T, A, D); printf("%d trmm_oop %016llx\n", s, h(&D[0][0], N * M));
    }
    return 0;
}
