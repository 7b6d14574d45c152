/* tagmatch's MPI recorder (the format: recorder.h): point-to-point calls, completions,
 * probes and matched probes. */
#include "recorder.h"

/* count, datatype, peer, tag, comm */
static void put_p2p(int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm)
{
    put32((uint32_t)count);
    put16((uint16_t)datatype_id(type));
    put32((uint32_t)rank_value(peer));
    put32((uint32_t)tag_value(tag));
    put16((uint16_t)comm_id(comm));
}

#define BLOCKING_SEND(NAME, LABEL)                                                                     \
    int NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)          \
    {                                                                                                  \
        struct stamp in = now();                                                                       \
        int rc = P##NAME(buf, count, type, dest, tag, comm);                                           \
        if (begin(LABEL, 0, in, now())) {                                                              \
            put_p2p(count, type, dest, tag, comm);                                                     \
            flush_record();                                                                            \
        }                                                                                              \
        return rc;                                                                                     \
    }

BLOCKING_SEND(MPI_Send, L_SEND)
BLOCKING_SEND(MPI_Bsend, L_BSEND)
BLOCKING_SEND(MPI_Ssend, L_SSEND)
BLOCKING_SEND(MPI_Rsend, L_RSEND)

#define NONBLOCKING_SEND(NAME, LABEL)                                                                  \
    int NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,         \
             MPI_Request *request)                                                                     \
    {                                                                                                  \
        struct stamp in = now();                                                                       \
        int rc = P##NAME(buf, count, type, dest, tag, comm, request);                                  \
        if (begin(LABEL, 0, in, now())) {                                                              \
            put_p2p(count, type, dest, tag, comm);                                                     \
            put32((uint32_t)new_request(*request));                                                    \
            flush_record();                                                                            \
        }                                                                                              \
        return rc;                                                                                     \
    }

NONBLOCKING_SEND(MPI_Isend, L_ISEND)
NONBLOCKING_SEND(MPI_Ibsend, L_IBSEND)
NONBLOCKING_SEND(MPI_Issend, L_ISSEND)
NONBLOCKING_SEND(MPI_Irsend, L_IRSEND)
NONBLOCKING_SEND(MPI_Send_init, L_SEND_INIT)
NONBLOCKING_SEND(MPI_Bsend_init, L_BSEND_INIT)
NONBLOCKING_SEND(MPI_Ssend_init, L_SSEND_INIT)
NONBLOCKING_SEND(MPI_Rsend_init, L_RSEND_INIT)

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
    struct stamp in = now();
    int rc = PMPI_Irecv(buf, count, type, source, tag, comm, request);
    if (begin(L_IRECV, 0, in, now())) {
        put_p2p(count, type, source, tag, comm);
        put32((uint32_t)new_request(*request));
        flush_record();
    }
    return rc;
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                  MPI_Request *request)
{
    struct stamp in = now();
    int rc = PMPI_Recv_init(buf, count, type, source, tag, comm, request);
    if (begin(L_RECV_INIT, 0, in, now())) {
        put_p2p(count, type, source, tag, comm);
        put32((uint32_t)new_request(*request));
        flush_record();
    }
    return rc;
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    struct stamp in = now();
    int rc = PMPI_Recv(buf, count, type, source, tag, comm, status);
    if (begin(L_RECV, status != MPI_STATUS_IGNORE, in, now())) {
        put_p2p(count, type, source, tag, comm);
        put_statuses(1, status);
        flush_record();
    }
    return rc;
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    struct stamp in = now();
    int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                           recvtag, comm, status);
    if (begin(L_SENDRECV, status != MPI_STATUS_IGNORE, in, now())) {
        put32((uint32_t)sendcount);
        put16((uint16_t)datatype_id(sendtype));
        put32((uint32_t)rank_value(dest));
        put32((uint32_t)tag_value(sendtag));
        put32((uint32_t)recvcount);
        put16((uint16_t)datatype_id(recvtype));
        put32((uint32_t)rank_value(source));
        put32((uint32_t)tag_value(recvtag));
        put16((uint16_t)comm_id(comm));
        put_statuses(1, status);
        flush_record();
    }
    return rc;
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    MPI_Request before = *request;
    int id = request_id(before);
    struct stamp in = now();
    int rc = PMPI_Wait(request, status);
    if (begin(L_WAIT, status != MPI_STATUS_IGNORE, in, now())) {
        put32((uint32_t)id);
        put_statuses(1, status);
        flush_record();
    }
    forget_if_nulled(before, *request);
    return rc;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    MPI_Request before = *request;
    int id = request_id(before);
    struct stamp in = now();
    int rc = PMPI_Test(request, flag, status);
    if (begin(L_TEST, *flag && status != MPI_STATUS_IGNORE, in, now())) {
        put32((uint32_t)id);
        put32((uint32_t)*flag);
        put_statuses(*flag ? 1 : 0, status);
        flush_record();
    }
    forget_if_nulled(before, *request);
    return rc;
}

