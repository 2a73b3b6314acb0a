#include <stdio.h>
#include <stdint.h>
#include <string.h>
#define N 211
#define M 53
static unsigned long long h(const double *x, int n){ unsigned long long s = 1469598103934665603ULL; for (int i = 0; i < n; i++){ uint64_t b; memcpy(&b, x + i, 8); s = (s ^ b) * 1099511628211ULL; } return s; }
static void syrk_extra(int n, int m, const double A[restrict N][M], double C[restrict N][N], double D[restrict N][N])
{
#pragma translate kernel syrk_extra
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double t = C[i][j] * 0.25, u = 1.0;
            for (int k = 0; k < m; k++) {
                t += A[i][k] * A[j][k];
                u += A[i][k] * 0.5;
            }
            C[i][j] = t;
            D[i][j] = u * t - (double)(i - j);
        }
#pragma translate end kernel
}
static void syrk_two_nests(int n, int m, const double A[restrict N][M], double C[restrict N][N], double D[restrict N][N])
{
#pragma translate kernel syrk_two_nests
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            double t = 0.0;
            for (int k = 0; k < m; k++)
                t += A[i][k] * A[j][k];
            C[i][j] += t;
        }
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) {
            double t = 0.0;
            for (int k = 0; k < m; k++)
                t += A[i][k] * A[j][k] * 2.0;
            D[i][j] = t;
        }
#pragma translate end kernel
}
static void syrk_float(int n, int m, const float A[restrict N][M], float C[restrict N][N])
{
#pragma translate kernel syrk_float
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i - 1; j++) {
            float t = 0.0f;
            for (int k = 0; k < m; k++)
                t += A[i][k] * A[j][k];
            C[i][j] = t;
        }
#pragma translate end kernel
}
int main(void)
{
    static double A[N][M], C[N][N], D[N][N]; static float F[N][M], G[N][N];
    int sz[3][2] = {{N, M}, {N - 80, M - 11}, {16, 16}};
    for (int s = 0; s < 3; s++) {
        int n = sz[s][0], m = sz[s][1];
        for (int i = 0; i < N; i++) for (int k = 0; k < M; k++) { A[i][k] = ((i * 7 + k * 3) % 101) / 101.0 - 0.3; F[i][k] = (float)A[i][k]; }
        for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) { C[i][j] = ((i + j) % 13) / 7.0; D[i][j] = -1; G[i][j] = 3.0f; }
        syrk_extra(n, m, A, C, D); printf("%d extra %016llx %016llx\n", s, h(&C[0][0], N * N), h(&D[0][0], N * N));
        syrk_two_nests(n, m, A, C, D); printf("%d two %016llx %016llx\n", s, h(&C[0][0], N * N), h(&D[0][0], N * N));
        syrk_float(n, m, F, G); double g = 0; for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) g += G[i][j] * ((i + 2 * j) % 5);
        printf("%d float %a\n", s, g);
    }
    return 0;
}
