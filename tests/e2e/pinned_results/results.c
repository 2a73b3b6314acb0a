/* Results read back through the runtime's pinned results buffer (h44): a region returning
 * three sums and a short array (read into the buffer, one wait), a region writing 17 arrays of
 * 4 KiB (the buffer's 64 KiB run out: the last ones are read the plain way), a region with a
 * large result (plain, staged where staging is on), each called outside and inside a data
 * region and several times.  The translated program must print what the original prints. */
#include <stdio.h>

static double x[512], big[100000], small[10];
static double a1[512];
static double a2[512];
static double a3[512];
static double a4[512];
static double a5[512];
static double a6[512];
static double a7[512];
static double a8[512];
static double a9[512];
static double a10[512];
static double a11[512];
static double a12[512];
static double a13[512];
static double a14[512];
static double a15[512];
static double a16[512];
static double a17[512];

static void sums(int n, double *s1, double *s2, double *s3)
{
    double p = 0.0, q = 0.0, r = 0.0;
#pragma translate kernel sums_k
    for (int i = 0; i < n; i++) {
        p += x[i];
        q += 2.0 * x[i];
        r += x[i] * x[i];
    }
#pragma translate end kernel
#pragma translate kernel small_k
    for (int i = 0; i < 10; i++)
        small[i] = x[i] + p;
#pragma translate end kernel
    *s1 = p;
    *s2 = q;
    *s3 = r;
}

static void many(int n)
{
#pragma translate kernel many_k
    for (int i = 0; i < n; i++) {
        a1[i] = 1 * x[i] + i;
        a2[i] = 2 * x[i] + i;
        a3[i] = 3 * x[i] + i;
        a4[i] = 4 * x[i] + i;
        a5[i] = 5 * x[i] + i;
        a6[i] = 6 * x[i] + i;
        a7[i] = 7 * x[i] + i;
        a8[i] = 8 * x[i] + i;
        a9[i] = 9 * x[i] + i;
        a10[i] = 10 * x[i] + i;
        a11[i] = 11 * x[i] + i;
        a12[i] = 12 * x[i] + i;
        a13[i] = 13 * x[i] + i;
        a14[i] = 14 * x[i] + i;
        a15[i] = 15 * x[i] + i;
        a16[i] = 16 * x[i] + i;
        a17[i] = 17 * x[i] + i;
    }
#pragma translate end kernel
}

static void large(int n, double c)
{
#pragma translate kernel large_k
    for (int i = 0; i < n; i++)
        big[i] = c * i;
#pragma translate end kernel
}

static void set_x(int k)
{
    for (int i = 0; i < 512; i++)
        x[i] = 0.25 * (i % 17) + k;
}

static void compute_and_print(int k, int present)
{
    double s1, s2, s3;
    sums(512, &s1, &s2, &s3);
    many(512);
    large(100000, 0.5 + k);
    if (present) {
#pragma translate update host(big[99990:10])
    }
    printf("%d %.17g %.17g %.17g %.17g %.17g %.17g\n", k, s1, s2, s3, small[9],
           a1[511] + a2[511] + a3[511] + a4[511] + a5[511] + a6[511] + a7[511] + a8[511] + a9[511] + a10[511] + a11[511] + a12[511] + a13[511] + a14[511] + a15[511] + a16[511] + a17[511], big[99999]);
}

int main(void)
{
    for (int k = 0; k < 3; k++) {
        set_x(k);
        compute_and_print(k, 0);
    }
#pragma translate data copy(x[0:512], big[0:100000])
    for (int k = 3; k < 6; k++) {
        set_x(k);
#pragma translate update device(x[0:512])
        compute_and_print(k, 1);
    }
#pragma translate end data
    return 0;
}
