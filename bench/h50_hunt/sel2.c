#include <stdio.h>
#define N 1001
#define M 37
int main(void)
{
    static double a[N]; static double b[M][N]; static int ib[M][N];
    for (int i = 0; i < N; i++) a[i] = (double)((i * 37) % 11);
    for (int j = 0; j < M; j++) for (int i = 0; i < N; i++) { b[j][i] = (double)((i * 13 + j * 7) % 23); ib[j][i] = (i*5 + j*3) % 19; }
    double m = 1e300; int loc = -1;
#pragma translate kernel reversed
    for (int i = N - 1; i >= 0; i--)
        if (a[i] < m) { m = a[i]; loc = i; }
#pragma translate end kernel
    printf("rev %g %d\n", m, loc);
    m = 1e300; loc = -1;
#pragma translate kernel reversed_le
    for (int i = N - 1; i >= 0; i--)
        if (a[i] <= m) { m = a[i]; loc = i; }
#pragma translate end kernel
    printf("revle %g %d\n", m, loc);
    m = 1e300; loc = -1;
#pragma translate kernel stride
    for (int i = 1; i < N; i += 3)
        if (a[i] < m) { m = a[i]; loc = i; }
#pragma translate end kernel
    printf("stride %g %d\n", m, loc);
    m = 1e300; loc = -1; int locj = -1;
#pragma translate kernel twod
    for (int j = 0; j < M; j++)
        for (int i = 0; i < N; i++)
            if (b[j][i] < m) { m = b[j][i]; loc = i; locj = j; }
#pragma translate end kernel
    printf("2d %g %d %d\n", m, loc, locj);
    m = 1e300; loc = -1; locj = -1;
#pragma translate kernel twod_le
    for (int j = 0; j < M; j++)
        for (int i = 0; i < N; i++)
            if (b[j][i] <= m) { m = b[j][i]; loc = i; locj = j; }
#pragma translate end kernel
    printf("2dle %g %d %d\n", m, loc, locj);
    m = 1e300; loc = -1; locj = -1;
#pragma translate kernel twod_swapped
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            if (b[j][i] >= m || m > 1e299) { m = b[j][i]; loc = i; locj = j; }
#pragma translate end kernel
    printf("2dsw %g %d %d\n", m, loc, locj);
    int im = 1 << 30; int lin = -1;
#pragma translate kernel lin_loc
    for (int j = 0; j < M; j++)
        for (int i = 0; i < N; i++)
            if (ib[j][i] < im) { im = ib[j][i]; lin = j * N + i + 1; }
#pragma translate end kernel
    printf("lin %d %d\n", im, lin);
    /* per-row selection: inner loop reduction, outer parallel */
    static double rowmin[M]; static int rowloc[M];
#pragma translate kernel rows
    for (int j = 0; j < M; j++) {
        double r = 1e300; int rl = -1;
        for (int i = 0; i < N; i++)
            if (b[j][i] <= r) { r = b[j][i]; rl = i; }
        rowmin[j] = r; rowloc[j] = rl;
    }
#pragma translate end kernel
    for (int j = 0; j < M; j++) printf("%g %d\n", rowmin[j], rowloc[j]);
    /* column selection: j inner reduction */
    static double colmax[N]; static int colloc[N];
#pragma translate kernel cols
    for (int i = 0; i < N; i++) {
        double r = -1e300; int rl = -1;
        for (int j = M - 1; j >= 0; j--)
            if (b[j][i] > r) { r = b[j][i]; rl = j; }
        colmax[i] = r; colloc[i] = rl;
    }
#pragma translate end kernel
    long s = 0; for (int i = 0; i < N; i++) s += (long)colmax[i] * 1000 + colloc[i] * (i % 7 + 1);
    printf("cols %ld\n", s);
    /* two selections on the same target */
    m = 1e300;
#pragma translate kernel same_target
    for (int i = 0; i < N; i++) {
        if (a[i] < m) m = a[i];
        if (b[3][i] - 5.0 < m) m = b[3][i] - 5.0;
    }
#pragma translate end kernel
    printf("same %g\n", m);
    return 0;
}
