// Formal harness of the one-sided offload unit (`top`, emitted by
// `tagmatch gen --engine onesided`).
//
// The solver sends puts, gets and flushes, plays the network (it takes requests when it
// likes and completes each window's requests in the order they were issued, as a reliable
// connection does) and takes answers when it likes. The harness counts, per window, the
// puts and gets accepted, the requests issued and the completions, and checks each FIN
// against the requests accepted before its flush.
//
// `tagmatch verify` writes `onesided_params.vh`: W windows, CB-bit counters.
`include "onesided_params.vh"

module onesided_harness (
    input wire clock,
    input wire reset_in,
    input wire cmd_valid,
    input wire [1:0] cmd_op,
    input wire [7:0] cmd_window,
    input wire [15:0] cmd_target,
    input wire [31:0] cmd_bytes,
    input wire net_ready,
    input wire cpl_valid,
    input wire [7:0] cpl_window,
    input wire resp_ready
);
    localparam [1:0] PUT = 0, GET = 1, FLUSH = 2, FLUSH_ALL = 3;
    localparam [1:0] FIN = 0, FIN_ALL = 1, ERROR = 2;
    localparam [7:0] LIMIT = (1 << CB) - 1;

    reg started = 1'b0;
    always @(posedge clock) started <= 1'b1;
    wire reset = reset_in | ~started;

    wire cmd_ready, net_valid, net_get, resp_valid;
    wire [7:0] net_window, resp_window;
    wire [15:0] net_target;
    wire [31:0] net_bytes;
    wire [1:0] resp_kind;
    top dut (
        .clock(clock), .reset(reset),
        .cmd_valid(cmd_valid), .cmd_ready(cmd_ready), .cmd_op(cmd_op), .cmd_window(cmd_window),
        .cmd_target(cmd_target), .cmd_bytes(cmd_bytes),
        .net_valid(net_valid), .net_ready(net_ready), .net_get(net_get), .net_window(net_window),
        .net_target(net_target), .net_bytes(net_bytes),
        .cpl_valid(cpl_valid), .cpl_window(cpl_window),
        .resp_valid(resp_valid), .resp_ready(resp_ready), .resp_kind(resp_kind),
        .resp_window(resp_window)
    );

    wire take = cmd_valid & cmd_ready & !reset;
    wire sent = net_valid & net_ready & !reset;
    wire done = resp_valid & resp_ready & !reset;
    // Per window: puts and gets accepted, requests issued to the network, completions.
    reg [7:0] accepted [0:W-1];
    reg [7:0] issued [0:W-1];
    reg [7:0] completed [0:W-1];
    // The flush waiting for its FIN, per window, and the requests accepted before it.
    reg flush_pending [0:W-1];
    reg [7:0] flush_needs [0:W-1];
    reg all_pending;
    reg [7:0] all_needs [0:W-1];

    // ---- The environment. ----
    always @(*) begin
        assume (cmd_window <= W && cpl_window < W && cmd_target < 4 && cmd_bytes < 4);
        // The network completes only requests it was given.
        if (cpl_valid) assume (!reset && issued[cpl_window] != completed[cpl_window]);
        // One flush of a window, and one flush_all, in flight at a time.
        if (cmd_valid && cmd_op == FLUSH && cmd_window < W) assume (!flush_pending[cmd_window]);
        if (cmd_valid && cmd_op == FLUSH_ALL) assume (!all_pending);
    end

    integer w;
    always @(posedge clock) begin
        for (w = 0; w < W; w = w + 1) begin
            if (reset) begin
                accepted[w] <= 0;
                issued[w] <= 0;
                completed[w] <= 0;
                flush_pending[w] <= 0;
            end else begin
                if (take && cmd_op <= GET && cmd_window == w) accepted[w] <= accepted[w] + 8'd1;
                if (sent && net_window == w) issued[w] <= issued[w] + 8'd1;
                if (cpl_valid && cpl_window == w) completed[w] <= completed[w] + 8'd1;
                if (take && cmd_op == FLUSH && cmd_window == w) begin
                    flush_pending[w] <= 1;
                    flush_needs[w] <= accepted[w];
                end
                if (done && resp_kind == FIN && resp_window == w) flush_pending[w] <= 0;
                if (take && cmd_op == FLUSH_ALL) all_needs[w] <= accepted[w];
            end
        end
        if (reset) all_pending <= 0;
        else if (take && cmd_op == FLUSH_ALL) all_pending <= 1;
        else if (done && resp_kind == FIN_ALL) all_pending <= 0;
    end

    // ---- Properties. ----
    integer v;
    always @(*) if (started && !reset) begin
        // @property fin: a FIN comes only for a pending flush, after every request of its window accepted before the flush completed
        if (done && resp_kind == FIN) begin
            assert (resp_window < W && flush_pending[resp_window]);
            assert (completed[resp_window] - flush_needs[resp_window] < 8'd128);
        end
        // @property fin_all: a FIN_ALL comes only for a pending flush_all, after every request accepted before it completed
        if (done && resp_kind == FIN_ALL) begin
            assert (all_pending);
            for (v = 0; v < W; v = v + 1) assert (completed[v] - all_needs[v] < 8'd128);
        end
        // @property error: only a command naming a window the unit does not have is refused
        if (done && resp_kind == ERROR) assert (resp_window >= W);
        // @property saturation: at most 2^CB - 1 requests of a window in the network; no request issued that was not accepted
        for (v = 0; v < W; v = v + 1) begin
            assert (issued[v] - completed[v] <= LIMIT);
            assert (accepted[v] - issued[v] < 8'd128);
        end
    end
endmodule
