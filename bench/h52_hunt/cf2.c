#include <stdio.h>
#include <math.h>
#include <stdint.h>
#define N 300
static short sh[N]; static unsigned char uc[N]; static signed char sc[N]; static long long ll[N];
static unsigned short us[N]; static uint32_t u32[N]; static int64_t r64[N]; static double d[N]; static float f[N], g[N];
static void k1(int n) {
#pragma translate kernel k1
  for (int i = 0; i < n; i++) {
    sh[i] = (short)(sh[i] * 300 + i);
    uc[i] = (unsigned char)(uc[i] + 200);
    sc[i] = (signed char)(sc[i] * 3);
    us[i] = (unsigned short)(us[i] - 70000);
    u32[i] = u32[i] * 2654435761u >> 7 ^ (u32[i] << 11);
    r64[i] = ll[i] / -7 + ll[i] % -7 + (ll[i] >> 3) + (int64_t)(uc[i] * sc[i]) + sh[i] / 3;
    d[i] = 1 / 3 + f[i] * 0.1 + (float)(f[i] * 0.1) + fabs(f[i]) + (i & 1 ? 1.5f : 2) + (double)(1.0f / 3.0f);
    g[i] = f[i] * 0.1 + 1e-8f + (float)sqrt(f[i] > 0 ? f[i] : -f[i]) + powf(f[i], 2.0f);
  }
#pragma translate end kernel
}
static void k2(int n, int m) {
#pragma translate kernel k2
  for (int i = n - 1; i >= m; --i) {
    int q = (i - 150) / 8, rr = (i - 150) % 8;
    r64[i] += q * 1000 + rr + (long long)(i - 150) * 0x7fffffffLL;
    u32[i] += (uint32_t)(i - 150);
  }
#pragma translate end kernel
}
int main(void) {
  for (int i = 0; i < N; i++) { sh[i] = i * 113; uc[i] = i; sc[i] = i - 128; us[i] = i * 7; u32[i] = i * 97u + 5; ll[i] = (long long)(i - 150) * 123456789LL; f[i] = (i - 100) * 0.037f; }
  k1(N); k2(N, 3);
  unsigned long long h = 0;
  for (int i = 0; i < N; i++) { h = h * 1099511628211ULL ^ (unsigned long long)sh[i] ^ ((unsigned long long)uc[i] << 16) ^ ((unsigned long long)(unsigned char)sc[i] << 24) ^ ((unsigned long long)us[i] << 32) ^ u32[i] ^ (unsigned long long)r64[i]; }
  printf("%llu\n", h);
  for (int i = 0; i < N; i += 37) printf("%a %a\n", d[i], (double)g[i]);
  return 0;
}
