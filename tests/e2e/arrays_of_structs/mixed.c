/* Structs of members of several types: a global array of doubles and an int (h72's
   soa.c), a pointer to structs of float, int, double and short (padding between them), a
   two-dimensional array of structs.  Each member type is a view of the same memory. */
#include <stdio.h>
#include <stdlib.h>
#define N 1000
typedef struct { double x, y; int tag; } Part;
struct cell { float rho; int kind; double e; short flag; };
static Part parts[N];
static double out[N];
static Part grid[8][16];

static void relax(long n, struct cell *c, const double *w)
{
#pragma translate kernel relax_k
  for (long i = 1; i < n - 1; i++) {
    if (c[i].kind > 0)
      c[i].e = c[i].e * 0.5 + w[i] * c[i].rho + c[i - 1].rho;
    c[i].flag = (short)(c[i].kind * 3 + 1);
  }
#pragma translate end kernel
}

int main(void)
{
  for (int i = 0; i < N; i++) {
    parts[i].x = i * 0.5; parts[i].y = -i * 0.25; parts[i].tag = i % 3;
  }
  for (int t = 0; t < 3; t++) {
#pragma translate kernel parts_k
    for (int i = 0; i < N; i++) {
      out[i] = parts[i].tag == 1 ? parts[i].x * parts[i].y : parts[i].x - parts[i].y;
      parts[i].tag = (parts[i].tag + i) % 5;
      parts[i].y += 0.5 * parts[i].tag;
    }
#pragma translate end kernel
  }
  long n = 777;
  struct cell *c = malloc(n * sizeof *c);
  double *w = malloc(n * sizeof *w);
  for (long i = 0; i < n; i++) {
    c[i].rho = 0.5f * (float)(i % 9); c[i].kind = (int)(i % 3) - 1; c[i].e = 1.0 + i;
    c[i].flag = -1; w[i] = 0.001 * i;
  }
  for (int t = 0; t < 3; t++) relax(n, c, w);
  for (int j = 0; j < 8; j++)
    for (int i = 0; i < 16; i++) { grid[j][i].x = i + j; grid[j][i].y = i - j; grid[j][i].tag = 0; }
#pragma translate kernel grid_k
  for (int j = 1; j < 8; j++)
    for (int i = 0; i < 16; i++) {
      grid[j][i].y = grid[j][i].x * grid[j - 1][i].y;
      grid[j][i].tag = j * i;
    }
#pragma translate end kernel
  double s = 0;
  long k = 0;
  for (int i = 0; i < N; i++) { s += parts[i].x + parts[i].y * 2 + out[i]; k += parts[i].tag * i; }
  for (long i = 0; i < n; i++) { s += c[i].e + c[i].rho; k += c[i].flag * i + c[i].kind; }
  for (int j = 0; j < 8; j++)
    for (int i = 0; i < 16; i++) { s += grid[j][i].y; k += grid[j][i].tag; }
  printf("%a %ld\n", s, k);
  free(c); free(w);
  return 0;
}
