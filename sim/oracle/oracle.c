/*
 * Real-MPI oracle for tagmatch: runs the scenarios of scenarios.txt on an MPI library and
 * prints which receive got which message, for comparison with the golden model.
 *
 * Usage: mpirun -np 4 oracle SCENARIOS_FILE
 *
 * Rank 0 reads the script and is the receiver; ranks 1..size-1 send when rank 0 tells them
 * to, over a private control communicator. After sending the data message a sender
 * acknowledges on the control communicator, and rank 0 waits for that acknowledgement
 * before its next command: messages from one sender reach rank 0 in order (the shared
 * memory transport is a FIFO; the test disables Open MPI's per-peer fast boxes so there is
 * only that one path), so by then the data message has been matched or queued.
 *
 * Output (rank 0, stdout), one fact per line:
 *   scenario NAME | recv R M | recv R none | cancel R ok|failed
 *   probe P SRC TAG | probe P none | mprobe P M | mprobe P none | left M | end NAME
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCOMMS 4
#define MAXID 1000
#define CTL_TAG 1

static MPI_Comm data_comm[NCOMMS];
static MPI_Comm ctl_comm;

/* A control order: which message id to send, on which communicator, with which tag.
 * id < 0 tells the sender to stop. */
struct order {
    int id, comm, tag;
};

static void die(const char *what, int line)
{
    fprintf(stderr, "oracle: %s (scenario line %d)\n", what, line);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static void sender_loop(void)
{
    for (;;) {
        struct order o;
        MPI_Recv(&o, 3, MPI_INT, 0, CTL_TAG, ctl_comm, MPI_STATUS_IGNORE);
        if (o.id < 0)
            return;
        MPI_Send(&o.id, 1, MPI_INT, 0, o.tag, data_comm[o.comm]);
        int ack = o.id;
        MPI_Send(&ack, 1, MPI_INT, 0, CTL_TAG, ctl_comm);
    }
}

/* Parses "*" as the wildcard, anything else as a non-negative integer. */
static int parse_field(const char *s, int wildcard, int line)
{
    if (strcmp(s, "*") == 0)
        return wildcard;
    char *end;
    long v = strtol(s, &end, 10);
    if (*end != '\0' || v < 0 || v > 1000000)
        die("bad number", line);
    return (int)v;
}

static int parse_id(const char *s, int line)
{
    int v = parse_field(s, -1, line);
    if (v < 1 || v >= MAXID)
        die("id out of range 1-999", line);
    return v;
}

static int parse_comm(const char *s, int line)
{
    int v = parse_field(s, -1, line);
    if (v < 0 || v >= NCOMMS)
        die("communicator out of range 0-3", line);
    return v;
}

struct scenario_state {
    char name[128];
    MPI_Request req[MAXID];
    int buf[MAXID];
    int posted[MAXID]; /* 1 while receive R may still complete */
};

static void finish_scenario(struct scenario_state *st)
{
    for (int r = 1; r < MAXID; r++) {
        if (!st->posted[r])
            continue;
        int done = 0;
        MPI_Status status;
        MPI_Test(&st->req[r], &done, &status);
        if (!done) {
            int cancelled = 0;
            MPI_Cancel(&st->req[r]);
            MPI_Wait(&st->req[r], &status);
            MPI_Test_cancelled(&status, &cancelled);
            done = !cancelled;
        }
        if (done)
            printf("recv %d %d\n", r, st->buf[r]);
        else
            printf("recv %d none\n", r);
        st->posted[r] = 0;
    }
    /* Drain what is still unexpected so the next scenario starts clean. */
    for (int c = 0; c < NCOMMS; c++) {
        for (;;) {
            int flag = 0, id;
            MPI_Status status;
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, data_comm[c], &flag, &status);
            if (!flag)
                break;
            MPI_Recv(&id, 1, MPI_INT, status.MPI_SOURCE, status.MPI_TAG, data_comm[c], MPI_STATUS_IGNORE);
            printf("left %d\n", id);
        }
    }
    printf("end %s\n", st->name);
    fflush(stdout);
}

