/*
 * tagmatch's MPI recorder: a PMPI interposition library that writes DUMPI binary traces.
 *
 * Load it with LD_PRELOAD (`tagmatch record` does). Every rank writes
 * `{prefix}-NNNN.bin` (NNNN: its rank in MPI_COMM_WORLD, four digits or more) and rank 0
 * writes `{prefix}.meta`. The prefix comes from TAGMATCH_RECORD_PREFIX (default "dumpi").
 *
 * File layout (big-endian), as SST's DUMPI 0.6.9 writes it: the 8-byte magic; the body (CPU
 * and wall time biases in whole seconds, then one record per call, then the end-of-stream
 * label); the header (version, start time, host and user names, an empty mesh); the footer
 * (a magic word, then per-label counts of calls made and calls not stored); the keyval,
 * perf-counter label, datatype size and function address sections (all empty); and the
 * 64-byte index of section offsets.
 *
 * A record is a u16 label, a u8 mask (bit 0: statuses stored; bit 2: CPU times; bit 3:
 * wall times), the entry and exit times (u16 seconds past the bias, u32 nanoseconds; CPU,
 * then wall; CPU times are left out with TAGMATCH_RECORD_CPU_TIMES=0), then the call's
 * arguments in DUMPI's order for that call. Each record is
 * built in memory and written whole, so the file never holds half a record. The closing
 * sections are written at MPI_Finalize, at exit (atexit), or on a fatal signal, so a
 * program that fails still leaves a file that reads up to its last record.
 *
 * Handles are stored as DUMPI numbers them: communicators 1 null, 2 world, 3 self, then 4
 * upward in creation order; groups 1 null, 2 empty, then 3 upward; requests 1 null, then
 * 2 upward (a fresh number for every request created, kept until it is freed or completes
 * and MPI nulls it); datatypes and reduction ops by DUMPI's table of predefined ones, then
 * upward. MPI_ANY_SOURCE and MPI_ANY_TAG are stored as -1, MPI_PROC_NULL as -2.
 *
 * MPI-3 matched probes have no DUMPI label. MPI_Mprobe and MPI_Improbe are stored as
 * MPI_Probe and MPI_Iprobe, and MPI_Mrecv and MPI_Imrecv as MPI_Recv and MPI_Irecv of the
 * exact source and tag the probe found, on the probed communicator: the
 * receive then takes, in a replay, the message the probe took (messages from one source
 * with one tag are not overtaken). These substitutions are counted in the .meta file
 * (`substituted-MPI_Mprobe=N`). Likewise MPI_Cart_create and MPI-3's MPI_Comm_split_type,
 * which the replay cannot rebuild, are stored as the MPI_Comm_split that makes the same
 * group in the same order. The vector collectives and scans are counted but not stored
 * (DUMPI's "ignored" counts in the footer; rank 0's also in the .meta file). MPI_Abort is
 * stored and closes the file first. Calls this library does not wrap pass through to MPI
 * untouched and are neither stored nor counted.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* DUMPI call labels (its funclabels.h order). */
enum {
    L_SEND = 0, L_RECV = 1, L_BSEND = 3, L_SSEND = 4, L_RSEND = 5, L_ISEND = 8, L_IBSEND = 9,
    L_ISSEND = 10, L_IRSEND = 11, L_IRECV = 12, L_WAIT = 13, L_TEST = 14, L_REQUEST_FREE = 15,
    L_WAITANY = 16, L_TESTANY = 17, L_WAITALL = 18, L_TESTALL = 19, L_WAITSOME = 20,
    L_TESTSOME = 21, L_IPROBE = 22, L_PROBE = 23, L_CANCEL = 24, L_SEND_INIT = 26,
    L_BSEND_INIT = 27, L_SSEND_INIT = 28, L_RSEND_INIT = 29, L_RECV_INIT = 30, L_START = 31,
    L_STARTALL = 32, L_SENDRECV = 33, L_BARRIER = 52, L_BCAST = 53, L_GATHER = 54,
    L_SCATTER = 56, L_ALLGATHER = 58, L_ALLTOALL = 60, L_REDUCE = 62, L_ALLREDUCE = 65,
    L_COMM_GROUP = 72, L_GROUP_INCL = 76, L_GROUP_FREE = 80, L_COMM_SIZE = 81,
    L_COMM_RANK = 82, L_COMM_DUP = 84, L_COMM_CREATE = 85, L_COMM_SPLIT = 86,
    L_COMM_FREE = 87, L_INIT = 124, L_FINALIZE = 125, L_INIT_THREAD = 171, L_GATHERV = 55,
    L_SCATTERV = 57, L_ALLGATHERV = 59, L_ALLTOALLV = 61, L_REDUCE_SCATTER = 66, L_SCAN = 67,
    L_ABORT = 127, L_EXSCAN = 156, L_SENDRECV_REPLACE = 34, L_GROUP_UNION = 73,
    L_GROUP_INTERSECTION = 74, L_GROUP_DIFFERENCE = 75, L_GROUP_EXCL = 77, L_GROUP_RANGE_INCL = 78,
    L_GROUP_RANGE_EXCL = 79, L_COMM_REMOTE_GROUP = 90, L_INTERCOMM_CREATE = 91, L_INTERCOMM_MERGE = 92,
    L_COMM_DISCONNECT = 132,
    L_ALL_FUNCTIONS = 290, L_END_OF_STREAM = 293
};

