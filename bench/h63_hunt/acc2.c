/* translate-test: translate=--directives=openacc */
/* OpenACC unstructured data and routines: enter data copyin/create, update self/device,
   exit data copyout/delete, routine seq with integer and char arithmetic, loop seq inside a
   parallel loop, a reduction of an unsigned sum, present. */
#include <stdio.h>
#include <stdint.h>
#define N 500
static uint8_t img[N];
static int hist[N];
static unsigned out[N];

#pragma acc routine seq
static unsigned mix(unsigned x, uint8_t c)
{
  x ^= c;
  x *= 16777619u;
  return x + (c >> 3) - (c & 7);
}

int main(void)
{
  for (int i = 0; i < N; i++) { img[i] = (uint8_t)(i * 151 + 7); hist[i] = 0; out[i] = 0; }
#pragma acc enter data copyin(img[0:N]) create(out[0:N])
#pragma acc parallel loop present(img[0:N], out[0:N])
  for (int i = 0; i < N; i++) {
    unsigned h = 2166136261u;
#pragma acc loop seq
    for (int k = 0; k < 8; k++)
      h = mix(h, img[(i + k) % N]);
    out[i] = h;
  }
#pragma acc update self(out[0:N])
  out[0] = 12345u;
  img[1] = 200;
#pragma acc update device(out[0:1], img[0:2])
  unsigned sum = 0;
#pragma acc parallel loop reduction(+:sum) present(out[0:N], img[0:N])
  for (int i = 0; i < N; i++)
    sum += out[i] ^ img[i];
#pragma acc exit data copyout(out[0:N]) delete(img[0:N])
  unsigned long long t = 0;
  for (int i = 0; i < N; i++) t = t * 31 + out[i];
  printf("%u %llu %u\n", sum, t, out[N - 1]);
  return 0;
}
