/* Sections of narrow rows (packed on the device with TRANSLATE_PACK_ROWS): columns of C arrays
 * of 8-, 4-, 2- and 1-byte elements, sizes that are multiples of nothing, a 3-D slice, data
 * clauses, updates both ways, with and without async queues; the host changes elements
 * between the rows of each section, so a copy that is not exact shows in the output
 * (tests/e2e/test_packed_sections.py). */
#include <stdio.h>
#define N 67
#define M 13
static double a[N][M];
static float b[N][M];
static char c[N][M];
static short s[N][M];
static double w[5][7][9];

static void show(const double *x, int n)
{
    double s = 0.0;
    for (int k = 0; k < n; k++)
        s += x[k] * (k % 7 + 1);
    printf("%.1f\n", s);
}

/* Rows i0 <= i < i1 of columns j0 <= j < j1 of a. */
static void columns(int i0, int i1, int j0, int j1)
{
    for (int i = i0; i < i1; i++)
        for (int j = j0; j < j1; j++)
            printf("%.1f%s", a[i][j], j == j1 - 1 ? "\n" : " ");
}

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
            a[i][j] = i + 100 * j;
            b[i][j] = (float)(i - 100 * j);
            c[i][j] = (char)('a' + (i + j) % 26);
            s[i][j] = (short)(i * j - 300);
        }
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 7; j++)
            for (int k = 0; k < 9; k++)
                w[i][j][k] = i + 10 * j + 100 * k;
    /* data clauses on columns of chars (1-byte elements), floats (3 columns: 12 bytes) and
     * shorts (2-byte elements: 3 columns, 6 bytes); their updates of fewer rows are
     * rectangular copies where TRANSLATE_PACK_ROWS packs only the data clauses' copies (then a
     * packed copy that puts the rows in the wrong places shows) */
#pragma translate data copy(c[0:N][3:2], b[0:N][2:3], s[0:N][1:3])
    c[5][2] = '#';            /* outside the sections, inside their spans: kept */
    b[7][5] = -1.5f;
    s[4][5] = -9;
#pragma translate update host(c[1:N-2][4:1], b[1:N-2][3:1], s[1:N-2][2:2])
    for (int i = 1; i < N - 1; i++) {
        printf("%c %.1f %d %d\n", c[i][4], b[i][3], s[i][2], s[i][3]);
        c[i][4] = (char)(c[i][4] - 32);
        b[i][3] = 2 * b[i][3] + i;
        s[i][2] = (short)(3 * s[i][2]);
        s[i][3] = (short)(s[i][3] + i);
    }
#pragma translate update device(c[1:N-2][4:1], b[1:N-2][3:1], s[1:N-2][2:2])
#pragma translate end data
#pragma translate enter data copyin(c[0:N][11:1])
    c[9][10] = '!';           /* outside the section: kept */
#pragma translate exit data copyout(c[0:N][11:1])
#pragma translate data copy(a, w)
#pragma translate kernel step
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            a[i][j] = 2 * a[i][j] + 1;
#pragma translate end kernel
    /* synchronous: two single columns and a column of 3 doubles (24 bytes) */
#pragma translate update host(a[0:N][0:1], a[0:N][M-1:1], a[1:N-3][4:3])
    columns(0, N, 0, 1);
    columns(0, N, M - 1, M);
    columns(1, N - 2, 4, 7);
    for (int i = 0; i < N; i++) {
        a[i][0] = -a[i][0];
        a[i][M - 1] = 0.5 * a[i][M - 1];
    }
#pragma translate update device(a[0:N][0:1], a[0:N][M-1:1])
#pragma translate kernel again async(1)
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            a[i][j] = a[i][j] + 3;
#pragma translate end kernel
    /* async: the host sees the columns at the wait */
#pragma translate update host(a[0:N][1:1], a[2:N-5][7:2]) async(1)
#pragma translate wait(1)
    columns(0, N, 1, 2);
    columns(2, N - 3, 7, 9);
    for (int i = 0; i < N; i++)
        a[i][1] = a[i][1] - 7;
#pragma translate update device(a[0:N][1:1]) async(2)
#pragma translate kernel later async(2)
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            a[i][j] = a[i][j] * 3;
#pragma translate end kernel
#pragma translate wait(2)
    /* a 3-D slice: 5 slices of 4 rows of 2 doubles */
#pragma translate kernel negate
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 7; j++)
            for (int k = 0; k < 9; k++)
                w[i][j][k] = -w[i][j][k];
#pragma translate end kernel
#pragma translate update host(w[0:5][1:4][2:2])
    for (int i = 0; i < 5; i++)
        for (int j = 1; j < 5; j++)
            printf("%.1f %.1f\n", w[i][j][2], w[i][j][3]);
    for (int i = 0; i < 5; i++)
        for (int j = 1; j < 5; j++)
            w[i][j][2] = w[i][j][3] = i * j;
#pragma translate update device(w[0:5][1:4][2:2])
#pragma translate end data
    show(&a[0][0], N * M);
    show(&w[0][0][0], 5 * 7 * 9);
    for (int i = 0; i < N; i++) {
        printf("%.1f %.1f %.1f %.1f %d %d %d %d ", b[i][1], b[i][2], b[i][3], b[i][5], s[i][0],
               s[i][2], s[i][3], s[i][5]);
        fwrite(c[i], 1, M, stdout);
        printf("\n");
    }
    return 0;
}
