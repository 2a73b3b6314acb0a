/* Float quotients and square roots in a region, checksummed bit for bit (lead, session 10;
 * bench/RESULTS.md, "Float division and square root on NVIDIA"): the translated program must
 * print gcc's checksum on every device.  bench/gpu/fdiv/run.sh builds and runs it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

static void ratios(int n, const float *restrict a, const float *restrict b, float *restrict q, float *restrict r)
{
#pragma translate kernel ratios
  for (int i = 0; i < n; i++) {
    q[i] = a[i] / b[i];
    r[i] = sqrtf(a[i]) + 1.0f / b[i];
  }
#pragma translate end kernel
}

int main(void)
{
  int n = 1 << 22;
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  float *q = malloc(n * sizeof *q), *r = malloc(n * sizeof *r);
  uint32_t s = 12345u;
  for (int i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    a[i] = (float)(s >> 8) / 65536.0f + 0.001f;
    s = s * 1664525u + 1013904223u;
    b[i] = (float)(s >> 9) / 4096.0f + 0.5f;
  }
  ratios(n, a, b, q, r);
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < n; i++) {
    uint32_t u, v;
    memcpy(&u, &q[i], 4); memcpy(&v, &r[i], 4);
    h = (h ^ u) * 1099511628211ull; h = (h ^ v) * 1099511628211ull;
  }
  printf("checksum %016llx q[7]=%a r[7]=%a\n", (unsigned long long)h, q[7], r[7]);
  return 0;
}