static void receiver(const char *path, int size)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "oracle: cannot open %s\n", path);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    static struct scenario_state st;
    int in_scenario = 0;
    char line[512];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char w[6][64];
        int n = sscanf(line, "%63s %63s %63s %63s %63s %63s", w[0], w[1], w[2], w[3], w[4], w[5]);
        if (n <= 0)
            continue;
        if (strcmp(w[0], "scenario") == 0 && n == 2) {
            if (in_scenario)
                die("scenario inside scenario", lineno);
            memset(&st, 0, sizeof st);
            snprintf(st.name, sizeof st.name, "%s", w[1]);
            printf("scenario %s\n", st.name);
            in_scenario = 1;
            continue;
        }
        if (!in_scenario)
            die("command outside a scenario", lineno);
        if (strcmp(w[0], "end") == 0 && n == 1) {
            finish_scenario(&st);
            in_scenario = 0;
        } else if (strcmp(w[0], "post") == 0 && n == 5) {
            int r = parse_id(w[1], lineno);
            int c = parse_comm(w[2], lineno);
            int src = parse_field(w[3], MPI_ANY_SOURCE, lineno);
            int tag = parse_field(w[4], MPI_ANY_TAG, lineno);
            MPI_Irecv(&st.buf[r], 1, MPI_INT, src, tag, data_comm[c], &st.req[r]);
            st.posted[r] = 1;
        } else if (strcmp(w[0], "send") == 0 && n == 5) {
            struct order o = { parse_id(w[1], lineno), parse_comm(w[3], lineno), parse_field(w[4], -1, lineno) };
            int from = parse_field(w[2], -1, lineno);
            if (from < 1 || from >= size)
                die("sender rank out of range", lineno);
            int ack;
            MPI_Send(&o, 3, MPI_INT, from, CTL_TAG, ctl_comm);
            MPI_Recv(&ack, 1, MPI_INT, from, CTL_TAG, ctl_comm, MPI_STATUS_IGNORE);
        } else if (strcmp(w[0], "cancel") == 0 && n == 2) {
            int r = parse_id(w[1], lineno);
            if (!st.posted[r])
                die("cancel of a receive that was not posted", lineno);
            MPI_Status status;
            int cancelled = 0;
            MPI_Cancel(&st.req[r]);
            MPI_Wait(&st.req[r], &status);
            MPI_Test_cancelled(&status, &cancelled);
            if (cancelled) {
                printf("cancel %d ok\n", r);
            } else {
                printf("cancel %d failed\n", r);
                printf("recv %d %d\n", r, st.buf[r]);
            }
            st.posted[r] = 0;
        } else if ((strcmp(w[0], "probe") == 0 || strcmp(w[0], "mprobe") == 0) && n == 5) {
            int p = parse_id(w[1], lineno);
            int c = parse_comm(w[2], lineno);
            int src = parse_field(w[3], MPI_ANY_SOURCE, lineno);
            int tag = parse_field(w[4], MPI_ANY_TAG, lineno);
            int flag = 0;
            MPI_Status status;
            if (w[0][0] == 'p') {
                MPI_Iprobe(src, tag, data_comm[c], &flag, &status);
                if (flag)
                    printf("probe %d %d %d\n", p, status.MPI_SOURCE, status.MPI_TAG);
                else
                    printf("probe %d none\n", p);
            } else {
                MPI_Message msg;
                MPI_Improbe(src, tag, data_comm[c], &flag, &msg, &status);
                if (flag) {
                    int id;
                    MPI_Mrecv(&id, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
                    printf("mprobe %d %d\n", p, id);
                } else {
                    printf("mprobe %d none\n", p);
                }
            }
        } else {
            die("unknown command or wrong number of fields", lineno);
        }
    }
    fclose(f);
    if (in_scenario)
        die("file ends inside a scenario", lineno);
    struct order stop = { -1, 0, 0 };
    for (int r = 1; r < size; r++)
        MPI_Send(&stop, 3, MPI_INT, r, CTL_TAG, ctl_comm);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 2 || size < 2) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np 4 %s SCENARIOS_FILE\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &ctl_comm);
    for (int c = 0; c < NCOMMS; c++)
        MPI_Comm_dup(MPI_COMM_WORLD, &data_comm[c]);
    if (rank == 0)
        receiver(argv[1], size);
    else
        sender_loop();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
