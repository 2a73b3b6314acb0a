/* translate-test: rtol=1e-12 cppflags=-fopenmp translate=--directives=openmp
 *
 * Updates through indices known only at run time, each marked '#pragma omp atomic': a
 * histogram (integer counts: exact in any order) and a finite-element style assembly
 * rhs[conn[e][k]] += ... whose nodes are shared by several elements (double sums: the
 * device adds them in another order, so they may round differently: hence the tolerance).
 * Every access to hist and rhs in their loops is an atomic update with one operator, so the
 * iterations may run in parallel; the device updates the elements with atomic_add and a
 * compare-and-swap loop on the bits of the double.
 */
#include <stdio.h>

static void assemble(int n, int nb, const int *key, int hist[nb], int ne, int nn,
                     const int conn[ne][3], const double w[ne], double rhs[nn], long big[nb])
{
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
#pragma omp atomic
        hist[key[i]]++;
#pragma omp atomic update
        big[key[i]] += 3000000000L + i;
    }
#pragma omp parallel for
    for (int e = 0; e < ne; e++) {
        for (int k = 0; k < 3; k++) {
#pragma omp atomic update
            rhs[conn[e][k]] = rhs[conn[e][k]] + w[e] * (k + 1);
        }
    }
}

int main(void)
{
    enum { N = 10000, NB = 17, NE = 3000, NN = 1001 };
    static int key[N], hist[NB], conn[NE][3];
    static double w[NE], rhs[NN];
    static long big[NB];
    for (int i = 0; i < N; i++)
        key[i] = (i * 7919 + i / 3) % NB;
    for (int e = 0; e < NE; e++) {
        conn[e][0] = e % NN;
        conn[e][1] = (e * 13 + 1) % NN;
        conn[e][2] = (e / 2) % NN;
        w[e] = 0.1 + 0.001 * (e % 97);
    }
    assemble(N, NB, key, hist, NE, NN, conn, w, rhs, big);
    for (int b = 0; b < NB; b++)
        printf("%d %ld\n", hist[b], big[b]);
    double s = 0;
    for (int v = 0; v < NN; v++)
        s += rhs[v] * (v % 5 + 1);
    printf("%.15e %.15e %.15e\n", s, rhs[0], rhs[NN - 1]);
    return 0;
}
