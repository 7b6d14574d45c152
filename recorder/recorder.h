/*
 * tagmatch's MPI recorder: a PMPI interposition library that writes DUMPI binary traces.
 * This header holds the format and what the library's files share: handles.c numbers
 * handles, trace_file.c writes the file, and point_to_point.c, collectives.c and
 * communicators.c wrap the MPI calls.
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
#ifndef TAGMATCH_RECORDER_H
#define TAGMATCH_RECORDER_H

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
/* DUMPI stores MPI_UNDEFINED (an index, a color) as this. */
#define STORED_UNDEFINED (-32766)

/* An open-addressing map from a handle's bytes to its DUMPI number. */
struct handle_map {
    uint64_t *keys;
    int *values; /* 0: empty slot, -1: deleted */
    size_t cap, used;
    int next;    /* the number the next new handle gets */
};

struct stamp {
    struct timespec cpu, wall;
};

/* Shared between the files of the library, and hidden from the program it is loaded
 * into: only the MPI_* wrappers are exported. */
#pragma GCC visibility push(hidden)

/* Handle numbering (handles.c). */
extern struct handle_map comms, groups, requests;
uint64_t key_of(const void *handle, size_t size);
int *map_find(struct handle_map *m, uint64_t k);
void map_put(struct handle_map *m, uint64_t k, int v);
void map_remove(struct handle_map *m, uint64_t k);
int comm_id(MPI_Comm c);
int group_id(MPI_Group g);
int request_id(MPI_Request r);
int new_request(MPI_Request r);
void forget_if_nulled(MPI_Request before, MPI_Request after);
int datatype_id(MPI_Datatype t);
int op_id(MPI_Op o);
int rank_value(int r);
int tag_value(int t);

/* The trace file (trace_file.c). */
extern long substituted_mprobe, substituted_improbe, substituted_mrecv, substituted_imrecv;
extern long substituted_cart_create, substituted_comm_split_type;
void put8(uint8_t v);
void put16(uint16_t v);
void put32(uint32_t v);
void put_string32(const char *s);
void put_ints(int n, const int *v);
void flush_record(void);
struct stamp now(void);
int begin(int label, int statuses, struct stamp in, struct stamp done);
void put_statuses(int n, const MPI_Status *s);
void count_only(int label);
void finish_file(void);
void open_file(struct stamp start);

#pragma GCC visibility pop

#endif
