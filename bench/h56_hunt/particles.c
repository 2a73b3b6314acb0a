/* translate-test: rtol=1e-5 translate=--directives=openmp */
/* miniMD/nbody-like: array of structs `p[i].x`, float math (sqrtf, expf, fabsf), a struct
   of arrays with `s->vx[i]`, an O(n^2) force loop with private temporaries and a reduction
   of the potential energy, long indices. */
#include <stdio.h>
#include <math.h>
#define NP 300
typedef struct { float x, y, z, m; } Particle;
typedef struct { float vx[NP], vy[NP], vz[NP]; } Vel;
static Particle p[NP];
static Vel vel;
static float fx[NP], fy[NP], fz[NP];

static void forces(long n, const Particle *restrict pp, float *restrict ox, float *restrict oy,
                   float *restrict oz, float *epot)
{
  float e = 0.0f;
#pragma omp parallel for reduction(+:e) schedule(dynamic)
  for (long i = 0; i < n; i++) {
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (long j = 0; j < n; j++) {
      if (j == i) continue;
      float dx = pp[j].x - pp[i].x, dy = pp[j].y - pp[i].y, dz = pp[j].z - pp[i].z;
      float r2 = dx * dx + dy * dy + dz * dz + 0.01f;
      float inv = 1.0f / sqrtf(r2);
      float inv3 = inv * inv * inv * pp[j].m;
      ax += dx * inv3; ay += dy * inv3; az += dz * inv3;
      e += -0.5f * pp[i].m * pp[j].m * inv * expf(-fabsf(dx) * 0.01f);
    }
    ox[i] = ax; oy[i] = ay; oz[i] = az;
  }
  *epot = e;
}

static void push(Vel *s, Particle *q, long n, float dt)
{
#pragma omp parallel for
  for (long i = 0; i < n; i++) {
    s->vx[i] += fx[i] * dt; s->vy[i] += fy[i] * dt; s->vz[i] += fz[i] * dt;
    q[i].x += s->vx[i] * dt; q[i].y += s->vy[i] * dt; q[i].z += s->vz[i] * dt;
  }
}

int main(void)
{
  for (int i = 0; i < NP; i++) {
    p[i].x = (float)(i % 10); p[i].y = (float)((i / 10) % 10); p[i].z = (float)(i / 100);
    p[i].m = 1.0f + (i % 3) * 0.5f;
  }
  float e = 0.0f;
  for (int s = 0; s < 3; s++) { forces(NP, p, fx, fy, fz, &e); push(&vel, p, NP, 0.01f); }
  printf("%.6g %.6g %.6g %.6g %.6g\n", e, p[0].x, p[77].y, vel.vz[150], p[NP - 1].z);
  return 0;
}
