/*
 * The recorder's overhead: a ping-pong or a one-way message-rate loop between ranks 0 and
 * 1, timed with MPI_Wtime. Run it with and without `tagmatch record`
 * (scripts/record-overhead.sh does both).
 *
 * Usage: mpirun -np 2 overhead pingpong|rate MESSAGES
 * Prints (rank 0): MODE MESSAGES SECONDS MICROSECONDS_PER_MESSAGE
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 64

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long n = argc == 3 ? strtol(argv[2], NULL, 10) : 0;
    int pingpong = argc == 3 && strcmp(argv[1], "pingpong") == 0;
    if (size != 2 || n <= 0 || (!pingpong && strcmp(argv[1], "rate") != 0)) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np 2 %s pingpong|rate MESSAGES\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    int peer = 1 - rank, x = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    if (pingpong) {
        for (long i = 0; i < n; i++) {
            if (rank == 0) {
                MPI_Send(&x, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
                MPI_Recv(&x, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(&x, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(&x, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
            }
        }
    } else {
        /* Windows of nonblocking sends, each window received with Irecv and Waitall, then
         * an acknowledgement so the sender never runs ahead by more than a window. */
        MPI_Request req[WINDOW];
        int buf[WINDOW];
        for (long sent = 0; sent < n; sent += WINDOW) {
            int w = (int)(n - sent < WINDOW ? n - sent : WINDOW);
            for (int i = 0; i < w; i++) {
                if (rank == 0)
                    MPI_Isend(&x, 1, MPI_INT, peer, i, MPI_COMM_WORLD, &req[i]);
                else
                    MPI_Irecv(&buf[i], 1, MPI_INT, peer, i, MPI_COMM_WORLD, &req[i]);
            }
            MPI_Waitall(w, req, MPI_STATUSES_IGNORE);
            if (rank == 0)
                MPI_Recv(&x, 1, MPI_INT, peer, WINDOW, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            else
                MPI_Send(&x, 1, MPI_INT, peer, WINDOW, MPI_COMM_WORLD);
        }
    }
    double seconds = MPI_Wtime() - start;
    if (rank == 0)
        printf("%s %ld %.6f %.3f\n", pingpong ? "pingpong" : "rate", n, seconds, seconds * 1e6 / (double)n);
    MPI_Finalize();
    return 0;
}
