// Formal harness of the receive engine (`top`, emitted by `tagmatch gen`).
//
// The solver drives every input freely; the assumptions below keep the command stream
// legal, and the assertions check the engine against shadow state kept here, from the
// commands accepted and the responses taken. Two receive handles (H1, H2) and two message
// handles (M1, M2) are chosen by the solver (`anyconst`): proving a property for any two
// entries proves it for every pair of entries, so the harness never models a whole queue.
//
// `tagmatch verify` writes `params.vh` beside this file:
//   CB, SB, TB, HB  the generated field widths;
//   GUARANTEED      the entries each queue always takes (the manifest's queue_guaranteed);
//   MAX_AGE         cycles within which every accepted command is answered, given that
//                   `resp_ready` is never low for more than 3 cycles in a row.
`include "params.vh"

module harness (
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
    localparam [3:0] POST = 0, ARRIVE = 1, CANCEL = 2, PROBE = 3, MPROBE = 4, FLUSH = 7;
    localparam [3:0] MATCHED = 0, QUEUED = 1, CANCELLED = 2, NOT_FOUND = 3, FOUND = 4,
        FOUND_NOTHING = 5, OVERFLOW = 6, FLUSHED = 11;

    `include "engine_dut.vh"

    (* anyconst *) reg [HB-1:0] H1, H2, M1, M2;
    always @(*) assume (H1 != H2 && M1 != M2);

    // ---- The command stream: legal ops, fields within their widths. ----
    always @(*) begin
        assume (cmd_op == POST || cmd_op == ARRIVE || cmd_op == CANCEL || cmd_op == PROBE
            || cmd_op == MPROBE || cmd_op == FLUSH);
        assume ((cmd_comm >> CB) == 0 && (cmd_src >> SB) == 0 && (cmd_tag >> TB) == 0
            && (cmd_handle >> HB) == 0);
    end
    // Handles are unique: a tracked receive is posted, and a tracked message arrives, at
    // most once (other commands may repeat any other handle).
    reg posted_h1, posted_h2, arrived_m1, arrived_m2;
    always @(*) if (take) begin
        if (cmd_op == POST) assume (!(cmd_handle == H1 && posted_h1) && !(cmd_handle == H2 && posted_h2));
        if (cmd_op == ARRIVE) assume (!(cmd_handle == M1 && arrived_m1) && !(cmd_handle == M2 && arrived_m2));
    end

    // ---- Shadow state: commands in flight, and the tracked entries. ----
    // Commands in flight, by id (the harness numbers them; responses come in order). The
    // engine holds at most 4 (command, in-flight, response and skid registers), which an
    // assertion checks, so 4 slots never wrap onto a command still waiting.
    reg [3:0] c_op [0:3];
    reg [CB-1:0] c_comm [0:3];
    reg [SB-1:0] c_src [0:3];
    reg [TB-1:0] c_tag [0:3];
    reg c_sany [0:3];
    reg c_tany [0:3];
    reg [HB-1:0] c_handle [0:3];
    reg [7:0] answered;
    reg [7:0] age;  // cycles since the last answer, while a command is in flight
    wire [7:0] in_flight = accepted - answered;

    // A tracked receive: live (queued, not yet matched, cancelled or flushed), its pattern.
    reg h1_live, h2_live, h1_older;  // h1_older: both live, H1 posted first
    reg [CB-1:0] h1_comm, h2_comm;
    reg [SB-1:0] h1_src, h2_src;
    reg [TB-1:0] h1_tag, h2_tag;
    reg h1_sany, h2_sany, h1_tany, h2_tany;
    // A tracked message, likewise (messages carry no wildcards).
    reg m1_live, m2_live, m1_older;
    reg [CB-1:0] m1_comm, m2_comm;
    reg [SB-1:0] m1_src, m2_src;
    reg [TB-1:0] m1_tag, m2_tag;
    // Entries queued and not removed, per queue.
    reg [7:0] prq_n, umq_n;

    // The response being taken, and the command it answers.
    wire done = resp_valid & resp_ready;
    wire [1:0] r = answered[1:0];
    wire [3:0] r_op = c_op[r];
    wire [CB-1:0] r_comm = c_comm[r];
    wire [SB-1:0] r_src = c_src[r];
    wire [TB-1:0] r_tag = c_tag[r];
    wire r_sany = c_sany[r];
    wire r_tany = c_tany[r];
    wire [HB-1:0] r_handle = c_handle[r];
    wire [HB-1:0] got_recv = resp_recv[HB-1:0];
    wire [HB-1:0] got_msg = resp_msg[HB-1:0];

    // Whether a receive's pattern takes a message's envelope.
    function automatic takes(input [CB-1:0] pc, input [SB-1:0] ps, input [TB-1:0] pt,
            input sany, input tany, input [CB-1:0] mc, input [SB-1:0] ms, input [TB-1:0] mt);
        takes = pc == mc && (sany || ps == ms) && (tany || pt == mt);
    endfunction
    // The command being answered (a receive pattern) takes tracked message 1 or 2, and
    // tracked receive 1 or 2 takes it (a message).
    wire takes_m1 = m1_live && takes(r_comm, r_src, r_tag, r_sany, r_tany, m1_comm, m1_src, m1_tag);
    wire takes_m2 = m2_live && takes(r_comm, r_src, r_tag, r_sany, r_tany, m2_comm, m2_src, m2_tag);
    wire h1_takes = h1_live && takes(h1_comm, h1_src, h1_tag, h1_sany, h1_tany, r_comm, r_src, r_tag);
    wire h2_takes = h2_live && takes(h2_comm, h2_src, h2_tag, h2_sany, h2_tany, r_comm, r_src, r_tag);
    wire searches_umq = r_op == POST || r_op == PROBE || r_op == MPROBE;
    wire found_umq = (r_op == PROBE || r_op == MPROBE) ? resp_kind == FOUND : resp_kind == MATCHED;

    always @(posedge clock) begin
        if (reset) begin
            answered <= 0;
            age <= 0;
            {h1_live, h2_live, m1_live, m2_live} <= 0;
            {posted_h1, posted_h2, arrived_m1, arrived_m2} <= 0;
            prq_n <= 0;
            umq_n <= 0;
        end else begin
            if (done) answered <= answered + 8'd1;
            age <= (in_flight == 0 || done) ? 8'd0 : age + 8'd1;
        end
        if (take) begin
            c_op[next_id[1:0]] <= cmd_op;
            c_comm[next_id[1:0]] <= cmd_comm[CB-1:0];
            c_src[next_id[1:0]] <= cmd_src[SB-1:0];
            c_tag[next_id[1:0]] <= cmd_tag[TB-1:0];
            c_sany[next_id[1:0]] <= cmd_src_any;
            c_tany[next_id[1:0]] <= cmd_tag_any;
            c_handle[next_id[1:0]] <= cmd_handle[HB-1:0];
            if (cmd_op == POST && cmd_handle[HB-1:0] == H1) posted_h1 <= 1;
            if (cmd_op == POST && cmd_handle[HB-1:0] == H2) posted_h2 <= 1;
            if (cmd_op == ARRIVE && cmd_handle[HB-1:0] == M1) arrived_m1 <= 1;
            if (cmd_op == ARRIVE && cmd_handle[HB-1:0] == M2) arrived_m2 <= 1;
        end
        if (!reset && done) begin
            // Effects of the answer on the shadow queues.
            if (r_op == FLUSH) begin
                {h1_live, h2_live, m1_live, m2_live} <= 0;
                prq_n <= 0;
                umq_n <= 0;
            end
            if (r_op == POST && resp_kind == QUEUED) begin
                prq_n <= prq_n + 8'd1;
                if (r_handle == H1) begin
                    h1_live <= 1;
                    {h1_comm, h1_src, h1_tag, h1_sany, h1_tany} <= {r_comm, r_src, r_tag, r_sany, r_tany};
                    h1_older <= 0;
                end
                if (r_handle == H2) begin
                    h2_live <= 1;
                    {h2_comm, h2_src, h2_tag, h2_sany, h2_tany} <= {r_comm, r_src, r_tag, r_sany, r_tany};
                    h1_older <= h1_live;
                end
            end
            if (r_op == ARRIVE && resp_kind == QUEUED) begin
                umq_n <= umq_n + 8'd1;
                if (r_handle == M1) begin
                    m1_live <= 1;
                    {m1_comm, m1_src, m1_tag} <= {r_comm, r_src, r_tag};
                    m1_older <= 0;
                end
                if (r_handle == M2) begin
                    m2_live <= 1;
                    {m2_comm, m2_src, m2_tag} <= {r_comm, r_src, r_tag};
                    m1_older <= m1_live;
                end
            end
            if ((r_op == POST && resp_kind == MATCHED) || (r_op == MPROBE && resp_kind == FOUND)) begin
                umq_n <= umq_n - 8'd1;
                if (got_msg == M1) m1_live <= 0;
                if (got_msg == M2) m2_live <= 0;
            end
            if ((r_op == ARRIVE && resp_kind == MATCHED) || (r_op == CANCEL && resp_kind == CANCELLED)) begin
                prq_n <= prq_n - 8'd1;
                if (got_recv == H1) h1_live <= 0;
                if (got_recv == H2) h2_live <= 0;
            end
        end
    end

    // ---- Properties. ----
    reg past_valid = 1'b0;
    always @(posedge clock) past_valid <= 1'b1;

    always @(posedge clock) if (past_valid && started) begin
        // @property reset: no response pending and both queues empty after a reset cycle
        if ($past(reset)) begin
            assert (!resp_valid);
            assert (prq_count == 0 && umq_count == 0);
        end
        // @property held: a response is held, unchanged, until taken
        if (!$past(reset) && $past(resp_valid && !resp_ready)) begin
            assert (resp_valid);
            assert ($stable(resp_kind) && $stable(resp_id) && $stable(resp_recv) && $stable(resp_msg));
        end
        // @property flush: both queues are empty the cycle after a flush's answer first shows
        if (!$past(reset) && $past(resp_valid && resp_kind == FLUSHED)
                && !$past(resp_valid && resp_kind == FLUSHED, 2))
            assert (prq_count == 0 && umq_count == 0);
    end

    always @(*) if (started && !reset) begin
        // @property answered: no response without a command; while commands are in flight, an answer at least every MAX_AGE cycles
        if (resp_valid) assert (in_flight != 0);
        assert (in_flight <= 8'd4);
        assert (age < MAX_AGE);
        if (done) begin
            // @property in order: one answer per command, in order (also one taken in a reset cycle)
            assert (resp_id == answered);
            // @property kinds: every answer's kind is one its op may give
            if (r_op == POST || r_op == ARRIVE)
                assert (resp_kind == MATCHED || resp_kind == QUEUED || resp_kind == OVERFLOW);
            if (r_op == CANCEL) assert (resp_kind == CANCELLED || resp_kind == NOT_FOUND);
            if (r_op == PROBE || r_op == MPROBE) assert (resp_kind == FOUND || resp_kind == FOUND_NOTHING);
            if (r_op == FLUSH) assert (resp_kind == FLUSHED);
            // @property capacity: overflow only when the queue holds its guaranteed capacity
            if (resp_kind == OVERFLOW) assert ((r_op == POST ? prq_n : umq_n) >= GUARANTEED);
            // @property conservation: nothing removed twice or removed without being queued; cancel finds exactly the live receive
            if ((r_op == ARRIVE && resp_kind == MATCHED) || (r_op == CANCEL && resp_kind == CANCELLED)) begin
                assert (prq_n != 0);
                if (got_recv == H1) assert (h1_live);
                if (got_recv == H2) assert (h2_live);
            end
            if (searches_umq && found_umq) begin
                assert (umq_n != 0);
                if (got_msg == M1) assert (m1_live);
                if (got_msg == M2) assert (m2_live);
            end
            if (r_op == CANCEL) begin
                if (r_handle == H1) assert ((resp_kind == CANCELLED) == h1_live);
                if (resp_kind == CANCELLED) assert (got_recv == r_handle);
            end
            // @property order (PRQ): an arrival takes the oldest matching receive, and finds one whenever one is live
            if (r_op == ARRIVE) begin
                if (h1_takes || h2_takes) assert (resp_kind == MATCHED);
                if (resp_kind == MATCHED && got_recv == H2 && h1_takes) assert (!h1_older);
                if (resp_kind == MATCHED && got_recv == H1 && h2_takes) assert (h1_older);
            end
            // @property order (UMQ): a post or probe takes the oldest matching message, and finds one whenever one is live
            if (searches_umq) begin
                if (takes_m1 || takes_m2) assert (found_umq);
                if (found_umq && got_msg == M2 && takes_m1) assert (!m1_older);
                if (found_umq && got_msg == M1 && takes_m2) assert (m1_older);
            end
        end
    end
endmodule
