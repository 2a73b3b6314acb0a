/* translate-test: rtol=1e-5 translate=--directives=openacc
 *
 * Particle deposit onto a grid: each particle adds its charge to the cell it lies in, and
 * counts itself there, under '#pragma acc atomic update'.  Many particles share a cell, so
 * iterations update one element; every access to rho and count in the loop is an atomic
 * update with one operator, so the loop runs in parallel with atomic updates (float sums in
 * another order may round differently: hence the tolerance).
 */
#include <stdio.h>

static void deposit(int np, int nc, const float *restrict x, const float *restrict q,
                    float rho[nc], int count[nc])
{
#pragma acc parallel loop copyin(x[0:np], q[0:np]) copy(rho[0:nc], count[0:nc])
    for (int p = 0; p < np; p++) {
        int c = (int) (x[p] * nc);
#pragma acc atomic update
        rho[c] -= q[p];
#pragma acc atomic update
        ++count[c];
    }
}

int main(void)
{
    enum { NP = 20000, NC = 64 };
    static float x[NP], q[NP], rho[NC];
    static int count[NC];
    for (int p = 0; p < NP; p++) {
        x[p] = (float) ((p * 2654435761u) % 100000u) / 100000.0f;
        q[p] = 0.5f + 0.001f * (float) (p % 101);
    }
    deposit(NP, NC, x, q, rho, count);
    for (int c = 0; c < NC; c += 8)
        printf("%d %.6e\n", count[c], (double) rho[c]);
    return 0;
}
