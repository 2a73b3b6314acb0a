/* translate-test: translate=--directives=openacc */
/* OpenACC forms real code uses: kernels around several loops (each its own kernel), parallel
   with loop gang / loop vector inside, async(n) and wait, loop seq, routine seq on a called
   function, a data region around them. */
#include <stdio.h>

#define N 200
#define M 64

#pragma acc routine seq
static double weight(double x) { return 1.0 / (1.0 + x * x); }

static double a[N], b[N], c[N][M], rowsum[N];

int main(void) {
    for (int i = 0; i < N; i++)
        a[i] = 0.01 * (i + 1);
#pragma acc data copyin(a) create(b) copyout(c, rowsum)
    {
#pragma acc kernels
        {
            for (int i = 0; i < N; i++)
                b[i] = 2.0 * a[i] + 1.0;
            for (int i = 0; i < N; i++)
                for (int j = 0; j < M; j++)
                    c[i][j] = b[i] * (j + 1);
        }
#pragma acc parallel vector_length(64) async(1)
        {
#pragma acc loop gang
            for (int i = 0; i < N; i++) {
                double s = 0.0;
#pragma acc loop vector reduction(+:s)
                for (int j = 0; j < M; j++)
                    s += c[i][j] * weight(a[i]);
                rowsum[i] = s;
            }
        }
#pragma acc wait(1)
#pragma acc parallel loop gang async(2)
        for (int i = 0; i < N; i++) {
#pragma acc loop seq
            for (int k = 1; k < M; k++)
                c[i][k] += 0.5 * c[i][k - 1];
        }
#pragma acc wait
    }
    printf("%.15e %.15e %.15e\n", rowsum[0], rowsum[N / 2], rowsum[N - 1]);
    printf("%.15e %.15e %.15e\n", c[0][M - 1], c[N / 2][M - 1], c[N - 1][1]);
    return 0;
}