/* The numbers of `n` requests before a completion call, and a copy of the handles. */
static int *request_ids(int n, const MPI_Request *r, MPI_Request **copy)
{
    int *ids = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    *copy = malloc(sizeof(MPI_Request) * (size_t)(n > 0 ? n : 1));
    if (!ids || !*copy) {
        fprintf(stderr, "tagmatch record: out of memory\n");
        abort();
    }
    for (int i = 0; i < n; i++) {
        ids[i] = request_id(r[i]);
        (*copy)[i] = r[i];
    }
    return ids;
}

static void forget_all_nulled(int n, const MPI_Request *before, const MPI_Request *after)
{
    for (int i = 0; i < n; i++)
        forget_if_nulled(before[i], after[i]);
}

int MPI_Waitany(int count, MPI_Request requests_[], int *index, MPI_Status *status)
{
    MPI_Request *copy;
    int *ids = request_ids(count, requests_, &copy);
    struct stamp in = now();
    int rc = PMPI_Waitany(count, requests_, index, status);
    if (begin(L_WAITANY, status != MPI_STATUS_IGNORE, in, now())) {
        put32((uint32_t)count);
        put_ints(count, ids);
        put32((uint32_t)(*index == MPI_UNDEFINED ? STORED_UNDEFINED : *index));
        put_statuses(*index == MPI_UNDEFINED ? 0 : 1, status);
        flush_record();
    }
    forget_all_nulled(count, copy, requests_);
    free(ids);
    free(copy);
    return rc;
}

int MPI_Testany(int count, MPI_Request requests_[], int *index, int *flag, MPI_Status *status)
{
    MPI_Request *copy;
    int *ids = request_ids(count, requests_, &copy);
    struct stamp in = now();
    int rc = PMPI_Testany(count, requests_, index, flag, status);
    int done = *flag && *index != MPI_UNDEFINED;
    if (begin(L_TESTANY, done && status != MPI_STATUS_IGNORE, in, now())) {
        put32((uint32_t)count);
        put_ints(count, ids);
        put32((uint32_t)(*index == MPI_UNDEFINED ? STORED_UNDEFINED : *index));
        put32((uint32_t)*flag);
        put_statuses(done ? 1 : 0, status);
        flush_record();
    }
    forget_all_nulled(count, copy, requests_);
    free(ids);
    free(copy);
    return rc;
}

int MPI_Waitall(int count, MPI_Request requests_[], MPI_Status statuses[])
{
    MPI_Request *copy;
    int *ids = request_ids(count, requests_, &copy);
    struct stamp in = now();
    int rc = PMPI_Waitall(count, requests_, statuses);
    if (begin(L_WAITALL, statuses != MPI_STATUSES_IGNORE, in, now())) {
        put32((uint32_t)count);
        put_ints(count, ids);
        put_statuses(count, statuses);
        flush_record();
    }
    forget_all_nulled(count, copy, requests_);
    free(ids);
    free(copy);
    return rc;
}

