/* Struct members that are arrays of numbers: p[i].pos[k] is p[i, offset + k], a 2-D int
   member read and written through the int view of the same memory. */
#include <stdio.h>
#include <stdlib.h>
typedef struct { double pos[3]; double m; int n[2][2]; } Body;
int main(void)
{
  int n = 500;
  Body *b = malloc(n * sizeof *b);
  for (int i = 0; i < n; i++) { for (int k = 0; k < 3; k++) b[i].pos[k] = i + k * 0.5; b[i].m = 1 + i % 4;
    for (int k = 0; k < 2; k++) for (int l = 0; l < 2; l++) b[i].n[k][l] = i * k + l; }
#pragma translate kernel am_k
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++)
      b[i].pos[k] = b[i].pos[k] * b[i].m + b[i].n[k % 2][1];
    b[i].n[1][0] = b[i].n[0][1] + 7;
  }
#pragma translate end kernel
  double s = 0; long t = 0;
  for (int i = 0; i < n; i++) { s += b[i].pos[0] + 2 * b[i].pos[1] + 3 * b[i].pos[2]; t += b[i].n[1][0] * i; }
  printf("%a %ld\n", s, t);
  free(b);
  return 0;
}
