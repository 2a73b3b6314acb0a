/* translate-test: translate=--directives=openmp rtol=1e-13 */
/* OpenMP C: declare target globals, target update of them, enter data alloc / exit data
   delete, reduction with map(tofrom: s), collapse(2) with a private work array, loop
   bind/order, target around a block holding teams distribute. */
#include <stdio.h>
#define N 48

#pragma omp declare target
static double tab[N];
#pragma omp end declare target

static double grid[N][N], out[N][N];

int main(void) {
  double s = 0, w[3];
  for (int i = 0; i < N; i++) {
    tab[i] = i % 5;
    for (int j = 0; j < N; j++) grid[i][j] = (i + 2 * j) % 9;
  }
#pragma omp target update to(tab)
#pragma omp target enter data map(alloc: out[0:N][0:N])
#pragma omp target teams distribute parallel for collapse(2) private(w)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      w[0] = grid[i][j];
      w[1] = tab[j];
      w[2] = w[0] * w[1];
      out[i][j] = w[2] + w[0];
    }
#pragma omp target exit data map(from: out[0:N][0:N])
#pragma omp target teams distribute parallel for reduction(+:s) map(tofrom: s)
  for (int i = 0; i < N; i++)
    s += out[i][i] * tab[i];
#pragma omp loop bind(thread) order(concurrent)
  for (int i = 0; i < N; i++)
    tab[i] = tab[i] + 1;
#pragma omp target map(tofrom: grid)
  {
#pragma omp teams distribute parallel for
    for (int i = 0; i < N; i++)
      grid[i][0] = grid[i][1] + 1;
  }
  double t = 0;
  for (int i = 0; i < N; i++) t += out[i][N - 1 - i] + tab[i] + grid[i][0];
  printf("%.17g %.17g\n", s, t);
  return 0;
}
