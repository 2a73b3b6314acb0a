/* translate-test: translate=--directives=openmp rtol=1e-9 */
/* NPB CG's conj_grad as the OpenMP reference writes it in C (our own code after its shape):
   one parallel block around the cgit loop, omp for loops with reductions, a nowait loop,
   scalar updates under single and master + barrier, private scalars every thread computes,
   and an orphaned omp for in a function the block calls (the matvec). */
#include <math.h>
#include <stdio.h>

#define NA 400
#define NONZER 5
#define NZ (NA * (NONZER + 1))

static int rowstr[NA + 1], colidx[NZ];
static double a[NZ], x[NA], z[NA], p[NA], q[NA], r[NA];

static void matvec(const double v[NA], double w[NA]) {
#pragma omp for
    for (int j = 0; j < NA; j++) {
        double s = 0.0;
        for (int k = rowstr[j]; k < rowstr[j + 1]; k++)
            s += a[k] * v[colidx[k]];
        w[j] = s;
    }
}

static double conj_grad(void) {
    double d, sum = 0.0, rho = 0.0, rho0, alpha, beta;
    int cgit;
#pragma omp parallel default(shared) private(cgit, alpha, beta) shared(d, rho0, rho, sum)
    {
#pragma omp for
        for (int j = 0; j < NA; j++) {
            q[j] = 0.0;
            z[j] = 0.0;
            r[j] = x[j];
            p[j] = r[j];
        }
#pragma omp for reduction(+:rho)
        for (int j = 0; j < NA; j++)
            rho += r[j] * r[j];
        for (cgit = 0; cgit < 3; cgit++) {
#pragma omp master
            {
                rho0 = rho;
                d = 0.0;
                rho = 0.0;
            }
#pragma omp barrier
            matvec(p, q);
#pragma omp for reduction(+:d)
            for (int j = 0; j < NA; j++)
                d += p[j] * q[j];
            alpha = rho0 / d;
#pragma omp for reduction(+:rho)
            for (int j = 0; j < NA; j++) {
                z[j] += alpha * p[j];
                r[j] -= alpha * q[j];
                rho += r[j] * r[j];
            }
            beta = rho / rho0;
#pragma omp for nowait
            for (int j = 0; j < NA; j++)
                p[j] = r[j] + beta * p[j];
#pragma omp barrier
        }
        matvec(z, r);
#pragma omp for reduction(+:sum)
        for (int j = 0; j < NA; j++) {
            double e = x[j] - r[j];
            sum += e * e;
        }
    }
    return sqrt(sum);
}

int main(void) {
    int nnz = 0;
    for (int j = 0; j < NA; j++) {
        rowstr[j] = nnz;
        for (int k = 0; k <= NONZER; k++) {
            colidx[nnz] = k == 0 ? j : (j * 17 + k * 41) % NA;
            a[nnz] = (k == 0 ? 2.5 : 0.3 / (k + 2)) + 0.01 * (j % 5);
            nnz++;
        }
    }
    rowstr[NA] = nnz;
    for (int j = 0; j < NA; j++)
        x[j] = 1.0;
    for (int it = 1; it <= 3; it++) {
        double rnorm = conj_grad(), t1 = 0.0, t2 = 0.0, zeta;
#pragma omp parallel
        {
#pragma omp for reduction(+:t1, t2)
            for (int j = 0; j < NA; j++) {
                t1 += x[j] * z[j];
                t2 += z[j] * z[j];
            }
#pragma omp single
            {
                t2 = 1.0 / sqrt(t2);
                zeta = 10.0 + 1.0 / t1;
            }
#pragma omp for
            for (int j = 0; j < NA; j++)
                x[j] = t2 * z[j];
        }
        printf("%3d %.15e %.15e\n", it, rnorm, zeta);
    }
    printf("%.15e %.15e %.15e\n", x[0], x[NA / 2], x[NA - 1]);
    return 0;
}
