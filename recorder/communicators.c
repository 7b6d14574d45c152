/* tagmatch's MPI recorder (the format: recorder.h): initialization and finalization,
 * communicators, groups and intercommunicators, and the calls stored as what the replay
 * understands. */
#include "recorder.h"

int MPI_Init(int *argc, char ***argv)
{
    struct stamp in = now();
    int rc = PMPI_Init(argc, argv);
    open_file(in);
    if (begin(L_INIT, 0, in, now())) {
        int n = argc ? *argc : 0;
        put32((uint32_t)n);
        for (int i = 0; i < n; i++)
            put_string32(argv && *argv && (*argv)[i] ? (*argv)[i] : "");
        flush_record();
    }
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    struct stamp in = now();
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    open_file(in);
    if (begin(L_INIT_THREAD, 0, in, now())) {
        int n = argc ? *argc : 0;
        put32((uint32_t)n);
        for (int i = 0; i < n; i++)
            put_string32(argv && *argv && (*argv)[i] ? (*argv)[i] : "");
        /* DUMPI's thread levels count from 1 (single) up. */
        put8((uint8_t)(required + 1 - MPI_THREAD_SINGLE));
        put8((uint8_t)(*provided + 1 - MPI_THREAD_SINGLE));
        flush_record();
    }
    return rc;
}

int MPI_Finalize(void)
{
    struct stamp in = now();
    if (begin(L_FINALIZE, 0, in, now()))
        flush_record();
    finish_file();
    return PMPI_Finalize();
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    struct stamp in = now();
    int rc = PMPI_Comm_rank(comm, rank);
    if (begin(L_COMM_RANK, 0, in, now())) {
        put16((uint16_t)comm_id(comm));
        put32((uint32_t)*rank);
        flush_record();
    }
    return rc;
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
    struct stamp in = now();
    int rc = PMPI_Comm_size(comm, size);
    if (begin(L_COMM_SIZE, 0, in, now())) {
        put16((uint16_t)comm_id(comm));
        put32((uint32_t)*size);
        flush_record();
    }
    return rc;
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    struct stamp in = now();
    int rc = PMPI_Comm_dup(comm, newcomm);
    if (begin(L_COMM_DUP, 0, in, now())) {
        put16((uint16_t)comm_id(comm));
        put16((uint16_t)comm_id(*newcomm));
        flush_record();
    }
    return rc;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    struct stamp in = now();
    int rc = PMPI_Comm_split(comm, color, key, newcomm);
    if (begin(L_COMM_SPLIT, 0, in, now())) {
        put16((uint16_t)comm_id(comm));
        put32((uint32_t)(color == MPI_UNDEFINED ? STORED_UNDEFINED : color));
        put32((uint32_t)key);
        put16((uint16_t)comm_id(*newcomm));
        flush_record();
    }
    return rc;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    struct stamp in = now();
    int rc = PMPI_Comm_create(comm, group, newcomm);
    if (begin(L_COMM_CREATE, 0, in, now())) {
        put16((uint16_t)comm_id(comm));
        put16((uint16_t)group_id(group));
        put16((uint16_t)comm_id(*newcomm));
        flush_record();
    }
    return rc;
}

int MPI_Comm_free(MPI_Comm *comm)
{
    MPI_Comm before = *comm;
    int id = comm_id(before);
    struct stamp in = now();
    int rc = PMPI_Comm_free(comm);
    if (begin(L_COMM_FREE, 0, in, now())) {
        put16((uint16_t)id);
        flush_record();
    }
    /* A handle MPI reuses later is a new communicator. */
    map_remove(&comms, key_of(&before, sizeof before));
    return rc;
}

int MPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    struct stamp in = now();
    int rc = PMPI_Comm_group(comm, group);
    if (begin(L_COMM_GROUP, 0, in, now())) {
        put16((uint16_t)comm_id(comm));
        put16((uint16_t)group_id(*group));
        flush_record();
    }
    return rc;
}

int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    struct stamp in = now();
    int rc = PMPI_Group_incl(group, n, ranks, newgroup);
    if (begin(L_GROUP_INCL, 0, in, now())) {
        put16((uint16_t)group_id(group));
        put32((uint32_t)n);
        put_ints(n, ranks);
        put16((uint16_t)group_id(*newgroup));
        flush_record();
    }
    return rc;
}

int MPI_Group_free(MPI_Group *group)
{
    MPI_Group before = *group;
    int id = group_id(before);
    struct stamp in = now();
    int rc = PMPI_Group_free(group);
    if (begin(L_GROUP_FREE, 0, in, now())) {
        put16((uint16_t)id);
        flush_record();
    }
    map_remove(&groups, key_of(&before, sizeof before));
    return rc;
}

/* A communicator made by a call the replay does not rebuild, stored as the MPI_Comm_split
 * that makes the same group in the same order: `color` names the group (MPI_UNDEFINED for
 * a rank left out), `key` is the rank in it. */
static void put_as_split(MPI_Comm old, int color, MPI_Comm made, struct stamp in)
{
    int key = 0;
    if (made != MPI_COMM_NULL)
        PMPI_Comm_rank(made, &key);
    if (begin(L_COMM_SPLIT, 0, in, now())) {
        put16((uint16_t)comm_id(old));
        put32((uint32_t)(color == MPI_UNDEFINED ? STORED_UNDEFINED : color));
        put32((uint32_t)key);
        put16((uint16_t)comm_id(made));
        flush_record();
    }
}

