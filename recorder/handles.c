/* tagmatch's MPI recorder (the format: recorder.h): handle numbering, communicators,
 * groups, requests, datatypes and ops numbered as DUMPI numbers them. */
#include "recorder.h"

uint64_t key_of(const void *handle, size_t size)
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

int *map_find(struct handle_map *m, uint64_t k)
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

void map_put(struct handle_map *m, uint64_t k, int v)
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

void map_remove(struct handle_map *m, uint64_t k)
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

struct handle_map comms = { .next = 4 };
struct handle_map groups = { .next = 3 };
struct handle_map requests = { .next = 2 };
static struct handle_map datatypes = { .next = 28 };
static struct handle_map ops = { .next = 15 };

int comm_id(MPI_Comm c)
{
    if (c == MPI_COMM_NULL)
        return 1;
    if (c == MPI_COMM_WORLD)
        return 2;
    if (c == MPI_COMM_SELF)
        return 3;
    return map_number(&comms, key_of(&c, sizeof c));
}

int group_id(MPI_Group g)
{
    if (g == MPI_GROUP_NULL)
        return 1;
    if (g == MPI_GROUP_EMPTY)
        return 2;
    return map_number(&groups, key_of(&g, sizeof g));
}

/* A request's number as the call found it (a new request gets its number where it is
 * made, in new_request). */
int request_id(MPI_Request r)
{
    if (r == MPI_REQUEST_NULL)
        return 1;
    return map_number(&requests, key_of(&r, sizeof r));
}

int new_request(MPI_Request r)
{
    if (r == MPI_REQUEST_NULL)
        return 1;
    int n = requests.next++;
    map_put(&requests, key_of(&r, sizeof r), n);
    return n;
}

/* After a completion call: a request MPI set to null is gone. */
void forget_if_nulled(MPI_Request before, MPI_Request after)
{
    if (before != MPI_REQUEST_NULL && after == MPI_REQUEST_NULL)
        map_remove(&requests, key_of(&before, sizeof before));
}

int datatype_id(MPI_Datatype t)
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

int op_id(MPI_Op o)
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

int rank_value(int r)
{
    if (r == MPI_ANY_SOURCE)
        return STORED_ANY;
    if (r == MPI_PROC_NULL)
        return STORED_PROC_NULL;
    return r;
}

int tag_value(int t)
{
    return t == MPI_ANY_TAG ? STORED_ANY : t;
}