#define HEAD_MAGIC 0xffaadd44554d5049ULL
#define FOOT_MAGIC 0xf007fee7ULL
#define MASK_STATUSES 0x01
#define MASK_CPU 0x04
#define MASK_WALL 0x08
#define STORED_ANY (-1)
#define STORED_PROC_NULL (-2)

/* ---- handle numbering -------------------------------------------------------------- */

/* An open-addressing map from a handle's bytes to its DUMPI number. */
struct handle_map {
    uint64_t *keys;
    int *values; /* 0: empty slot, -1: deleted */
    size_t cap, used;
    int next;    /* the number the next new handle gets */
};

static uint64_t key_of(const void *handle, size_t size)
{
    uint64_t k = 0;
    memcpy(&k, handle, size < sizeof k ? size : sizeof k);
    return k;
}

static size_t slot_of(uint64_t k, size_t cap)
{
    return (size_t)((k * 0x9e3779b97f4a7c15ULL) >> 17) & (cap - 1);
}

static void map_grow(struct handle_map *m);

static int *map_find(struct handle_map *m, uint64_t k)
{
    if (!m->cap)
        return NULL;
    for (size_t i = slot_of(k, m->cap), n = 0; n < m->cap; i = (i + 1) & (m->cap - 1), n++) {
        if (m->values[i] == 0)
            return NULL;
        if (m->values[i] > 0 && m->keys[i] == k)
            return &m->values[i];
    }
    return NULL;
}

static void map_put(struct handle_map *m, uint64_t k, int v)
{
    int *old = map_find(m, k);
    if (old) {
        *old = v;
        return;
    }
    if ((m->used + 1) * 2 > m->cap)
        map_grow(m);
    size_t i = slot_of(k, m->cap);
    while (m->values[i] > 0)
        i = (i + 1) & (m->cap - 1);
    if (m->values[i] == 0)
        m->used++;
    m->keys[i] = k;
    m->values[i] = v;
}

static void map_grow(struct handle_map *m)
{
    struct handle_map bigger = { 0 };
    bigger.cap = m->cap ? m->cap * 2 : 64;
    bigger.keys = calloc(bigger.cap, sizeof *bigger.keys);
    bigger.values = calloc(bigger.cap, sizeof *bigger.values);
    if (!bigger.keys || !bigger.values) {
        fprintf(stderr, "tagmatch record: out of memory\n");
        abort();
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->values[i] > 0)
            map_put(&bigger, m->keys[i], m->values[i]);
    free(m->keys);
    free(m->values);
    bigger.next = m->next;
    *m = bigger;
}

static void map_remove(struct handle_map *m, uint64_t k)
{
    int *v = map_find(m, k);
    if (v)
        *v = -1;
}

/* The number of a handle, numbering it now if it is new. */
static int map_number(struct handle_map *m, uint64_t k)
{
    int *v = map_find(m, k);
    if (v)
        return *v;
    int n = m->next++;
    map_put(m, k, n);
    return n;
}

static struct handle_map comms = { .next = 4 };
static struct handle_map groups = { .next = 3 };
static struct handle_map requests = { .next = 2 };
static struct handle_map datatypes = { .next = 28 };
static struct handle_map ops = { .next = 15 };
/* Communicator of a matched message (MPI_Message), from its probe to its receive. */
static struct handle_map message_comms = { .next = 1 };

static int comm_id(MPI_Comm c)
{
    if (c == MPI_COMM_NULL)
        return 1;
    if (c == MPI_COMM_WORLD)
        return 2;
    if (c == MPI_COMM_SELF)
        return 3;
    return map_number(&comms, key_of(&c, sizeof c));
}

