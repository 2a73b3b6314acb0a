/* Member structs (named and anonymous) of an array of structs: b[i].pos.x, (b + i)->pos.z,
   b[i].extra.w[1] are members of the flattened struct (offsetof(b[0], pos.x) checked). */
#include <stdio.h>
#include <stdlib.h>
struct vec { double x, y, z; };
struct body { int id; struct vec pos, vel; float m; struct { short a; double w[2]; } extra; };
int main(void)
{
  int n = 300;
  struct body *b = malloc(n * sizeof *b);
  for (int i = 0; i < n; i++) { b[i].id = i; b[i].pos.x = i; b[i].pos.y = -i; b[i].pos.z = 0.5 * i;
    b[i].vel.x = 1; b[i].vel.y = 2; b[i].vel.z = 3; b[i].m = 1.0f + i % 3; b[i].extra.a = 0; b[i].extra.w[0] = 1; b[i].extra.w[1] = 2; }
#pragma translate kernel nest_k
  for (int i = 0; i < n; i++) {
    b[i].pos.x += 0.1 * b[i].vel.x * b[i].m;
    b[i].pos.y += 0.1 * b[i].vel.y + b[i].extra.w[1];
    (b + i)->pos.z += 0.1 * b[i].vel.z;
    b[i].extra.a = (short)(b[i].id % 7);
  }
#pragma translate end kernel
  double s = 0; long t = 0;
  for (int i = 0; i < n; i++) { s += b[i].pos.x + 2 * b[i].pos.y + 3 * b[i].pos.z; t += b[i].extra.a * i; }
  printf("%a %ld\n", s, t);
  free(b);
  return 0;
}
