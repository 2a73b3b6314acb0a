/* 2-D heat equation, the rows split over the MPI ranks (1-D domain decomposition), the way a C
 * program splits a row-major grid: every halo is a contiguous row.
 *
 * Each rank holds NXL rows and NY columns of the grid, plus one halo row above and below.  The
 * field stays on the device for the whole time loop (a data region); every step the rank
 * brings its two edge rows to the host (`update host` of two row sections: 2 x NY doubles),
 * exchanges them with its neighbours by MPI_Sendrecv, and sends the two halo rows it received
 * to the device (`update device`).  Rank r of p holds global rows r*NXL+1 .. (r+1)*NXL; the
 * grid's outer boundary stays fixed.  (heat_mpi.c splits the columns instead: its halos are
 * strided sections.)
 *
 * Build:  mpicc heat_mpi_rows.c -o heat_mpi_rows; run: mpirun -np 2 ./heat_mpi_rows [steps]
 * Rank 0 prints every rank's checksum. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef NXL
#define NXL 40
#endif
#ifndef NY
#define NY 72
#endif

static double u[NXL + 2][NY + 2], unew[NXL + 2][NY + 2];

static void initialise(int rank)
{
    for (int i = 0; i < NXL + 2; i++)
        for (int j = 0; j < NY + 2; j++) {
            int ig = rank * NXL + i;           /* global row */
            u[i][j] = (double)((ig * 7 + j * 3) % 17) / 16.0;
            unew[i][j] = u[i][j];
        }
}

int main(int argc, char **argv)
{
    int rank, size, steps = argc > 1 ? atoi(argv[1]) : 20;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    initialise(rank);
#pragma translate data copy(u) copyin(unew)
    for (int t = 0; t < steps; t++) {
#pragma translate update host(u[1:1][1:NY], u[NXL:1][1:NY])
        /* edge rows to the neighbours, theirs into the halo rows */
        MPI_Sendrecv(&u[1][1], NY, MPI_DOUBLE, up, 0, &u[NXL + 1][1], NY, MPI_DOUBLE, down, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[NXL][1], NY, MPI_DOUBLE, down, 1, &u[0][1], NY, MPI_DOUBLE, up, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma translate update device(u[0:1][1:NY], u[NXL+1:1][1:NY])
#pragma translate kernel heat_rows_step
        for (int i = 1; i <= NXL; i++)
            for (int j = 1; j <= NY; j++)
                unew[i][j] = u[i][j] + 0.1 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1]
                                              + u[i][j + 1] - 4.0 * u[i][j]);
#pragma translate end kernel
#pragma translate kernel heat_rows_store
        for (int i = 1; i <= NXL; i++)
            for (int j = 1; j <= NY; j++)
                u[i][j] = unew[i][j];
#pragma translate end kernel
    }
#pragma translate end data
    double mine = 0.0, *all = malloc((size_t)size * sizeof *all);
    for (int i = 1; i <= NXL; i++)
        for (int j = 1; j <= NY; j++)
            mine += u[i][j] * (double)(i + j);
    MPI_Gather(&mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (int r = 0; r < size; r++)
            printf("rank %d checksum %24.16e\n", r, all[r]);
    free(all);
    MPI_Finalize();
    return 0;
}