static int group_id(MPI_Group g)
{
    if (g == MPI_GROUP_NULL)
        return 1;
    if (g == MPI_GROUP_EMPTY)
        return 2;
    return map_number(&groups, key_of(&g, sizeof g));
}

/* A request's number as the call found it (a new request gets its number where it is
 * made, in new_request). */
static int request_id(MPI_Request r)
{
    if (r == MPI_REQUEST_NULL)
        return 1;
    return map_number(&requests, key_of(&r, sizeof r));
}

static int new_request(MPI_Request r)
{
    if (r == MPI_REQUEST_NULL)
        return 1;
    int n = requests.next++;
    map_put(&requests, key_of(&r, sizeof r), n);
    return n;
}

/* After a completion call: a request MPI set to null is gone. */
static void forget_if_nulled(MPI_Request before, MPI_Request after)
{
    if (before != MPI_REQUEST_NULL && after == MPI_REQUEST_NULL)
        map_remove(&requests, key_of(&before, sizeof before));
}

static int datatype_id(MPI_Datatype t)
{
    /* DUMPI's predefined datatypes from 1 on; MPI_LB and MPI_UB (20, 21) left out. */
    const MPI_Datatype known[] = {
        MPI_DATATYPE_NULL, MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE, MPI_WCHAR, MPI_SHORT,
        MPI_UNSIGNED_SHORT, MPI_INT, MPI_UNSIGNED, MPI_LONG, MPI_UNSIGNED_LONG, MPI_FLOAT, MPI_DOUBLE,
        MPI_LONG_DOUBLE, MPI_LONG_LONG_INT, MPI_UNSIGNED_LONG_LONG, MPI_LONG_LONG, MPI_PACKED,
        MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_SHORT_INT,
        MPI_2INT, MPI_LONG_DOUBLE_INT,
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i] == t && (i == 0 || known[i] != MPI_DATATYPE_NULL))
            return (int)i + 1;
    return map_number(&datatypes, key_of(&t, sizeof t));
}

static int op_id(MPI_Op o)
{
    const MPI_Op known[] = {
        MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR,
        MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_OP_NULL,
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i] == o)
            return (int)i + 1;
    return map_number(&ops, key_of(&o, sizeof o));
}

static int rank_value(int r)
{
    if (r == MPI_ANY_SOURCE)
        return STORED_ANY;
    if (r == MPI_PROC_NULL)
        return STORED_PROC_NULL;
    return r;
}

static int tag_value(int t)
{
    return t == MPI_ANY_TAG ? STORED_ANY : t;
}

/* ---- the trace file ---------------------------------------------------------------- */

static FILE *out;
static int my_rank = -1, world_size = 0;
static char prefix[4096] = "dumpi";
static uint32_t called[L_ALL_FUNCTIONS + 1], not_stored[L_ALL_FUNCTIONS + 1];
static uint32_t cpu_bias, wall_bias;
static uint64_t start_time;
static long substituted_mprobe, substituted_improbe, substituted_mrecv, substituted_imrecv;
static long substituted_cart_create, substituted_comm_split_type;
static int finished;

/* The record being built, and whether its mask says it stores statuses. */
static int rec_statuses;
static unsigned char *rec;
static size_t rec_len, rec_cap;

static void put_bytes(const void *p, size_t n)
{
    if (rec_len + n > rec_cap) {
        size_t cap = rec_cap ? rec_cap : 256;
        while (cap < rec_len + n)
            cap *= 2;
        unsigned char *bigger = realloc(rec, cap);
        if (!bigger) {
            fprintf(stderr, "tagmatch record: out of memory\n");
            abort();
        }
        rec = bigger;
        rec_cap = cap;
    }
    memcpy(rec + rec_len, p, n);
    rec_len += n;
}

static void put8(uint8_t v)
{
    put_bytes(&v, 1);
}

static void put16(uint16_t v)
{
    unsigned char b[2] = { (unsigned char)(v >> 8), (unsigned char)v };
    put_bytes(b, 2);
}

static void put32(uint32_t v)
{
    unsigned char b[4] = { (unsigned char)(v >> 24), (unsigned char)(v >> 16), (unsigned char)(v >> 8),
                           (unsigned char)v };
    put_bytes(b, 4);
}

static void put64(uint64_t v)
{
    put32((uint32_t)(v >> 32));
    put32((uint32_t)v);
}

