/* translate-test: translate=--directives=openmp rtol=1e-10 */
/* A Jacobi solver in the OpenMP reference style: one parallel region around the sweep loop,
   worksharing loops inside it (one with a max reduction), the convergence test and the
   counters under single, a private scalar every thread computes, a barrier. */
#include <math.h>
#include <stdio.h>

#define N 96

static double u[N][N], unew[N][N], f[N][N];

int main(void) {
    double err = 1.0, tol = 1e-6, h2 = 1.0 / ((N - 1) * (N - 1));
    int iters = 0, done = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            f[i][j] = sin(0.1 * i) * cos(0.07 * j);
            u[i][j] = (i == 0 || j == 0 || i == N - 1 || j == N - 1) ? 1.0 : 0.0;
            unew[i][j] = u[i][j];
        }
#pragma omp parallel shared(err, iters, done) firstprivate(h2)
    {
        int sweep;
        double w = 0.8;
        for (sweep = 0; sweep < 400; sweep++) {
#pragma omp single
            err = 0.0;
#pragma omp for reduction(max:err)
            for (int i = 1; i < N - 1; i++)
                for (int j = 1; j < N - 1; j++) {
                    double v = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]
                                       - h2 * f[i][j]);
                    unew[i][j] = u[i][j] + w * (v - u[i][j]);
                    err = fmax(err, fabs(unew[i][j] - u[i][j]));
                }
#pragma omp for nowait
            for (int i = 1; i < N - 1; i++)
                for (int j = 1; j < N - 1; j++)
                    u[i][j] = unew[i][j];
#pragma omp barrier
#pragma omp single
            {
                iters++;
                if (err < tol)
                    done = 1;
            }
            if (done)
                break;
        }
    }
    double s = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            s += u[i][j];
    printf("%d %.12e %.12e %.12e\n", iters, err, s, u[N / 2][N / 3]);
    return 0;
}
