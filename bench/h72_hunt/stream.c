/* translate-test: translate=--directives=openmp */
/* STREAM-like: STREAM_TYPE macro, ssize_t-like long counters, size from a shift, the four
   kernels NTIMES times, the check with fabs and average errors */
#include <math.h>
#include <stdio.h>
#ifndef STREAM_TYPE
#define STREAM_TYPE double
#endif
#define STREAM_ARRAY_SIZE (1 << 16)
#define NTIMES 4
#define OFFSET 0
static STREAM_TYPE a[STREAM_ARRAY_SIZE + OFFSET], b[STREAM_ARRAY_SIZE + OFFSET],
    c[STREAM_ARRAY_SIZE + OFFSET];
int main(void)
{
  long j, k;
  STREAM_TYPE scalar = 3.0;
#pragma omp parallel for
  for (j = 0; j < STREAM_ARRAY_SIZE; j++) { a[j] = 1.0; b[j] = 2.0; c[j] = 0.0; }
#pragma omp parallel for
  for (j = 0; j < STREAM_ARRAY_SIZE; j++) a[j] = 2.0E0 * a[j];
  for (k = 0; k < NTIMES; k++) {
#pragma omp parallel for
    for (j = 0; j < STREAM_ARRAY_SIZE; j++) c[j] = a[j];
#pragma omp parallel for
    for (j = 0; j < STREAM_ARRAY_SIZE; j++) b[j] = scalar * c[j];
#pragma omp parallel for
    for (j = 0; j < STREAM_ARRAY_SIZE; j++) c[j] = a[j] + b[j];
#pragma omp parallel for
    for (j = 0; j < STREAM_ARRAY_SIZE; j++) a[j] = b[j] + scalar * c[j];
  }
  STREAM_TYPE aj = 1.0, bj = 2.0, cj = 0.0, aSumErr = 0, bSumErr = 0, cSumErr = 0;
  aj = 2.0E0 * aj;
  for (k = 0; k < NTIMES; k++) { cj = aj; bj = scalar * cj; cj = aj + bj; aj = bj + scalar * cj; }
#pragma omp parallel for reduction(+:aSumErr, bSumErr, cSumErr)
  for (j = 0; j < STREAM_ARRAY_SIZE; j++) {
    aSumErr += fabs(a[j] - aj);
    bSumErr += fabs(b[j] - bj);
    cSumErr += fabs(c[j] - cj);
  }
  printf("%a %a %a %a %ld\n", aSumErr / STREAM_ARRAY_SIZE, bSumErr, cSumErr, a[7], j);
  return 0;
}
