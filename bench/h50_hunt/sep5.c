#include <stdio.h>
#define NN 300
static double y[13 * NN + 8];
static void reset(void) { for (int i = 0; i < 13 * NN + 8; i++) y[i] = (i % 37) * 0.25 - 3.0; }
static void dump(const char *w, int n) { double s = 0; for (int i = 0; i < 13 * NN + 8; i++) s += y[i] * ((i % 11) + 1); printf("%s %d %.17g\n", w, n, s); }
static void r0(int n, double *restrict y)
{
#pragma translate kernel r0
    for (int i = 0; i < n; i++) {
        y[4 * n + i + 0] = y[4 * n + i + 0] * 0.5;
        y[0 * n + i + 0] = y[0 * n + i + 0] - 2.0;
        y[8 * n + i + 0] = y[8 * n + i + 0] + 1.0;
        y[7 * n + i + 1] = y[7 * n + i + 0] - 2.0;
        y[5 * n + i + -1] = y[5 * n + i + 0] + 1.0;
        y[3 * n + i + 0] = y[3 * n + i + 0] - 2.0;
        y[10 * n + i + 0] = y[10 * n + i + 0] + 1.0;
        y[1 * n + i + 0] = y[1 * n + i + 0] + 1.0;
        y[11 * n + i + 0] = y[11 * n + i + 0] - 2.0;
    }
#pragma translate end kernel
}
static void r1(int n, double *restrict y)
{
#pragma translate kernel r1
    for (int i = 0; i < n; i++) {
        y[0 * n + i + 0] = y[0 * n + i + 0] - 2.0;
        y[3 * n + i + 0] = y[3 * n + i + 0] - 2.0;
        y[8 * n + i + 0] = y[8 * n + i + 0] - 2.0;
        y[7 * n + i + 0] = y[7 * n + i + 0] - 2.0;
        y[9 * n + i + 0] = y[9 * n + i + 0] + 1.0;
        y[1 * n + i + 0] = y[1 * n + i + 0] + 1.0;
        y[6 * n + i + 0] = y[6 * n + i + 0] - 2.0;
        y[11 * n + i + 0] = y[11 * n + i + 0] * 0.5;
        y[5 * n + i + 0] = y[5 * n + i + 0] - 2.0;
    }
#pragma translate end kernel
}
static void r2(int n, double *restrict y)
{
#pragma translate kernel r2
    for (int i = 0; i < n; i++) {
        y[11 * n + i + 0] = y[11 * n + i + 0] + 1.0;
        y[9 * n + i + 0] = y[9 * n + i + 0] - 2.0;
        y[6 * n + i + 0] = y[6 * n + i + 0] + 1.0;
        y[8 * n + i + 0] = y[8 * n + i + 0] + 1.0;
        y[0 * n + i + 0] = y[0 * n + i + 0] + 1.0;
        y[1 * n + i + 0] = y[1 * n + i + 0] * 0.5;
        y[2 * n + i + 0] = y[2 * n + i + 0] * 0.5;
        y[3 * n + i + 0] = y[3 * n + i + 0] * 0.5;
        y[7 * n + i + 0] = y[7 * n + i + 0] * 0.5;
    }
#pragma translate end kernel
}
static void r3(int n, double *restrict y)
{
#pragma translate kernel r3
    for (int i = 0; i < n; i++) {
        y[10 * n + i + 0] = y[3 * n + i + 1] * 0.5;
        y[8 * n + i + 0] = y[8 * n + i + 0] - 2.0;
        y[7 * n + i + 0] = y[7 * n + i + 0] + 1.0;
        y[0 * n + i + 0] = y[0 * n + i + 0] + 1.0;
        y[9 * n + i + 0] = y[9 * n + i + 0] + 1.0;
        y[2 * n + i + 0] = y[2 * n + i + 0] + 1.0;
        y[5 * n + i + 2] = y[5 * n + i + 0] * 0.5;
        y[11 * n + i + 0] = y[1 * n + i + 0] * 0.5;
        y[4 * n + i + 0] = y[4 * n + i + 0] - 2.0;
    }
#pragma translate end kernel
}
static void r4(int n, double *restrict y)
{
#pragma translate kernel r4
    for (int i = 0; i < n; i++) {
        y[9 * n + i + 0] = y[9 * n + i + 1] * 0.5;
        y[11 * n + i + 0] = y[11 * n + i + 0] * 0.5;
        y[3 * n + i + 0] = y[3 * n + i + 0] * 0.5;
        y[4 * n + i + 0] = y[4 * n + i + 1] * 0.5;
        y[5 * n + i + 0] = y[5 * n + i + 0] - 2.0;
        y[1 * n + i + 0] = y[1 * n + i + 0] * 0.5;
        y[6 * n + i + 2] = y[6 * n + i + 0] - 2.0;
        y[0 * n + i + 0] = y[0 * n + i + 0] - 2.0;
        y[7 * n + i + 0] = y[7 * n + i + 0] - 2.0;
    }
#pragma translate end kernel
}
static void r5(int n, double *restrict y)
{
#pragma translate kernel r5
    for (int i = 0; i < n; i++) {
        y[7 * n + i + 0] = y[7 * n + i + 1] + 1.0;
        y[2 * n + i + 0] = y[2 * n + i + 0] * 0.5;
        y[11 * n + i + 0] = y[11 * n + i + 0] * 0.5;
        y[9 * n + i + 0] = y[9 * n + i + 0] - 2.0;
        y[10 * n + i + 0] = y[10 * n + i + 0] * 0.5;
        y[8 * n + i + 0] = y[8 * n + i + 0] + 1.0;
        y[1 * n + i + 0] = y[3 * n + i + 0] * 0.5;
        y[3 * n + i + 0] = y[3 * n + i + 0] - 2.0;
        y[4 * n + i + 0] = y[4 * n + i + 0] + 1.0;
    }
#pragma translate end kernel
}
static void r6(int n, double *restrict y)
{
#pragma translate kernel r6
    for (int i = 0; i < n; i++) {
        y[8 * n + i + 0] = y[8 * n + i + 0] * 0.5;
        y[6 * n + i + 0] = y[6 * n + i + 0] * 0.5;
        y[2 * n + i + 0] = y[2 * n + i + 0] - 2.0;
        y[9 * n + i + 0] = y[9 * n + i + 0] * 0.5;
        y[10 * n + i + 0] = y[10 * n + i + 0] - 2.0;
        y[11 * n + i + 0] = y[11 * n + i + 0] - 2.0;
        y[4 * n + i + 0] = y[4 * n + i + 0] + 1.0;
        y[7 * n + i + 0] = y[7 * n + i + 0] - 2.0;
        y[0 * n + i + 0] = y[0 * n + i + 0] * 0.5;
    }
#pragma translate end kernel
}
static void r7(int n, double *restrict y)
{
#pragma translate kernel r7
    for (int i = 0; i < n; i++) {
        y[2 * n + i + 0] = y[2 * n + i + 0] * 0.5;
        y[11 * n + i + 0] = y[11 * n + i + 0] - 2.0;
        y[4 * n + i + 0] = y[4 * n + i + 0] - 2.0;
        y[0 * n + i + 0] = y[0 * n + i + 0] - 2.0;
        y[6 * n + i + 0] = y[6 * n + i + 0] + 1.0;
        y[3 * n + i + 0] = y[3 * n + i + 0] + 1.0;
        y[10 * n + i + 0] = y[10 * n + i + 0] - 2.0;
        y[1 * n + i + 0] = y[1 * n + i + 0] - 2.0;
        y[7 * n + i + 0] = y[7 * n + i + 0] - 2.0;
    }
#pragma translate end kernel
}
static void r8(int n, double *restrict y)
{
#pragma translate kernel r8
    for (int i = 0; i < n; i++) {
        y[5 * n + i + 0] = y[5 * n + i + 0] * 0.5;
        y[9 * n + i + 0] = y[9 * n + i + 0] + 1.0;
        y[8 * n + i + 0] = y[8 * n + i + 0] + 1.0;
        y[4 * n + i + 0] = y[4 * n + i + 0] * 0.5;
        y[0 * n + i + 0] = y[0 * n + i + 0] - 2.0;
        y[10 * n + i + 0] = y[10 * n + i + 0] + 1.0;
        y[7 * n + i + 0] = y[7 * n + i + 0] + 1.0;
        y[1 * n + i + -1] = y[1 * n + i + 0] - 2.0;
        y[3 * n + i + 0] = y[3 * n + i + 0] * 0.5;
    }
#pragma translate end kernel
}
static void r9(int n, double *restrict y)
{
#pragma translate kernel r9
    for (int i = 0; i < n; i++) {
        y[7 * n + i + 0] = y[7 * n + i + 0] * 0.5;
        y[6 * n + i + 0] = y[6 * n + i + 0] * 0.5;
        y[3 * n + i + 0] = y[3 * n + i + 0] + 1.0;
        y[11 * n + i + 0] = y[11 * n + i + 0] + 1.0;
        y[10 * n + i + 0] = y[10 * n + i + 0] + 1.0;
        y[9 * n + i + 0] = y[9 * n + i + 0] - 2.0;
        y[2 * n + i + 0] = y[2 * n + i + 0] * 0.5;
        y[5 * n + i + 0] = y[5 * n + i + 1] * 0.5;
        y[8 * n + i + 0] = y[8 * n + i + 0] + 1.0;
    }
#pragma translate end kernel
}
static void r10(int n, double *restrict y)
{
#pragma translate kernel r10
    for (int i = 0; i < n; i++) {
        y[2 * n + i + 0] = y[2 * n + i + 0] - 2.0;
        y[3 * n + i + 0] = y[3 * n + i + -1] - 2.0;
        y[4 * n + i + 0] = y[4 * n + i + 0] + 1.0;
        y[10 * n + i + 0] = y[10 * n + i + 0] - 2.0;
        y[5 * n + i + 0] = y[5 * n + i + 0] * 0.5;
        y[1 * n + i + 0] = y[1 * n + i + 0] + 1.0;
        y[6 * n + i + 0] = y[6 * n + i + 0] - 2.0;
        y[0 * n + i + 0] = y[0 * n + i + 0] - 2.0;
        y[8 * n + i + 0] = y[8 * n + i + -1] - 2.0;
    }
#pragma translate end kernel
}
static void r11(int n, double *restrict y)
{
#pragma translate kernel r11
    for (int i = 0; i < n; i++) {
        y[6 * n + i + 0] = y[6 * n + i + 0] + 1.0;
        y[11 * n + i + 0] = y[11 * n + i + 0] + 1.0;
        y[3 * n + i + 0] = y[3 * n + i + 0] * 0.5;
        y[8 * n + i + 0] = y[8 * n + i + 0] * 0.5;
        y[0 * n + i + 0] = y[0 * n + i + 0] - 2.0;
        y[7 * n + i + 0] = y[7 * n + i + 0] - 2.0;
        y[5 * n + i + 0] = y[5 * n + i + 0] * 0.5;
        y[10 * n + i + 0] = y[10 * n + i + 0] + 1.0;
        y[4 * n + i + 0] = y[4 * n + i + 0] - 2.0;
    }
#pragma translate end kernel
}
int main(void)
{
    static const int sizes[] = {NN, 7, 1};
    for (int k = 0; k < 3; k++) {
        int n = sizes[k];
        reset(); r0(n, y); dump("r0", n);
        reset(); r1(n, y); dump("r1", n);
        reset(); r2(n, y); dump("r2", n);
        reset(); r3(n, y); dump("r3", n);
        reset(); r4(n, y); dump("r4", n);
        reset(); r5(n, y); dump("r5", n);
        reset(); r6(n, y); dump("r6", n);
        reset(); r7(n, y); dump("r7", n);
        reset(); r8(n, y); dump("r8", n);
        reset(); r9(n, y); dump("r9", n);
        reset(); r10(n, y); dump("r10", n);
        reset(); r11(n, y); dump("r11", n);
    }
    return 0;
}
