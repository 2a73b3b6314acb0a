/* h64's DIFF, fixed by the lead: a pointer into the middle of an array, read one element
 * before where it points (legal C).  The region moved y[0 .. 2n) and its kernel read the
 * device element before the buffer: exit 0 and other numbers (PoCL and the GPU alike).  Now
 * refused at the access, as the OpenMP/OpenACC claim check already did ("pass a pointer to
 * the first element the loop uses"; tests/e2e/test_before_the_pointer.py).  bench/h50_hunt's
 * sep3.c and sep4.c read y[-1] of the array itself (undefined in the original): refused too. */
#include <stdio.h>
static void f(int n, double *restrict y)
{
#pragma translate kernel f
    for (int i = 0; i < n; i++)
        y[n + i] = y[i - 1] * 0.5;
#pragma translate end kernel
}
int main(void)
{
    static double a[2001];
    for (int i = 0; i < 2001; i++) a[i] = i + 1;
    f(1000, a + 1);
    double s = 0;
    for (int i = 0; i < 2001; i++) s += a[i] * (i % 7 + 1);
    printf("%.17g %.17g\n", s, a[1001]);
    return 0;
}
