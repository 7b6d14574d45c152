// Formal harness of the receive engine's completion unit (`top`, emitted by `tagmatch gen`).
//
// The solver posts receives, sends messages, waits, tests and flushes. The harness counts
// each class's matches from the answers it sees taken, as the host would, and checks every
// wait and test against that count, and that a parked wait is answered exactly when its
// count is reached: right after the answer of the match that reaches it, never before.
//
// `tagmatch verify` writes `params.vh` beside this file (see engine.sv); this harness reads
// CB, SB, TB and HB. Counts stay below 8, so the counters never near their wrap.
`include "params.vh"

module completion_harness (
    input wire clock,
    input wire reset_in,
    input wire cmd_valid,
    input wire [3:0] cmd_op,
    input wire [31:0] cmd_comm,
    input wire [31:0] cmd_src,
    input wire [31:0] cmd_tag,
    input wire cmd_src_any,
    input wire cmd_tag_any,
    input wire [31:0] cmd_handle,
    input wire resp_ready
);
    localparam [3:0] POST = 0, ARRIVE = 1, MPROBE = 4, WAIT = 5, TEST = 6, FLUSH = 7;
    localparam [3:0] MATCHED = 0, FOUND = 4, ERROR = 7, REACHED = 8, NOT_REACHED = 9, PARKED = 10,
        FLUSHED = 11;

    `include "engine_dut.vh"

    // ---- The command stream. ----
    always @(*) begin
        assume (cmd_op == POST || cmd_op == ARRIVE || cmd_op == MPROBE || cmd_op == WAIT
            || cmd_op == TEST || cmd_op == FLUSH);
        assume ((cmd_comm >> CB) == 0 && (cmd_src >> SB) == 0 && (cmd_tag >> TB) == 0);
        if (cmd_op == WAIT || cmd_op == TEST) assume (cmd_handle < 8);
        else assume ((cmd_handle >> HB) == 0);
    end

    // ---- Shadow state. ----
    reg [3:0] c_op [0:3];
    reg [1:0] c_class [0:3];
    reg [31:0] c_count [0:3];
    reg [7:0] answered;
    wire [7:0] in_flight = accepted - answered;
    // Matches per class, from the answers taken.
    reg [31:0] counter [0:3];
    // The parked wait: its id, class and count; `wake_due` once a match has reached it.
    reg parked;
    reg [7:0] parked_id;
    reg [1:0] parked_class;
    reg [31:0] parked_count;
    reg wake_due;

    wire done = resp_valid & resp_ready;
    wire [1:0] r = answered[1:0];
    wire [3:0] r_op = c_op[r];
    wire [1:0] r_class = c_class[r];
    wire [31:0] r_count = c_count[r];
    // The answer taken now is the parked wait's late `reached`, not a command's own.
    wire late = done && wake_due;
    wire counts = done && !late
        && (((r_op == POST || r_op == ARRIVE) && resp_kind == MATCHED) || (r_op == MPROBE && resp_kind == FOUND));
    wire [31:0] count_after = counter[r_class] + 32'd1;
    function automatic is_reached(input [31:0] c, input [31:0] n);
        reg [31:0] d;
        begin
            d = c - n;
            is_reached = !d[31];
        end
    endfunction

    integer k;
    always @(posedge clock) begin
        if (reset) begin
            answered <= 0;
            parked <= 0;
            wake_due <= 0;
            for (k = 0; k < 4; k = k + 1) counter[k] <= 0;
        end else begin
            if (done && !late) answered <= answered + 8'd1;
            if (late) begin
                parked <= 0;
                wake_due <= 0;
            end
            if (counts) begin
                counter[r_class] <= count_after;
                if (parked && r_class == parked_class && is_reached(count_after, parked_count)) wake_due <= 1;
            end
            if (done && !late && r_op == WAIT && resp_kind == PARKED) begin
                parked <= 1;
                parked_id <= answered;
                parked_class <= r_class;
                parked_count <= r_count;
            end
            if (done && !late && r_op == FLUSH) begin
                parked <= 0;
                wake_due <= 0;
                for (k = 0; k < 4; k = k + 1) counter[k] <= 0;
            end
        end
        if (take) begin
            c_op[next_id[1:0]] <= cmd_op;
            c_class[next_id[1:0]] <= cmd_comm[1:0];
            c_count[next_id[1:0]] <= cmd_handle;
        end
    end

    // ---- Properties. ----
    always @(*) if (started && !reset) begin
        // @property answered: one answer per command, in order; the late `reached` besides
        if (resp_valid && !wake_due) assert (in_flight != 0);
        assert (in_flight <= 8'd4);
        if (done && !late) assert (resp_id == answered);
        // @property wait: a wait answers `error` while one is parked, else `reached` exactly when its count is reached, else it parks
        if (done && !late && r_op == WAIT) begin
            if (parked) assert (resp_kind == ERROR);
            else if (is_reached(counter[r_class], r_count)) assert (resp_kind == REACHED);
            else assert (resp_kind == PARKED);
            if (!parked) assert (resp_recv == r_count && resp_msg == counter[r_class]);
        end
        // @property test: a test answers whether its count is reached, with the counter
        if (done && !late && r_op == TEST) begin
            assert (resp_kind == (is_reached(counter[r_class], r_count) ? REACHED : NOT_REACHED));
            assert (resp_recv == r_count && resp_msg == counter[r_class]);
        end
        // @property wake-up: a parked wait answers right after the match that reaches its count, never before, and a flush drops it
        if (late) begin
            assert (resp_kind == REACHED && resp_id == parked_id);
            assert (resp_recv == parked_count && resp_msg == counter[parked_class]);
        end
        if (done && !wake_due && resp_kind == REACHED) assert (r_op == WAIT || r_op == TEST);
    end
endmodule
