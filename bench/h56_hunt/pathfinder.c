/* translate-test: translate=--directives=openmp */
/* Rodinia-pathfinder-like: row-by-row dynamic programming, the row loop carried, the column
   loop parallel; pointer swap of src/dst; min via a MIN macro; int data with a wall as int*. */
#include <stdio.h>
#include <string.h>
#define MIN(a, b) ((a) <= (b) ? (a) : (b))
enum { ROWS = 60, COLS = 500 };
static int wall[ROWS * COLS];
static int result[COLS], buf[COLS];

static void run(int rows, int cols)
{
  int *src = buf, *dst = result, *temp;
  int min;
  for (int j = 0; j < cols; j++) dst[j] = wall[j];
  for (int t = 0; t < rows - 1; t++) {
    temp = src; src = dst; dst = temp;
#pragma omp parallel for private(min)
    for (int n = 0; n < cols; n++) {
      min = src[n];
      if (n > 0) min = MIN(min, src[n - 1]);
      if (n < cols - 1) min = MIN(min, src[n + 1]);
      dst[n] = wall[(t + 1) * cols + n] + min;
    }
  }
  if (dst != result) memcpy(result, dst, sizeof(int) * cols);
}

int main(void)
{
  unsigned seed = 9;
  for (int i = 0; i < ROWS * COLS; i++) { seed = seed * 1103515245u + 12345u; wall[i] = (seed >> 16) % 10; }
  run(ROWS, COLS);
  long s = 0;
  for (int j = 0; j < COLS; j++) s += (long)result[j] * (j % 7 + 1);
  printf("%d %d %d %ld\n", result[0], result[COLS / 2], result[COLS - 1], s);
  return 0;
}
