/* Integer and conversion semantics the device compiler may treat otherwise: negative
 * division and remainder, shifts, unsigned wrap, 64-bit products, float <-> integer
 * conversions, float and double denormals, fabs/fmin/fmax/copysign/floor/ceil/trunc/round. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <math.h>
#define N 200003

static void ops(int n, const int *restrict a, const float *restrict f, const double *restrict d,
                int *restrict r1, unsigned *restrict r2, int64_t *restrict r3, int *restrict r4,
                float *restrict r5, double *restrict r6, int64_t *restrict r7)
{
#pragma translate kernel ops
    for (int i = 0; i < n; i++) {
        int b = (i % 17) - 8 == 0 ? 3 : (i % 17) - 8;
        r1[i] = a[i] / b + a[i] % b * 7 + (a[i] >> (i % 31)) + abs(a[i] % 1000);
        r2[i] = (unsigned)a[i] * 2654435761u + ((unsigned)a[i] >> 3) + (unsigned)i * (unsigned)i;
        r3[i] = (int64_t)a[i] * a[i] - (int64_t)a[i] * 40503 + ((int64_t)a[i] << 20) / (b * 3);
        r4[i] = (int)f[i] + (int)d[i] + (int)floorf(f[i]) + (int)ceil(d[i]) + (int)roundf(f[i]) + (int)trunc(d[i] * 3.0);
        r5[i] = f[i] * 1.0e-38f * 1.0e-3f + fminf(f[i], 0.5f) - fmaxf(-f[i], 0.25f) + copysignf(1.5f, f[i]) + fabsf(f[i]) * 1.0e-40f;
        r6[i] = d[i] * 1.0e-308 * 1.0e-5 + fmin(d[i], 2.0) + copysign(d[i], -(double)a[i]) + (double)(float)d[i] + (double)a[i] * 0.1;
        r7[i] = (int64_t)(d[i] * 1.0e12) + (int64_t)(float)a[i] + (int64_t)((double)((int64_t)a[i] * 1000003));
    }
#pragma translate end kernel
}

int main(void)
{
    int *a = malloc(sizeof(int) * N), *r1 = malloc(sizeof(int) * N), *r4 = malloc(sizeof(int) * N);
    unsigned *r2 = malloc(sizeof(unsigned) * N);
    float *f = malloc(sizeof(float) * N), *r5 = malloc(sizeof(float) * N);
    double *d = malloc(sizeof(double) * N), *r6 = malloc(sizeof(double) * N);
    int64_t *r3 = malloc(sizeof(int64_t) * N), *r7 = malloc(sizeof(int64_t) * N);
    unsigned r = 2463534242u;
    for (int i = 0; i < N; i++) {
        r ^= r << 13; r ^= r >> 17; r ^= r << 5;
        a[i] = (int)r;
        f[i] = (float)((int)(r >> 7) % 100000) / 937.0f;
        d[i] = (double)((int)r % 1000000) / 3.7;
    }
    ops(N, a, f, d, r1, r2, r3, r4, r5, r6, r7);
    unsigned long long h = 1469598103934665603ULL;
    for (int i = 0; i < N; i++) {
        uint64_t w[7];
        uint32_t fb; uint64_t db;
        __builtin_memcpy(&fb, &r5[i], 4); __builtin_memcpy(&db, &r6[i], 8);
        w[0] = (uint32_t)r1[i]; w[1] = r2[i]; w[2] = (uint64_t)r3[i]; w[3] = (uint32_t)r4[i];
        w[4] = fb; w[5] = db; w[6] = (uint64_t)r7[i];
        for (int k = 0; k < 7; k++) { h ^= w[k]; h *= 1099511628211ULL; }
    }
    printf("%016llx\n%d %u %lld %d %.9g %.17g %lld\n", h, r1[7], r2[7], (long long)r3[7], r4[7],
           r5[7], r6[7], (long long)r7[7]);
    return 0;
}
