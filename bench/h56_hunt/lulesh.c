/* translate-test: rtol=1e-13 translate=--directives=openmp */
/* LULESH-like: a Domain struct of arrays passed by pointer (`dom->x[i]`), static inline
   helpers, `const double *restrict` locals taken from struct fields, nodal element lists
   (indirect gathers), a min reduction for the time step, Real_t/Index_t typedefs. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
typedef double Real_t;
typedef int Index_t;
#define NUMELEM 500
#define NUMNODE (NUMELEM + 1)
typedef struct {
  Real_t *x, *xd, *xdd, *fx, *nodalMass;
  Real_t *e, *p, *q, *v, *ss, *arealg;
  Index_t *nodelist;
  Index_t numElem, numNode;
  Real_t dtcourant;
} Domain;

static inline Real_t pressure(Real_t e, Real_t v) { return (2.0 / 3.0) * e / v; }
static inline Real_t sound2(Real_t p, Real_t e, Real_t v) { return (p + e * 1.0e-3) * v + 1.0e-9; }

static void calc_force(Domain *dom)
{
  Index_t numElem = dom->numElem;
  const Index_t *restrict nl = dom->nodelist;
  const Real_t *restrict p = dom->p, *restrict q = dom->q;
  Real_t *restrict fx = dom->fx;
#pragma omp parallel for firstprivate(numElem)
  for (Index_t k = 0; k < numElem + 1; k++) fx[k] = 0.0;
  for (Index_t k = 0; k < numElem; k++) {
    Real_t f = p[k] + q[k];
    fx[nl[2 * k]] -= f;
    fx[nl[2 * k + 1]] += f;
  }
}

static void update_nodes(Domain *dom, Real_t dt)
{
  Index_t numNode = dom->numNode;
#pragma omp parallel for firstprivate(numNode)
  for (Index_t i = 0; i < numNode; ++i) {
    dom->xdd[i] = dom->fx[i] / dom->nodalMass[i];
    dom->xd[i] += dom->xdd[i] * dt;
    if (fabs(dom->xd[i]) < 1.0e-7) dom->xd[i] = 0.0;
    dom->x[i] += dom->xd[i] * dt;
  }
}

static void update_elems(Domain *dom)
{
  Index_t numElem = dom->numElem;
  Real_t dtc = 1.0e20;
#pragma omp parallel for reduction(min:dtc)
  for (Index_t k = 0; k < numElem; k++) {
    Real_t len = dom->x[k + 1] - dom->x[k];
    Real_t vnew = len;
    dom->e[k] -= dom->p[k] * (vnew - dom->v[k]);
    dom->v[k] = vnew;
    dom->p[k] = pressure(dom->e[k], vnew);
    dom->ss[k] = sqrt(sound2(dom->p[k], dom->e[k], vnew));
    dom->q[k] = len < 1.0 ? 0.1 * dom->ss[k] : 0.0;
    Real_t dtf = len / (dom->ss[k] + 1.0e-12);
    if (dtf < dtc) dtc = dtf;
  }
  dom->dtcourant = dtc;
}

int main(void)
{
  Domain d;
  d.numElem = NUMELEM; d.numNode = NUMNODE;
  d.x = malloc(sizeof(Real_t) * NUMNODE); d.xd = calloc(NUMNODE, sizeof(Real_t));
  d.xdd = calloc(NUMNODE, sizeof(Real_t)); d.fx = calloc(NUMNODE, sizeof(Real_t));
  d.nodalMass = malloc(sizeof(Real_t) * NUMNODE);
  d.e = malloc(sizeof(Real_t) * NUMELEM); d.p = malloc(sizeof(Real_t) * NUMELEM);
  d.q = calloc(NUMELEM, sizeof(Real_t)); d.v = malloc(sizeof(Real_t) * NUMELEM);
  d.ss = malloc(sizeof(Real_t) * NUMELEM); d.arealg = malloc(sizeof(Real_t) * NUMELEM);
  d.nodelist = malloc(sizeof(Index_t) * 2 * NUMELEM);
  for (Index_t i = 0; i < NUMNODE; i++) { d.x[i] = i * 1.0; d.nodalMass[i] = 1.0 + (i % 3); }
  for (Index_t k = 0; k < NUMELEM; k++) {
    d.e[k] = (k < 10) ? 3.0e2 : 1.0e-3; d.v[k] = 1.0; d.p[k] = pressure(d.e[k], 1.0);
    d.nodelist[2 * k] = k; d.nodelist[2 * k + 1] = k + 1;
  }
  Real_t t = 0, dt = 1.0e-3;
  for (int cycle = 0; cycle < 20; cycle++) {
    calc_force(&d);
    update_nodes(&d, dt);
    update_elems(&d);
    t += dt;
    dt = 0.5 * d.dtcourant < 1.0e-3 ? 0.5 * d.dtcourant : 1.0e-3;
  }
  printf("%.17g %.17g %.17g %.17g %.17g\n", t, dt, d.x[5], d.e[3], d.p[NUMELEM - 1]);
  return 0;
}