int MPI_Testall(int count, MPI_Request requests_[], int *flag, MPI_Status statuses[])
{
    MPI_Request *copy;
    int *ids = request_ids(count, requests_, &copy);
    struct stamp in = now();
    int rc = PMPI_Testall(count, requests_, flag, statuses);
    if (begin(L_TESTALL, *flag && statuses != MPI_STATUSES_IGNORE, in, now())) {
        put32((uint32_t)count);
        put_ints(count, ids);
        put32((uint32_t)*flag);
        put_statuses(*flag ? count : 0, statuses);
        flush_record();
    }
    forget_all_nulled(count, copy, requests_);
    free(ids);
    free(copy);
    return rc;
}

static int some(int label, int count, MPI_Request requests_[], int *outcount, int indices[], MPI_Status statuses[])
{
    MPI_Request *copy;
    int *ids = request_ids(count, requests_, &copy);
    struct stamp in = now();
    int rc = label == L_WAITSOME ? PMPI_Waitsome(count, requests_, outcount, indices, statuses)
                                 : PMPI_Testsome(count, requests_, outcount, indices, statuses);
    int n = *outcount == MPI_UNDEFINED ? 0 : *outcount;
    if (begin(label, n > 0 && statuses != MPI_STATUSES_IGNORE, in, now())) {
        put32((uint32_t)count);
        put_ints(count, ids);
        put32((uint32_t)(*outcount == MPI_UNDEFINED ? STORED_UNDEFINED : *outcount));
        put_ints(n, indices);
        put_statuses(n, statuses);
        flush_record();
    }
    forget_all_nulled(count, copy, requests_);
    free(ids);
    free(copy);
    return rc;
}

int MPI_Waitsome(int count, MPI_Request requests_[], int *outcount, int indices[], MPI_Status statuses[])
{
    return some(L_WAITSOME, count, requests_, outcount, indices, statuses);
}

int MPI_Testsome(int count, MPI_Request requests_[], int *outcount, int indices[], MPI_Status statuses[])
{
    return some(L_TESTSOME, count, requests_, outcount, indices, statuses);
}

int MPI_Request_free(MPI_Request *request)
{
    MPI_Request before = *request;
    int id = request_id(before);
    struct stamp in = now();
    int rc = PMPI_Request_free(request);
    if (begin(L_REQUEST_FREE, 0, in, now())) {
        put32((uint32_t)id);
        flush_record();
    }
    if (before != MPI_REQUEST_NULL)
        map_remove(&requests, key_of(&before, sizeof before));
    return rc;
}

int MPI_Cancel(MPI_Request *request)
{
    int id = request_id(*request);
    struct stamp in = now();
    int rc = PMPI_Cancel(request);
    if (begin(L_CANCEL, 0, in, now())) {
        put32((uint32_t)id);
        flush_record();
    }
    return rc;
}

int MPI_Start(MPI_Request *request)
{
    int id = request_id(*request);
    struct stamp in = now();
    int rc = PMPI_Start(request);
    if (begin(L_START, 0, in, now())) {
        put32((uint32_t)id);
        flush_record();
    }
    return rc;
}

int MPI_Startall(int count, MPI_Request requests_[])
{
    MPI_Request *copy;
    int *ids = request_ids(count, requests_, &copy);
    struct stamp in = now();
    int rc = PMPI_Startall(count, requests_);
    if (begin(L_STARTALL, 0, in, now())) {
        put32((uint32_t)count);
        put_ints(count, ids);
        flush_record();
    }
    free(ids);
    free(copy);
    return rc;
}

static void put_probe(int label, int source, int tag, MPI_Comm comm, const int *flag, const MPI_Status *status,
                      struct stamp in)
{
    int found = !flag || *flag;
    if (begin(label, found && status != MPI_STATUS_IGNORE, in, now())) {
        put32((uint32_t)rank_value(source));
        put32((uint32_t)tag_value(tag));
        put16((uint16_t)comm_id(comm));
        if (flag)
            put32((uint32_t)*flag);
        put_statuses(found ? 1 : 0, status);
        flush_record();
    }
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    struct stamp in = now();
    int rc = PMPI_Probe(source, tag, comm, status);
    put_probe(L_PROBE, source, tag, comm, NULL, status, in);
    return rc;
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    struct stamp in = now();
    int rc = PMPI_Iprobe(source, tag, comm, flag, status);
    put_probe(L_IPROBE, source, tag, comm, flag, status, in);
    return rc;
}

