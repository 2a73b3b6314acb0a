#include <stdio.h>
#include <stdint.h>
#include <string.h>
#define N 150
#define M 133
#define K 61
static unsigned long long h(const double *x, int n){ unsigned long long s = 1469598103934665603ULL; for (int i = 0; i < n; i++){ uint64_t b; memcpy(&b, x + i, 8); s = (s ^ b) * 1099511628211ULL; } return s; }
static void two_acc(int n, int m, int p, const double A[restrict N][K], const double B[restrict K][M], double C[restrict N][M], double D[restrict N][M])
{
#pragma translate kernel two_acc
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double s = 0.0, t = 1.0;
            for (int k = 0; k < p; k++) {
                s += A[i][k] * B[k][j];
                t += A[i][k] - B[k][j];
            }
            C[i][j] = s;
            D[i][j] = t * s;
        }
#pragma translate end kernel
}
static void cond_acc(int n, int m, int p, const double A[restrict N][K], const double B[restrict K][M], double C[restrict N][M])
{
#pragma translate kernel cond_acc
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double s = C[i][j];
            for (int k = 0; k < p; k++)
                if (A[i][k] > 0.1) s += A[i][k] * B[k][j];
            C[i][j] = s;
        }
#pragma translate end kernel
}
static void rowcol_only(int n, int m, int p, const double A[restrict N][K], const double B[restrict K][M], double C[restrict N][M])
{
#pragma translate kernel rowcol_only
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double s = 0.0;
            for (int k = 0; k < p; k++)
                s += A[i][k] * B[k][j] + A[i][k] * 0.5 + B[k][j] * k;
            C[i][j] = s + i - j;
        }
#pragma translate end kernel
}
static void in_place_twice(int n, int m, int p, const double A[restrict N][K], const double B[restrict K][M], double C[restrict N][M])
{
#pragma translate kernel in_place_twice
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            for (int k = 0; k < p; k++) {
                C[i][j] += A[i][k] * B[k][j];
                C[i][j] *= 0.999;
            }
#pragma translate end kernel
}
static void first_k(int n, int m, int p, const double A[restrict N][K], const double B[restrict K][M], double C[restrict N][M])
{
#pragma translate kernel first_k
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double s = 0.0;
            for (int k = 1; k < p - 1; k++)
                s += A[i][k - 1] * B[k + 1][j];
            C[i][j] = s;
        }
#pragma translate end kernel
}
int main(void)
{
    static double A[N][K], B[K][M], C[N][M], D[N][M];
    int sz[3][3] = {{N, M, K}, {N - 13, M - 1, K - 4}, {17, 65, 33}};
    for (int s = 0; s < 3; s++) {
        int n = sz[s][0], m = sz[s][1], p = sz[s][2];
        for (int i = 0; i < N; i++) for (int k = 0; k < K; k++) A[i][k] = ((i * 7 + k * 3) % 101) / 101.0 - 0.3;
        for (int k = 0; k < K; k++) for (int j = 0; j < M; j++) B[k][j] = ((k * 5 + j * 11) % 97) / 97.0;
        for (int i = 0; i < N; i++) for (int j = 0; j < M; j++) { C[i][j] = ((i + j) % 13) / 7.0; D[i][j] = -1; }
        two_acc(n, m, p, A, B, C, D); printf("two %016llx %016llx\n", h(&C[0][0], N*M), h(&D[0][0], N*M));
        cond_acc(n, m, p, A, B, C); printf("cond %016llx\n", h(&C[0][0], N*M));
        rowcol_only(n, m, p, A, B, C); printf("rc %016llx\n", h(&C[0][0], N*M));
        in_place_twice(n, m, p, A, B, C); printf("ip %016llx\n", h(&C[0][0], N*M));
        first_k(n, m, p, A, B, C); printf("fk %016llx\n", h(&C[0][0], N*M));
    }
    return 0;
}
