#include <stdio.h>
#include <math.h>
#define N 2000
int main(void)
{
    static double a[N], run[N]; static int loc_at[N];
    for (int i = 0; i < N; i++) a[i] = (double)((i * 7919) % 1013) - 500.0;
    a[7] = NAN; a[1500] = -501.0; a[1700] = -501.0;
    double m = 1e300; int loc = -1;
#pragma translate kernel running
    for (int i = 0; i < N; i++) {
        if (a[i] < m) { m = a[i]; loc = i; }
        run[i] = m;
        loc_at[i] = loc;
    }
#pragma translate end kernel
    double s = 0; long ls = 0; for (int i = 0; i < N; i++) { s += run[i]; ls += loc_at[i]; }
    printf("%.17g %d %.17g %ld\n", m, loc, s, ls);
    m = 1e300; loc = -1; int cnt = 0;
#pragma translate kernel count_improve
    for (int i = 0; i < N; i++)
        if (a[i] < m) { m = a[i]; loc = i; cnt++; }
#pragma translate end kernel
    printf("%.17g %d %d\n", m, loc, cnt);
    m = 1e300; loc = -1;
#pragma translate kernel loc_expr
    for (int i = 0; i < N; i++)
        if (a[i] < m) { m = a[i]; loc = 2 * i + 1; }
#pragma translate end kernel
    printf("%.17g %d\n", m, loc);
    m = 1e300; loc = -1;
#pragma translate kernel loc_first_then_m
    for (int i = 0; i < N; i++)
        if (a[i] < m) { loc = i; m = a[i]; }
#pragma translate end kernel
    printf("%.17g %d\n", m, loc);
    m = 1e300; loc = -1;
#pragma translate kernel m_used_before
    for (int i = 0; i < N; i++) {
        double d = a[i] - m;
        if (d < 0.0) { m = a[i]; loc = i; }
    }
#pragma translate end kernel
    printf("%.17g %d\n", m, loc);
    m = 1e300; double m2 = 1e300; loc = -1;
#pragma translate kernel chained
    for (int i = 0; i < N; i++) {
        if (a[i] < m) { m = a[i]; loc = i; }
        if (m < m2) m2 = m;
    }
#pragma translate end kernel
    printf("%.17g %.17g %d\n", m, m2, loc);
    m = -1e300; loc = 0;
#pragma translate kernel abs_sel
    for (int i = 0; i < N; i++)
        if (fabs(a[i]) > m) { m = fabs(a[i]); loc = i; }
#pragma translate end kernel
    printf("%.17g %d\n", m, loc);
    m = 1e300; loc = 0;
#pragma translate kernel partial_range
    for (int i = 3; i < N - 5; i += 2)
        if (a[i] <= m) { m = a[i]; loc = i; }
#pragma translate end kernel
    printf("%.17g %d\n", m, loc);
    return 0;
}
