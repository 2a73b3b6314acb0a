#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <math.h>
#define N 3001
static void show(const char *w, double x){uint64_t b; memcpy(&b,&x,8); printf("%s %016llx\n", w,(unsigned long long)b);}
int main(void)
{
    static double a[N]; static int mask[N]; static int ia[N];
    for (int i = 0; i < N; i++) { a[i] = (double)((i * 7919) % 1013) - 500.0; mask[i] = (i % 3) != 0; ia[i] = (i*31)%97 - 40; }
    a[17] = -600.0; a[2000] = -600.0; a[18] = -700.0; mask[18] = 0;
    double m = 1e300; int loc = -1;
    /* argmin with location, strict */
#pragma translate kernel argmin_loc
    for (int i = 0; i < N; i++)
        if (a[i] < m) { m = a[i]; loc = i; }
#pragma translate end kernel
    show("m", m); printf("loc %d\n", loc);
    double m2 = 1e300; int loc2 = -1;
#pragma translate kernel argmin_le
    for (int i = 0; i < N; i++)
        if (a[i] <= m2) { m2 = a[i]; loc2 = i; }
#pragma translate end kernel
    show("m2", m2); printf("loc2 %d\n", loc2);
    double m3 = 1e300; int loc3 = -1;
#pragma translate kernel masked
    for (int i = 0; i < N; i++)
        if (mask[i]) { if (a[i] < m3) { m3 = a[i]; loc3 = i; } }
#pragma translate end kernel
    show("m3", m3); printf("loc3 %d\n", loc3);
    double m4 = 1e300;
#pragma translate kernel masked_and
    for (int i = 0; i < N; i++)
        if (mask[i] && a[i] < m4) m4 = a[i];
#pragma translate end kernel
    show("m4", m4);
    double m5 = 1e300;
#pragma translate kernel expr_sel
    for (int i = 0; i < N; i++)
        if (a[i] * a[i] - 3.0 * a[i] < m5) m5 = a[i] * a[i] - 3.0 * a[i];
#pragma translate end kernel
    show("m5", m5);
    int im = 1000; int iloc = 0;
#pragma translate kernel int_sel
    for (int i = 0; i < N; i++)
        if (ia[i] < im) { im = ia[i]; iloc = i; }
#pragma translate end kernel
    printf("im %d %d\n", im, iloc);
    double mx = -1e300, mn = 1e300; int lmx = 0, lmn = 0;
#pragma translate kernel both
    for (int i = 0; i < N; i++) {
        if (a[i] > mx) { mx = a[i]; lmx = i; }
        if (a[i] < mn) { mn = a[i]; lmn = i; }
    }
#pragma translate end kernel
    show("mx", mx); show("mn", mn); printf("%d %d\n", lmx, lmn);
    /* int target, float values: mixed */
    double fm = 1e300; int cnt = 0;
#pragma translate kernel sel_plus_count
    for (int i = 0; i < N; i++) {
        if (a[i] < fm) fm = a[i];
        if (a[i] > 0) cnt += 1;
    }
#pragma translate end kernel
    show("fm", fm); printf("cnt %d\n", cnt);
    /* selection of a different value than compared: m tracks a, val records ia */
    double best = 1e300; int val = -99;
#pragma translate kernel sel_other
    for (int i = 0; i < N; i++)
        if (a[i] < best) { best = a[i]; val = ia[i]; }
#pragma translate end kernel
    show("best", best); printf("val %d\n", val);
    /* else branch */
    double lo = 1e300, hi = -1e300;
#pragma translate kernel sel_else
    for (int i = 0; i < N; i++) {
        if (a[i] < lo) lo = a[i];
        else if (a[i] > hi) hi = a[i];
    }
#pragma translate end kernel
    show("lo", lo); show("hi", hi);
    return 0;
}
