/* Stencils with tiles in local memory (add_prefetch) on sizes that are not multiples of the
 * tile, in a time loop inside a data region: 16x16 and 8x32 tiles, float and double. */
#include <stdio.h>
#include <stdlib.h>
#define NI 1003
#define NJ 517

static void step_d(int ni, int nj, const double u[][NJ], double v[][NJ])
{
#pragma translate kernel step_d
#pragma translate split_iname("i", 16, outer_tag="g.1", inner_tag="l.1")
#pragma translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
#pragma translate add_prefetch("u", ["i_inner", "j_inner"], fetch_bounding_box=True)
    for (int i = 1; i < ni - 1; i++)
        for (int j = 1; j < nj - 1; j++)
            v[i][j] = 0.2 * (u[i][j] + u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
#pragma translate end kernel
}

static void step_f(int ni, int nj, const float a[][NJ], float b[][NJ])
{
#pragma translate kernel step_f
#pragma translate split_iname("i", 8, outer_tag="g.1", inner_tag="l.1")
#pragma translate split_iname("j", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate add_prefetch("a", ["i_inner", "j_inner"], fetch_bounding_box=True)
    for (int i = 2; i < ni - 2; i++)
        for (int j = 2; j < nj - 2; j++)
            b[i][j] = 0.25f * a[i][j] + 0.125f * (a[i - 2][j] + a[i + 2][j] + a[i][j - 2] + a[i][j + 2])
                      + 0.0625f * (a[i - 1][j - 1] + a[i + 1][j + 1] + a[i - 1][j + 1] + a[i + 1][j - 1]);
#pragma translate end kernel
}

int main(void)
{
    static double u[NI][NJ], v[NI][NJ];
    static float a[NI][NJ], b[NI][NJ];
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
            u[i][j] = v[i][j] = ((i * 37 + j * 11) % 101) * 0.01;
            a[i][j] = b[i][j] = (float)(((i * 13 + j * 29) % 97) * 0.02);
        }
#pragma translate data copy(u, v, a, b)
    for (int t = 0; t < 25; t++) {
        step_d(NI, NJ, u, v);
        step_d(NI, NJ, v, u);
        step_f(NI, NJ, a, b);
        step_f(NI, NJ, b, a);
    }
#pragma translate end data
    double s = 0, w = 0;
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
            s += u[i][j] * ((i + 3 * j) % 7 + 1);
            w += a[i][j] * ((3 * i + j) % 5 + 1);
        }
    printf("%.17g %.17g %.17g %.9g %.9g\n", s, u[NI / 2][NJ / 3], u[1][NJ - 2], w, a[NI - 3][2]);
    return 0;
}
