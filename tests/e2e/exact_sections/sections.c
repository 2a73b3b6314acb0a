/* Exact sections: data clauses and updates of strided sections (columns of a C array, a 4-D
 * box) move exactly their elements; tests/e2e/test_exact_sections.py checks the bytes. */
#include <stdio.h>
#define N 6
#define M 5
static double u[N][M], v[N][M], w[2][3][3][4];

static void show(const double *a, int n)
{
    for (int k = 0; k < n; k++)
        printf("%9.1f%s", a[k], k % 6 == 5 || k == n - 1 ? "\n" : "");
}

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
            u[i][j] = i + 10 * j;
            v[i][j] = i - 10 * j;
        }
    for (int l = 0; l < 2; l++)
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < 3; j++)
                for (int i = 0; i < 4; i++)
                    w[l][k][j][i] = i + 10 * j + 100 * k + 1000 * l;
    /* data clauses on a column section (strided): only the section comes back at the end */
#pragma translate data copy(v[0:N][0:2])
    v[0][3] = -7.0;          /* inside the section's span, outside the section */
#pragma translate end data
#pragma translate enter data copyin(v[1:N-1][2:2])
    v[2][1] = -8.0;
#pragma translate exit data copyout(v[1:N-1][2:2])
#pragma translate data copy(u, w)
#pragma translate kernel whole
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            u[i][j] = u[i][j] + 1000;
#pragma translate end kernel
    /* the host takes column 0 and row 1 and changes them; the device keeps the rest */
#pragma translate update host(u[0:N][0:1], u[1:1][0:M], u[1:N-2][3:1])
    for (int i = 0; i < N; i++)
        printf("%9.1f %9.1f\n", u[i][0], i >= 1 && i <= N - 2 ? u[i][3] : 0.0);
    show(u[1], M);
    for (int i = 0; i < N; i++)
        u[i][0] = -u[i][0];
    for (int j = 0; j < M; j++)
        u[1][j] = 0.5 * u[1][j];
#pragma translate update device(u[0:N][0:1], u[1:1][0:M])
#pragma translate kernel again
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            u[i][j] = u[i][j] + 1;
#pragma translate end kernel
#pragma translate kernel w4
    for (int l = 0; l < 2; l++)
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < 3; j++)
                for (int i = 0; i < 4; i++)
                    w[l][k][j][i] = -w[l][k][j][i];
#pragma translate end kernel
#pragma translate update host(w[0:2][1:1][0:2][1:2])
    for (int l = 0; l < 2; l++)
        for (int j = 0; j < 2; j++)
            printf("%9.1f %9.1f\n", w[l][1][j][1], w[l][1][j][2]);
    for (int l = 0; l < 2; l++)
        for (int j = 0; j < 2; j++)
            w[l][1][j][1] = w[l][1][j][2] = 0.0;
#pragma translate update device(w[0:2][1:1][0:2][1:2])
#pragma translate end data
    show(&u[0][0], N * M);
    show(&v[0][0], N * M);
    show(&w[0][0][0][0], 2 * 3 * 3 * 4);
    return 0;
}
