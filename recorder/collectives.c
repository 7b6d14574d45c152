/* tagmatch's MPI recorder (the format: recorder.h): the collectives, stored as calls, and
 * the vector collectives and scans, counted but not stored. */
#include "recorder.h"

int MPI_Barrier(MPI_Comm comm)
{
    struct stamp in = now();
    int rc = PMPI_Barrier(comm);
    if (begin(L_BARRIER, 0, in, now())) {
        put16((uint16_t)comm_id(comm));
        flush_record();
    }
    return rc;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    struct stamp in = now();
    int rc = PMPI_Bcast(buf, count, type, root, comm);
    if (begin(L_BCAST, 0, in, now())) {
        put32((uint32_t)count);
        put16((uint16_t)datatype_id(type));
        put32((uint32_t)root);
        put16((uint16_t)comm_id(comm));
        flush_record();
    }
    return rc;
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
    struct stamp in = now();
    int rc = PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
    if (begin(L_REDUCE, 0, in, now())) {
        put32((uint32_t)count);
        put16((uint16_t)datatype_id(type));
        put8((uint8_t)op_id(op));
        put32((uint32_t)root);
        put16((uint16_t)comm_id(comm));
        flush_record();
    }
    return rc;
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    struct stamp in = now();
    int rc = PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
    if (begin(L_ALLREDUCE, 0, in, now())) {
        put32((uint32_t)count);
        put16((uint16_t)datatype_id(type));
        put8((uint8_t)op_id(op));
        put16((uint16_t)comm_id(comm));
        flush_record();
    }
    return rc;
}

#define ALL_TO(NAME, LABEL)                                                                            \
    int NAME(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,  \
             MPI_Datatype recvtype, MPI_Comm comm)                                                     \
    {                                                                                                  \
        struct stamp in = now();                                                                       \
        int rc = P##NAME(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);            \
        if (begin(LABEL, 0, in, now())) {                                                              \
            put32((uint32_t)sendcount);                                                                \
            put16((uint16_t)datatype_id(sendtype));                                                    \
            put32((uint32_t)recvcount);                                                                \
            put16((uint16_t)datatype_id(recvtype));                                                    \
            put16((uint16_t)comm_id(comm));                                                            \
            flush_record();                                                                            \
        }                                                                                              \
        return rc;                                                                                     \
    }

ALL_TO(MPI_Allgather, L_ALLGATHER)
ALL_TO(MPI_Alltoall, L_ALLTOALL)

/* Gather and scatter: the caller's rank, its side's count and type, root, comm; the
 * root's side only on the root. */
static void put_rooted(int label, int mine, MPI_Datatype mine_type, int theirs, MPI_Datatype their_type, int root,
                       MPI_Comm comm, struct stamp in)
{
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    if (begin(label, 0, in, now())) {
        put32((uint32_t)rank);
        put32((uint32_t)mine);
        put16((uint16_t)datatype_id(mine_type));
        put32((uint32_t)root);
        put16((uint16_t)comm_id(comm));
        if (rank == root) {
            put32((uint32_t)theirs);
            put16((uint16_t)datatype_id(their_type));
        }
        flush_record();
    }
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct stamp in = now();
    int rc = PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    put_rooted(L_GATHER, sendcount, sendtype, recvcount, recvtype, root, comm, in);
    return rc;
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct stamp in = now();
    int rc = PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    put_rooted(L_SCATTER, recvcount, recvtype, sendcount, sendtype, root, comm, in);
    return rc;
}

int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    count_only(L_GATHERV);
    return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
}

int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    count_only(L_SCATTERV);
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    count_only(L_ALLGATHERV);
    return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    count_only(L_ALLTOALLV);
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm)
{
    count_only(L_REDUCE_SCATTER);
    return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm);
}

int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    count_only(L_SCAN);
    return PMPI_Scan(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    count_only(L_EXSCAN);
    return PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm);
}