static void put_string32(const char *s)
{
    size_t n = strlen(s);
    put32((uint32_t)n);
    put_bytes(s, n);
}

static void put_string16(const char *s)
{
    size_t n = strlen(s);
    if (n > 65535)
        n = 65535;
    put16((uint16_t)n);
    put_bytes(s, n);
}

static void put_ints(int n, const int *v)
{
    put32((uint32_t)(n < 0 ? 0 : n));
    for (int i = 0; i < n; i++)
        put32((uint32_t)v[i]);
}

/* Writes the record built so far to the file, whole. */
static void flush_record(void)
{
    if (out && rec_len)
        fwrite(rec, 1, rec_len, out);
    rec_len = 0;
}

struct stamp {
    struct timespec cpu, wall;
};

/* CPU times cost a system call each (about 0.8 us, against 30 ns for the wall clock), two
 * per call recorded: TAGMATCH_RECORD_CPU_TIMES=0 leaves them out (the mask says so). */
static int cpu_times = 1;

static struct stamp now(void)
{
    struct stamp s = { { 0, 0 }, { 0, 0 } };
    if (cpu_times)
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &s.cpu);
    clock_gettime(CLOCK_REALTIME, &s.wall);
    return s;
}

static void put_time(struct timespec t, uint32_t bias)
{
    long sec = (long)t.tv_sec - (long)bias;
    put16((uint16_t)(sec < 0 ? 0 : sec > 65535 ? 65535 : sec));
    put32((uint32_t)t.tv_nsec);
}

/* Starts a record: label, mask, entry and exit times. */
static int begin(int label, int statuses, struct stamp in, struct stamp done)
{
    if (!out || finished)
        return 0;
    called[label]++;
    rec_len = 0;
    rec_statuses = statuses;
    put16((uint16_t)label);
    put8((uint8_t)((cpu_times ? MASK_CPU : 0) | MASK_WALL | (statuses ? MASK_STATUSES : 0)));
    if (cpu_times) {
        put_time(in.cpu, cpu_bias);
        put_time(done.cpu, cpu_bias);
    }
    put_time(in.wall, wall_bias);
    put_time(done.wall, wall_bias);
    return 1;
}

static void put_status_fields(const MPI_Status *s)
{
    int bytes = 0, cancelled = 0;
    PMPI_Get_count(s, MPI_BYTE, &bytes);
    PMPI_Test_cancelled(s, &cancelled);
    put32((uint32_t)bytes);
    put32((uint32_t)s->MPI_SOURCE);
    put8((uint8_t)cancelled);
    put8((uint8_t)s->MPI_ERROR);
    put32((uint32_t)s->MPI_TAG);
}

/* `n` statuses; nothing at all when the record's mask says none are stored (the caller
 * passed MPI_STATUS(ES)_IGNORE, or nothing completed). */
static void put_statuses(int n, const MPI_Status *s)
{
    if (!rec_statuses)
        return;
    if (s == MPI_STATUS_IGNORE || s == MPI_STATUSES_IGNORE || n <= 0) {
        put32(0);
        return;
    }
    put32((uint32_t)n);
    for (int i = 0; i < n; i++)
        put_status_fields(&s[i]);
}

/* Calls counted but not stored (DUMPI's "ignored" counts in the footer): rank 0's counts
 * are also listed in the .meta file. */
static const struct {
    int label;
    const char *name;
} counted_names[] = {
    { L_GATHERV, "MPI_Gatherv" },   { L_SCATTERV, "MPI_Scatterv" },
    { L_ALLGATHERV, "MPI_Allgatherv" }, { L_ALLTOALLV, "MPI_Alltoallv" },
    { L_REDUCE_SCATTER, "MPI_Reduce_scatter" }, { L_SCAN, "MPI_Scan" },
    { L_EXSCAN, "MPI_Exscan" },
};

static void count_only(int label)
{
    if (out && !finished) {
        called[label]++;
        not_stored[label]++;
    }
}

