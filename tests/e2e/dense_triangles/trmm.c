/* Products over a triangle in the summed loop (trmm-like, out of place): the range of k
 * depends on the row (k <= i) or the column (k >= j).  Each is still a dense-looking nest
 * (row operand, column operand, a reduction), but a tile step of k is not the same for the
 * rows of one register block: the dense tiling must leave them to the simple mapping. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#define N 203
#define M 77

static unsigned long long bits_hash(const double *x, int n)
{
    unsigned long long s = 1469598103934665603ULL;
    for (int i = 0; i < n; i++) {
        uint64_t b;
        memcpy(&b, x + i, 8);
        s = (s ^ b) * 1099511628211ULL;
    }
    return s;
}

static void lower_times(int n, int m, const double A[restrict N][N],
                        const double B[restrict N][M], double D[restrict N][M])
{
#pragma translate kernel lower_times
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double acc = 0.0;
            for (int k = 0; k <= i; k++)
                acc += A[i][k] * B[k][j];
            D[i][j] = acc;
        }
#pragma translate end kernel
}

static void times_upper(int n, int m, const double B[restrict N][M],
                        const double U[restrict M][M], double D[restrict N][M])
{
#pragma translate kernel times_upper
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            for (int k = j; k < m; k++)
                D[i][j] += B[i][k] * U[k][j];
#pragma translate end kernel
}

int main(void)
{
    static double A[N][N], B[N][M], U[M][M], D[N][M];
    int sizes[2][2] = {{N, M}, {N - 7, M - 20}};
    for (int i = 0; i < N; i++)
        for (int k = 0; k < M; k++)
            B[i][k] = ((i * 5 + k * 11) % 97) / 97.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = ((i * 11 + j) % 29) / 29.0 - 0.5;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++)
            U[i][j] = ((i * 3 + j * 7) % 31) / 31.0;
    for (int s = 0; s < 2; s++) {
        lower_times(sizes[s][0], sizes[s][1], A, B, D);
        printf("lower_times %016llx\n", bits_hash(&D[0][0], N * M));
        times_upper(sizes[s][0], sizes[s][1], B, U, D);
        printf("times_upper %016llx\n", bits_hash(&D[0][0], N * M));
    }
    return 0;
}