int MPI_Cart_create(MPI_Comm old, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm *cart)
{
    struct stamp in = now();
    int rc = PMPI_Cart_create(old, ndims, dims, periods, reorder, cart);
    substituted_cart_create++;
    put_as_split(old, *cart == MPI_COMM_NULL ? MPI_UNDEFINED : 0, *cart, in);
    return rc;
}

int MPI_Comm_split_type(MPI_Comm old, int split_type, int key, MPI_Info info, MPI_Comm *made)
{
    struct stamp in = now();
    int rc = PMPI_Comm_split_type(old, split_type, key, info, made);
    substituted_comm_split_type++;
    /* One color per new communicator: the old rank of its rank 0, which it broadcasts. */
    int color = MPI_UNDEFINED;
    if (*made != MPI_COMM_NULL) {
        PMPI_Comm_rank(old, &color);
        PMPI_Bcast(&color, 1, MPI_INT, 0, *made);
    }
    put_as_split(old, color, *made, in);
    return rc;
}

int MPI_Abort(MPI_Comm comm, int errorcode)
{
    struct stamp in = now();
    if (begin(L_ABORT, 0, in, now())) {
        put16((uint16_t)comm_id(comm));
        put32((uint32_t)errorcode);
        flush_record();
    }
    finish_file();
    return PMPI_Abort(comm, errorcode);
}

static int group_pair(int label, int (*call)(MPI_Group, MPI_Group, MPI_Group *), MPI_Group a, MPI_Group b,
                      MPI_Group *made)
{
    struct stamp in = now();
    int rc = call(a, b, made);
    if (begin(label, 0, in, now())) {
        put16((uint16_t)group_id(a));
        put16((uint16_t)group_id(b));
        put16((uint16_t)group_id(*made));
        flush_record();
    }
    return rc;
}

int MPI_Group_union(MPI_Group a, MPI_Group b, MPI_Group *made)
{
    return group_pair(L_GROUP_UNION, PMPI_Group_union, a, b, made);
}

int MPI_Group_intersection(MPI_Group a, MPI_Group b, MPI_Group *made)
{
    return group_pair(L_GROUP_INTERSECTION, PMPI_Group_intersection, a, b, made);
}

int MPI_Group_difference(MPI_Group a, MPI_Group b, MPI_Group *made)
{
    return group_pair(L_GROUP_DIFFERENCE, PMPI_Group_difference, a, b, made);
}

int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *made)
{
    struct stamp in = now();
    int rc = PMPI_Group_excl(group, n, ranks, made);
    if (begin(L_GROUP_EXCL, 0, in, now())) {
        put16((uint16_t)group_id(group));
        put32((uint32_t)n);
        put_ints(n, ranks);
        put16((uint16_t)group_id(*made));
        flush_record();
    }
    return rc;
}

static int group_ranges(int label, MPI_Group group, int n, int ranges[][3], MPI_Group *made)
{
    struct stamp in = now();
    int rc = label == L_GROUP_RANGE_INCL ? PMPI_Group_range_incl(group, n, ranges, made)
                                         : PMPI_Group_range_excl(group, n, ranges, made);
    if (begin(label, 0, in, now())) {
        put16((uint16_t)group_id(group));
        put32((uint32_t)n);
        put32((uint32_t)(n < 0 ? 0 : n));
        for (int i = 0; i < n; i++)
            put_ints(3, ranges[i]);
        put16((uint16_t)group_id(*made));
        flush_record();
    }
    return rc;
}

int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *made)
{
    return group_ranges(L_GROUP_RANGE_INCL, group, n, ranges, made);
}

int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *made)
{
    return group_ranges(L_GROUP_RANGE_EXCL, group, n, ranges, made);
}

int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    struct stamp in = now();
    int rc = PMPI_Comm_remote_group(comm, group);
    if (begin(L_COMM_REMOTE_GROUP, 0, in, now())) {
        put16((uint16_t)comm_id(comm));
        put16((uint16_t)group_id(*group));
        flush_record();
    }
    return rc;
}

int MPI_Intercomm_create(MPI_Comm local, int local_leader, MPI_Comm peer, int remote_leader, int tag,
                         MPI_Comm *made)
{
    struct stamp in = now();
    int rc = PMPI_Intercomm_create(local, local_leader, peer, remote_leader, tag, made);
    if (begin(L_INTERCOMM_CREATE, 0, in, now())) {
        put16((uint16_t)comm_id(local));
        put32((uint32_t)local_leader);
        put16((uint16_t)comm_id(peer));
        put32((uint32_t)remote_leader);
        put32((uint32_t)tag);
        put16((uint16_t)comm_id(*made));
        flush_record();
    }
    return rc;
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *made)
{
    struct stamp in = now();
    int rc = PMPI_Intercomm_merge(intercomm, high, made);
    if (begin(L_INTERCOMM_MERGE, 0, in, now())) {
        put16((uint16_t)comm_id(intercomm));
        put32((uint32_t)high);
        put16((uint16_t)comm_id(*made));
        flush_record();
    }
    return rc;
}

int MPI_Comm_disconnect(MPI_Comm *comm)
{
    MPI_Comm before = *comm;
    int id = comm_id(before);
    struct stamp in = now();
    int rc = PMPI_Comm_disconnect(comm);
    if (begin(L_COMM_DISCONNECT, 0, in, now())) {
        put16((uint16_t)id);
        flush_record();
    }
    map_remove(&comms, key_of(&before, sizeof before));
    return rc;
}
