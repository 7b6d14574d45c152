/* tagmatch's MPI recorder (the format: recorder.h): the trace file, its records built in
 * memory and written whole, its closing sections, and the .meta file. */
#include "recorder.h"

static FILE *out;
static int my_rank = -1, world_size = 0;
static char prefix[4096] = "dumpi";
static uint32_t called[L_ALL_FUNCTIONS + 1], not_stored[L_ALL_FUNCTIONS + 1];
static uint32_t cpu_bias, wall_bias;
static uint64_t start_time;
long substituted_mprobe, substituted_improbe, substituted_mrecv, substituted_imrecv;
long substituted_cart_create, substituted_comm_split_type;
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

void put8(uint8_t v)
{
    put_bytes(&v, 1);
}

void put16(uint16_t v)
{
    unsigned char b[2] = { (unsigned char)(v >> 8), (unsigned char)v };
    put_bytes(b, 2);
}

void put32(uint32_t v)
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

void put_string32(const char *s)
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

void put_ints(int n, const int *v)
{
    put32((uint32_t)(n < 0 ? 0 : n));
    for (int i = 0; i < n; i++)
        put32((uint32_t)v[i]);
}

/* Writes the record built so far to the file, whole. */
void flush_record(void)
{
    if (out && rec_len)
        fwrite(rec, 1, rec_len, out);
    rec_len = 0;
}

/* CPU times cost a system call each (about 0.8 us, against 30 ns for the wall clock), two
 * per call recorded: TAGMATCH_RECORD_CPU_TIMES=0 leaves them out (the mask says so). */
static int cpu_times = 1;

struct stamp now(void)
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
int begin(int label, int statuses, struct stamp in, struct stamp done)
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
void put_statuses(int n, const MPI_Status *s)
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

void count_only(int label)
{
    if (out && !finished) {
        called[label]++;
        not_stored[label]++;
    }
}

/* Ends the body and writes the closing sections and the index. */
void finish_file(void)
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
void open_file(struct stamp start)
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
