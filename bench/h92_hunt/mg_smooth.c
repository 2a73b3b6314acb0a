/* translate-test: translate=--directives=openmp rtol=1e-10 */
/* An MG-like smoother sequence in one OpenMP parallel block (our own code after NPB MG's
   resid / psinv / comm3 / norm2u3): a sweep loop around omp for loops over i3 with private
   line buffers, periodic boundary copies, a max and a sum norm, a report under master,
   counters under single; the smoother is an orphaned omp for in a function it calls. */
#include <math.h>
#include <stdio.h>

#define N 34

static double u[N][N][N], v[N][N][N], r[N][N][N];

static void psinv(void) {
#pragma omp for
    for (int i3 = 1; i3 < N - 1; i3++)
        for (int i2 = 1; i2 < N - 1; i2++) {
            double r1[N], r2[N];
            for (int i1 = 0; i1 < N; i1++) {
                r1[i1] = r[i3][i2 - 1][i1] + r[i3][i2 + 1][i1] + r[i3 - 1][i2][i1]
                         + r[i3 + 1][i2][i1];
                r2[i1] = r[i3 - 1][i2 - 1][i1] + r[i3 - 1][i2 + 1][i1]
                         + r[i3 + 1][i2 - 1][i1] + r[i3 + 1][i2 + 1][i1];
            }
            for (int i1 = 1; i1 < N - 1; i1++)
                u[i3][i2][i1] += 0.2 * r[i3][i2][i1]
                                 + 0.05 * (r[i3][i2][i1 - 1] + r[i3][i2][i1 + 1] + r1[i1])
                                 + 0.01 * (r2[i1] + r1[i1 - 1] + r1[i1 + 1]);
        }
}

int main(void) {
    double s = 0.0, rnmu = 0.0, rnm2 = 0.0;
    int sweeps = 0;
    for (int i3 = 0; i3 < N; i3++)
        for (int i2 = 0; i2 < N; i2++)
            for (int i1 = 0; i1 < N; i1++) {
                v[i3][i2][i1] = sin(0.3 * (i1 + 1)) * cos(0.2 * (i2 + 1)) + 0.01 * (i3 + 1);
                u[i3][i2][i1] = 0.0;
                r[i3][i2][i1] = 0.0;
            }
#pragma omp parallel
    {
        double a0;
        for (int it = 0; it < 4; it++) {
            a0 = -8.0 / 3.0;
#pragma omp for
            for (int i3 = 1; i3 < N - 1; i3++)
                for (int i2 = 1; i2 < N - 1; i2++) {
                    double u1[N];
                    for (int i1 = 0; i1 < N; i1++)
                        u1[i1] = u[i3][i2 - 1][i1] + u[i3][i2 + 1][i1] + u[i3 - 1][i2][i1]
                                 + u[i3 + 1][i2][i1];
                    for (int i1 = 1; i1 < N - 1; i1++)
                        r[i3][i2][i1] = v[i3][i2][i1] - a0 * u[i3][i2][i1]
                                        - 0.1 * (u1[i1] + u[i3][i2][i1 - 1] + u[i3][i2][i1 + 1]);
                }
#pragma omp for
            for (int i3 = 1; i3 < N - 1; i3++)
                for (int i2 = 1; i2 < N - 1; i2++) {
                    r[i3][i2][0] = r[i3][i2][N - 2];
                    r[i3][i2][N - 1] = r[i3][i2][1];
                }
#pragma omp for
            for (int i3 = 1; i3 < N - 1; i3++)
                for (int i1 = 0; i1 < N; i1++) {
                    r[i3][0][i1] = r[i3][N - 2][i1];
                    r[i3][N - 1][i1] = r[i3][1][i1];
                }
            psinv();
#pragma omp single
            sweeps++;
        }
#pragma omp for reduction(+:s) reduction(max:rnmu)
        for (int i3 = 1; i3 < N - 1; i3++)
            for (int i2 = 1; i2 < N - 1; i2++)
                for (int i1 = 1; i1 < N - 1; i1++) {
                    s += r[i3][i2][i1] * r[i3][i2][i1];
                    rnmu = fmax(rnmu, fabs(r[i3][i2][i1]));
                }
#pragma omp master
        rnm2 = sqrt(s / ((N - 2) * (N - 2) * (N - 2)));
    }
    printf("%d %.15e %.15e\n", sweeps, rnm2, rnmu);
    printf("%.15e %.15e %.15e\n", u[3][2][1], u[N / 2][N / 2][N / 2], r[6][5][4]);
    return 0;
}
