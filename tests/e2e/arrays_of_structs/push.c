/* An array of structs of doubles behind a pointer parameter: a particle push (p[i].x),
   members read across elements ((p + i)->x, p[i + 1].x: another member than the one
   written, so the loop stays parallel) and through a pointer to one struct (s->x). */
#include <stdio.h>
#include <stdlib.h>
struct particle { double x, y, vx, vy; };

static void push(int n, struct particle *p, const struct particle *s, double dt)
{
#pragma translate kernel push_k
  for (int i = 0; i < n; i++) {
    p[i].vx -= dt * (p[i].x - s->x);
    p[i].vy -= dt * (p + i)->y;
    p[i].x += dt * p[i].vx;
    p[i].y += dt * p[i].vy;
  }
#pragma translate end kernel
}

static void smooth(int n, struct particle *p)
{
#pragma translate kernel smooth_k
  for (int i = 0; i < n - 1; i++)
    p[i].vy = 0.5 * (p[i].vy + p[i + 1].x);
#pragma translate end kernel
}

int main(void)
{
  int n = 1000;
  struct particle *p = malloc(n * sizeof *p);
  struct particle centre = {0.25, -1.0, 0.0, 0.0};
  for (int i = 0; i < n; i++) {
    p[i].x = i * 0.01; p[i].y = -i * 0.5; p[i].vx = 1.0; p[i].vy = 0.25 * (i % 7);
  }
  for (int t = 0; t < 4; t++) {
    push(n, p, &centre, 0.1);
    smooth(n, p);
  }
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i].x + 2 * p[i].y + 3 * p[i].vx + 4 * p[i].vy;
  printf("%a %a %a\n", s, p[17].x, p[999].vy);
  free(p);
  return 0;
}