/* Matched probes: stored as probes; the message's communicator, source and tag are kept
 * for its receive (values stored plus one: the maps take only positive values). */
/* Communicator of a matched message (MPI_Message), from its probe to its receive. */
static struct handle_map message_comms = { .next = 1 };
static struct handle_map message_sources = { .next = 1 };
static struct handle_map message_tags = { .next = 1 };

static void remember_message(MPI_Message m, MPI_Comm comm, const MPI_Status *s)
{
    uint64_t k = key_of(&m, sizeof m);
    map_put(&message_comms, k, comm_id(comm));
    map_put(&message_sources, k, s->MPI_SOURCE + 1);
    map_put(&message_tags, k, s->MPI_TAG + 1);
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    MPI_Status own;
    MPI_Status *s = status == MPI_STATUS_IGNORE ? &own : status;
    struct stamp in = now();
    int rc = PMPI_Mprobe(source, tag, comm, message, s);
    substituted_mprobe++;
    put_probe(L_PROBE, source, tag, comm, NULL, status, in);
    if (*message != MPI_MESSAGE_NO_PROC)
        remember_message(*message, comm, s);
    return rc;
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status)
{
    MPI_Status own;
    MPI_Status *s = status == MPI_STATUS_IGNORE ? &own : status;
    struct stamp in = now();
    int rc = PMPI_Improbe(source, tag, comm, flag, message, s);
    substituted_improbe++;
    put_probe(L_IPROBE, source, tag, comm, flag, status, in);
    if (*flag && *message != MPI_MESSAGE_NO_PROC)
        remember_message(*message, comm, s);
    return rc;
}

/* A matched message's receive, stored as a receive of its exact envelope. */
static void put_matched_receive(MPI_Message m, int count, MPI_Datatype type)
{
    uint64_t k = key_of(&m, sizeof m);
    int *comm = map_find(&message_comms, k), *src = map_find(&message_sources, k),
        *tag = map_find(&message_tags, k);
    put32((uint32_t)count);
    put16((uint16_t)datatype_id(type));
    put32((uint32_t)(src ? *src - 1 : STORED_ANY));
    put32((uint32_t)(tag ? *tag - 1 : STORED_ANY));
    put16((uint16_t)(comm ? *comm : 2));
    map_remove(&message_comms, k);
    map_remove(&message_sources, k);
    map_remove(&message_tags, k);
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Status *status)
{
    MPI_Message m = *message;
    struct stamp in = now();
    int rc = PMPI_Mrecv(buf, count, type, message, status);
    substituted_mrecv++;
    if (m != MPI_MESSAGE_NO_PROC && begin(L_RECV, status != MPI_STATUS_IGNORE, in, now())) {
        put_matched_receive(m, count, type);
        put_statuses(1, status);
        flush_record();
    }
    return rc;
}

int MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Request *request)
{
    MPI_Message m = *message;
    struct stamp in = now();
    int rc = PMPI_Imrecv(buf, count, type, message, request);
    substituted_imrecv++;
    if (m != MPI_MESSAGE_NO_PROC && begin(L_IRECV, 0, in, now())) {
        put_matched_receive(m, count, type);
        put32((uint32_t)new_request(*request));
        flush_record();
    }
    return rc;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status *status)
{
    struct stamp in = now();
    int rc = PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
    if (begin(L_SENDRECV_REPLACE, status != MPI_STATUS_IGNORE, in, now())) {
        put32((uint32_t)count);
        put16((uint16_t)datatype_id(type));
        put32((uint32_t)rank_value(dest));
        put32((uint32_t)tag_value(sendtag));
        put32((uint32_t)rank_value(source));
        put32((uint32_t)tag_value(recvtag));
        put16((uint16_t)comm_id(comm));
        put_statuses(1, status);
        flush_record();
    }
    return rc;
}
