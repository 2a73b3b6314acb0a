/* A one-process stand-in for <mpi.h>, enough for samples/mpi/heat_mpi.c where no MPI is
 * installed (bench/gpu/mpi_weak.sh): every process is rank 0 of 1, so its neighbours are
 * MPI_PROC_NULL and the exchange moves nothing; the device work and the halo updates are
 * those of a real rank.  Not an MPI implementation. */
#ifndef TR_MPI_STUB_H
#define TR_MPI_STUB_H
#include <string.h>

typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Status;
#define MPI_COMM_WORLD 0
#define MPI_DOUBLE 8
#define MPI_PROC_NULL (-2)
#define MPI_STATUS_IGNORE ((MPI_Status *)0)

static inline int MPI_Init(int *argc, char ***argv) { (void)argc; (void)argv; return 0; }
static inline int MPI_Finalize(void) { return 0; }
static inline int MPI_Comm_rank(MPI_Comm c, int *r) { (void)c; *r = 0; return 0; }
static inline int MPI_Comm_size(MPI_Comm c, int *s) { (void)c; *s = 1; return 0; }
static inline int MPI_Type_vector(int n, int b, int s, MPI_Datatype o, MPI_Datatype *t)
{ (void)n; (void)b; (void)s; (void)o; *t = 0; return 0; }
static inline int MPI_Type_commit(MPI_Datatype *t) { (void)t; return 0; }
static inline int MPI_Type_free(MPI_Datatype *t) { (void)t; return 0; }
/* Both neighbours of the only rank are MPI_PROC_NULL: nothing moves. */
static inline int MPI_Sendrecv(const void *sb, int sc, MPI_Datatype st, int dst, int stag,
                               void *rb, int rc, MPI_Datatype rt, int src, int rtag,
                               MPI_Comm c, MPI_Status *s)
{
    (void)sb; (void)sc; (void)st; (void)dst; (void)stag; (void)rb; (void)rc; (void)rt;
    (void)src; (void)rtag; (void)c; (void)s;
    return 0;
}
static inline int MPI_Gather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                             MPI_Datatype rt, int root, MPI_Comm c)
{
    (void)rc; (void)rt; (void)root; (void)c;
    memcpy(rb, sb, (size_t)sc * (size_t)st);   /* MPI_DOUBLE is its size here */
    return 0;
}
#endif
