#include <stdio.h>
#define N 1000
static void tail_dot(int n, int m, const double *restrict a, const double *restrict b, double *restrict y)
{
#pragma translate kernel tail_dot
#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("k", 64)
#pragma translate add_prefetch("a", ["k_inner"], default_tag="l.auto", within="iname:k_inner")
    for (int i = 0; i < n; i++) {
        double t = 0.0;
        for (int k = i; k < m; k++)
            t += a[k] * b[k];
        y[i] = t;
    }
#pragma translate end kernel
}
int main(void)
{
    static double a[N], b[N], y[N];
    for (int i = 0; i < N; i++) { a[i] = (i % 17) * 0.125; b[i] = 1.0 / (1 + i % 9); y[i] = -1; }
    int nm[4][2] = {{N, 500}, {N, N}, {300, 999}, {777, 65}};
    for (int s = 0; s < 4; s++) {
        tail_dot(nm[s][0], nm[s][1], a, b, y);
        double z = 0; for (int i = 0; i < N; i++) z += y[i] * (i % 5 + 1);
        printf("%d %a\n", s, z);
    }
    return 0;
}
