/* A region called with small arrays whose sizes change from call to call: each call packs
 * them at new places of the region's block (new sub-buffers).  On NVIDIA the runtime crashed
 * at the eleventh call when it released the sub-buffers of the call before (h64). */
#include <stdio.h>
#define NMAX 9000

static void mixed(int n, const unsigned char *restrict c, const short *restrict s,
                  const double *restrict d, int *restrict out_i, double *restrict out_d,
                  char *restrict flag)
{
#pragma translate kernel mixed
    for (int i = 0; i < n; i++) {
        out_i[i] = c[i] + s[i] * 3;
        out_d[i] = d[i] * 0.5 + s[i];
        if (i % 3 == 0) flag[i] = (char)(c[i] & 7);
    }
#pragma translate end kernel
}

int main(void)
{
    static unsigned char c[NMAX]; static short s[NMAX]; static double d[NMAX];
    static int oi[NMAX]; static double od[NMAX]; static char fl[NMAX];
    static const int sizes[] = {13, 1, 2047, 2048, 2049, 4095, 4096, 4097, 8191, 8192, 1999, 0,
                                5, 2000, 3, 8192, 13};
    for (int i = 0; i < NMAX; i++) {
        c[i] = (unsigned char)(i * 7); s[i] = (short)(i * 13 - 5000); d[i] = 1.0 / (i + 1);
        oi[i] = -1; od[i] = -2; fl[i] = 'z';
    }
    for (unsigned k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        int n = sizes[k];
        mixed(n, c, s, d, oi, od, fl);
        long si = 0; double sd = 0;
        for (int i = 0; i < NMAX; i++) { si += (long)oi[i] * (i % 5 + 1) + fl[i]; sd += od[i] * (i % 7 + 1); }
        printf("mixed %d %ld %.17g\n", n, si, sd);
        c[k] += 1;
    }
    return 0;
}
