/* A time loop around two parallel nests (a host program of two kernels) over the float, int
   and double views of one array of structs: one device buffer for the whole call. */
#include <stdio.h>
#include <stdlib.h>
struct cell { float rho; int kind; double e; };
static void run(int n, struct cell *restrict c, double *restrict tmp)
{
#pragma translate kernel hp_k
  for (int t = 0; t < 5; t++) {
    for (int i = 1; i < n - 1; i++)
      tmp[i] = 0.25 * (c[i - 1].e + 2 * c[i].e + c[i + 1].e) + c[i].kind;
    for (int i = 1; i < n - 1; i++) {
      c[i].e = tmp[i] * 0.5 + c[i].rho;
      c[i].kind = (c[i].kind + 1) % 4;
    }
  }
#pragma translate end kernel
}
int main(void)
{
  int n = 500;
  struct cell *c = malloc(n * sizeof *c);
  double *tmp = malloc(n * sizeof *tmp);
  for (int i = 0; i < n; i++) { c[i].rho = i % 5; c[i].kind = i % 3; c[i].e = i; }
  run(n, c, tmp);
  double s = 0; long k = 0;
  for (int i = 0; i < n; i++) { s += c[i].e; k += c[i].kind * i; }
  printf("%a %ld\n", s, k);
  free(c); free(tmp);
  return 0;
}
