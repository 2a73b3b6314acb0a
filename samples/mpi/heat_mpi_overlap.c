/* 2-D heat equation, the columns split over the MPI ranks (1-D domain decomposition).
 *
 * Each rank holds NX rows and NYL columns of the grid, plus one halo column on each side.  The
 * field stays on the device for the whole time loop (a data region); every step the rank
 * brings its two edge columns to the host (`update host` of two column sections: 2 x NX
 * doubles, not the whole array), exchanges them with its neighbours by MPI_Sendrecv, and sends
 * the two halo columns it received to the device (`update device`).  Rank r of p holds global
 * columns r*NYL+1 .. (r+1)*NYL; the grid's outer boundary stays fixed.
 *
 * The exchange overlaps the update of the interior, which needs no halo: the edge columns
 * travel on async queue 1 while the interior columns 2 .. NYL-1 are computed on queue 2;
 * `wait(1)` makes the edges visible to MPI, the halos go back on queue 1 and the two edge
 * columns are computed after them on the same queue.  `heat_store`, without async, runs after
 * all of it.  Each cell is computed by the same expression as without the overlap, so the
 * results are the same bits.
 *
 * The same program as heat_mpi.c (which runs everything in order on one queue), with the overlap.
 * Build:  mpicc heat_mpi_overlap.c -o heat_mpi_overlap; run: mpirun -np 2 ./heat_mpi_overlap [steps]
 * Rank 0 prints every rank's checksum, so the output does not depend on the number of ranks'
 * output interleaving. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef NX
#define NX 64
#endif
#ifndef NYL
#define NYL 48
#endif

static double u[NX + 2][NYL + 2], unew[NX + 2][NYL + 2];

static void initialise(int rank)
{
    for (int i = 0; i < NX + 2; i++)
        for (int j = 0; j < NYL + 2; j++) {
            int jg = rank * NYL + j;           /* global column */
            u[i][j] = (double)((i * 7 + jg * 3) % 17) / 16.0;
            unew[i][j] = u[i][j];
        }
}

int main(int argc, char **argv)
{
    int rank, size, steps = argc > 1 ? atoi(argv[1]) : 20;
    MPI_Datatype column;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    MPI_Type_vector(NX, 1, NYL + 2, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);
    initialise(rank);
#pragma translate data copy(u) copyin(unew)
    for (int t = 0; t < steps; t++) {
#pragma translate update host(u[1:NX][1:1], u[1:NX][NYL:1]) async(1)
#pragma translate kernel heat_interior async(2)
        for (int i = 1; i <= NX; i++)
            for (int j = 2; j <= NYL - 1; j++)
                unew[i][j] = u[i][j] + 0.1 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1]
                                              + u[i][j + 1] - 4.0 * u[i][j]);
#pragma translate end kernel
#pragma translate wait(1)
        /* edge columns to the neighbours, theirs into the halo columns */
        MPI_Sendrecv(&u[1][1], 1, column, left, 0, &u[1][NYL + 1], 1, column, right, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[1][NYL], 1, column, right, 1, &u[1][0], 1, column, left, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma translate update device(u[1:NX][0:1], u[1:NX][NYL+1:1]) async(1)
#pragma translate kernel heat_edges async(1)
        for (int i = 1; i <= NX; i++) {
            unew[i][1] = u[i][1] + 0.1 * (u[i - 1][1] + u[i + 1][1] + u[i][0] + u[i][2]
                                          - 4.0 * u[i][1]);
            unew[i][NYL] = u[i][NYL] + 0.1 * (u[i - 1][NYL] + u[i + 1][NYL] + u[i][NYL - 1]
                                              + u[i][NYL + 1] - 4.0 * u[i][NYL]);
        }
#pragma translate end kernel
#pragma translate kernel heat_store
        for (int i = 1; i <= NX; i++)
            for (int j = 1; j <= NYL; j++)
                u[i][j] = unew[i][j];
#pragma translate end kernel
    }
#pragma translate end data
    double mine = 0.0, *all = malloc((size_t)size * sizeof *all);
    for (int i = 1; i <= NX; i++)
        for (int j = 1; j <= NYL; j++)
            mine += u[i][j] * (double)(i + j);
    MPI_Gather(&mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (int r = 0; r < size; r++)
            printf("rank %d checksum %24.16e\n", r, all[r]);
    free(all);
    MPI_Type_free(&column);
    MPI_Finalize();
    return 0;
}
