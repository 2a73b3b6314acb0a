/* Rank 1 changes an element of a resident array on the host and forgets `update device`: its
 * translated run differs from the original, rank 0's does not (tests/e2e/test_mpi.py). */
#include <mpi.h>
#include <stdio.h>

#define N 32

static double u[N];

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < N; i++)
        u[i] = i + rank;
#pragma translate data copy(u)
#pragma translate kernel twice
    for (int i = 0; i < N; i++)
        u[i] = 2 * u[i];
#pragma translate end kernel
    if (rank == 1)
        u[3] = -1.0;
#pragma translate kernel plus_one
    for (int i = 0; i < N; i++)
        u[i] = u[i] + 1;
#pragma translate end kernel
#pragma translate end data
    MPI_Finalize();
    return 0;
}