/* Ends the body and writes the closing sections and the index. */
static void finish_file(void)
{
    if (!out || finished)
        return;
    finished = 1;
    rec_len = 0;
    put16(L_END_OF_STREAM);
    flush_record();
    uint64_t header = (uint64_t)ftell(out);
    rec_len = 0;
    put8(0);
    put8(6);
    put8(9);
    put64(start_time);
    char host[256] = "", *user = getenv("USER");
    gethostname(host, sizeof host - 1);
    put_string16(host);
    put_string16(user ? user : "");
    put32(0); /* mesh coordinates */
    put32(0); /* mesh sizes */
    flush_record();
    uint64_t footer = (uint64_t)ftell(out);
    put64(FOOT_MAGIC);
    for (int i = 0; i <= L_ALL_FUNCTIONS; i++)
        put32(called[i]);
    for (int i = 0; i <= L_ALL_FUNCTIONS; i++)
        put32(not_stored[i]);
    flush_record();
    put32(0); /* keyvals */
    flush_record();
    uint64_t perf_labels = (uint64_t)ftell(out);
    put32(0);
    flush_record();
    uint64_t sizes = (uint64_t)ftell(out);
    put32(0);
    flush_record();
    uint64_t addresses = (uint64_t)ftell(out);
    put32(0);
    flush_record();
    put64(HEAD_MAGIC);
    put64(sizes);
    put64(addresses);
    put64(perf_labels);
    put64(header);
    put64(8); /* the body follows the magic */
    put64(footer);
    put64(0); /* no keyval section in the index, as DUMPI writes it */
    flush_record();
    fclose(out);
    out = NULL;
    if (my_rank == 0) {
        char path[4200];
        snprintf(path, sizeof path, "%s.meta", prefix);
        FILE *meta = fopen(path, "w");
        if (meta) {
            const char *slash = strrchr(prefix, '/');
            fprintf(meta, "hostname=%s\nnumprocs=%d\nusername=%s\nstartime=%llu\nfileprefix=%s\nversion=1\n",
                    host, world_size, user ? user : "", (unsigned long long)start_time,
                    slash ? slash + 1 : prefix);
            fprintf(meta, "recorder=tagmatch\n");
            fprintf(meta, "substituted-MPI_Mprobe=%ld\nsubstituted-MPI_Improbe=%ld\n", substituted_mprobe,
                    substituted_improbe);
            fprintf(meta, "substituted-MPI_Mrecv=%ld\nsubstituted-MPI_Imrecv=%ld\n", substituted_mrecv,
                    substituted_imrecv);
            fprintf(meta, "substituted-MPI_Cart_create=%ld\nsubstituted-MPI_Comm_split_type=%ld\n",
                    substituted_cart_create, substituted_comm_split_type);
            for (size_t i = 0; i < sizeof counted_names / sizeof counted_names[0]; i++)
                fprintf(meta, "not-stored-%s=%u\n", counted_names[i].name, not_stored[counted_names[i].label]);
            fclose(meta);
        }
    }
}

static void at_exit(void)
{
    finish_file();
}

static void on_fatal(int sig)
{
    /* Best effort: a crashed program's trace closed up to its last whole record. */
    finish_file();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* `start`: the time MPI_Init was entered, which the biases are taken from (so its record's
 * entry time is not before the bias). */
static void open_file(struct stamp start)
{
    const char *p = getenv("TAGMATCH_RECORD_PREFIX");
    if (p && *p)
        snprintf(prefix, sizeof prefix, "%s", p);
    const char *cpu = getenv("TAGMATCH_RECORD_CPU_TIMES");
    cpu_times = !(cpu && strcmp(cpu, "0") == 0);
    PMPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &world_size);
    char path[4200];
    snprintf(path, sizeof path, "%s-%04d.bin", prefix, my_rank);
    out = fopen(path, "wb");
    if (!out) {
        fprintf(stderr, "tagmatch record: rank %d cannot write %s; this rank is not recorded\n", my_rank,
                path);
        return;
    }
    setvbuf(out, NULL, _IOFBF, 1 << 20);
    cpu_bias = (uint32_t)start.cpu.tv_sec;
    wall_bias = (uint32_t)start.wall.tv_sec;
    start_time = (uint64_t)start.wall.tv_sec;
    rec_len = 0;
    put64(HEAD_MAGIC);
    put32(cpu_bias);
    put32(wall_bias);
    flush_record();
    atexit(at_exit);
    int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGTERM, SIGINT };
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        signal(fatal[i], on_fatal);
}

/* ---- wrappers ---------------------------------------------------------------------- */

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

/* DUMPI stores MPI_UNDEFINED indices as this. */
#define STORED_UNDEFINED (-32766)

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

/* ---- collectives, as calls ------------------------------------------------------------ */

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

/* ---- communicators and groups --------------------------------------------------------- */

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

/* ---- counted, not stored ------------------------------------------------------------ */

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

/* ---- stored as what the replay understands ------------------------------------------- */

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

/* ---- more point-to-point, groups and intercommunicators ------------------------------- */

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
