// Formal harness of wrap-safe posting labels (`top`, emitted by `tagmatch gen`).
//
// The lists order their entries across lists by posting label, in serial-number
// arithmetic, so the order must hold when the label counter wraps. From reset, reaching
// the wrap takes more list inserts than a free command stream can make within a provable
// depth, so this harness does two things the engine harness does not:
//   - `tagmatch verify` writes the reset values of each queue's label counter and
//     round-robin list pointer as `anyconst`s: every start is as reachable as zero (empty
//     lists after some run of inserts), so the solver may start the labels just before
//     the wrap, and the older of two list entries in either list;
//   - the stream is short and dense: COMMANDS commands back to back, the host always
//     ready, each a post or an arrival as the solver picks, with the solver's envelopes
//     and wildcards. Command i carries handle i. The timing is fixed by the stream (no
//     gaps, no stalls): the engine harness covers the free timing, from label zero.
// A queue takes at most CAM + 2 of them, so at most 2 of its entries go to the lists, one
// in each, and their labels never span more than two quarters of the label space (no
// insert is refused for label room). The harness then knows both queues whole, and checks
// every answer against the oldest match, however the labels fall across the wrap: the
// arrival that searches both lists, and the data mover that refills the CAM with the
// older list entry after a CAM entry leaves.
//
// `tagmatch verify` writes `params.vh` beside this file: CB, SB, TB, HB, the field widths;
// CAM, the CAM's entries; MAX_AGE (unused here); DEPTH, the check's depth. HB must hold
// COMMANDS (the command numbers are handles): `tagmatch verify` checks it.
`include "params.vh"

module labels_harness (
    input wire clock,
    input wire post,
    input wire [31:0] cmd_comm,
    input wire [31:0] cmd_src,
    input wire [31:0] cmd_tag,
    input wire cmd_src_any,
    input wire cmd_tag_any
);
    localparam [3:0] POST = 0, ARRIVE = 1;
    localparam [3:0] MATCHED = 0, QUEUED = 1;
    localparam COMMANDS = 6, PER_QUEUE = CAM + 2;

    wire reset_in = 1'b0;
    wire resp_ready = 1'b1;
    wire cmd_valid;
    wire [3:0] cmd_op;
    wire [31:0] cmd_handle;

    `include "engine_dut.vh"

    // ---- The stream: COMMANDS posts and arrivals, back to back. ----
    reg [7:0] posts;
    assign cmd_valid = !reset && accepted < COMMANDS;
    assign cmd_op = post ? POST : ARRIVE;
    assign cmd_handle = {24'd0, accepted};
    always @(*) begin
        assume ((cmd_comm >> CB) == 0 && (cmd_src >> SB) == 0 && (cmd_tag >> TB) == 0);
        if (!post) assume (!cmd_src_any && !cmd_tag_any);
        if (take) assume (post ? posts < PER_QUEUE : accepted - posts < PER_QUEUE);
    end

    // ---- Shadow state: every command, and which entries are queued. ----
    reg c_post [0:COMMANDS-1];
    reg [CB-1:0] c_comm [0:COMMANDS-1];
    reg [SB-1:0] c_src [0:COMMANDS-1];
    reg [TB-1:0] c_tag [0:COMMANDS-1];
    reg c_sany [0:COMMANDS-1];
    reg c_tany [0:COMMANDS-1];
    reg [COMMANDS-1:0] live;
    reg [7:0] answered;
    reg [7:0] cycle = 0;
    always @(posedge clock) cycle <= cycle + 8'd1;

    wire done = resp_valid & resp_ready;
    // Commands are numbered in HB bits (their handles), which hold COMMANDS.
    wire [HB-1:0] r = answered[HB-1:0];
    wire r_post = c_post[r];
    wire [HB-1:0] got = r_post ? resp_msg[HB-1:0] : resp_recv[HB-1:0];

    // The oldest queued entry of the other queue that pairs with command r: a receive's
    // pattern (its wildcards) taking a message's envelope.
    reg expect_found;
    reg [HB-1:0] expect_handle;
    integer i;
    always @(*) begin
        expect_found = 0;
        expect_handle = 0;
        for (i = COMMANDS - 1; i >= 0; i = i - 1)
            if (live[i] && c_post[i] != r_post && c_comm[i] == c_comm[r]
                    && ((r_post ? c_sany[r] : c_sany[i]) || c_src[i] == c_src[r])
                    && ((r_post ? c_tany[r] : c_tany[i]) || c_tag[i] == c_tag[r])) begin
                expect_found = 1;
                expect_handle = i;
            end
    end

    always @(posedge clock) begin
        if (reset) begin
            answered <= 0;
            live <= 0;
            posts <= 0;
        end else begin
            if (done) answered <= answered + 8'd1;
            if (take && post) posts <= posts + 8'd1;
            if (done && resp_kind == QUEUED) live[r] <= 1;
            if (done && resp_kind == MATCHED) live[got] <= 0;
        end
        if (take) begin
            c_post[accepted[HB-1:0]] <= post;
            c_comm[accepted[HB-1:0]] <= cmd_comm[CB-1:0];
            c_src[accepted[HB-1:0]] <= cmd_src[SB-1:0];
            c_tag[accepted[HB-1:0]] <= cmd_tag[TB-1:0];
            c_sany[accepted[HB-1:0]] <= cmd_src_any;
            c_tany[accepted[HB-1:0]] <= cmd_tag_any;
        end
    end

    // ---- Properties. ----
    always @(*) if (started && !reset) begin
        // @property answered: every command is answered, in order, all of them within the depth
        if (done) assert (resp_id == answered && answered < COMMANDS);
        if (cycle == DEPTH - 1) assert (answered == COMMANDS);
        if (done) begin
            // @property order across the wrap: every answer pairs with the oldest match of the other queue, else queues, wherever the labels start
            assert (resp_kind == (expect_found ? MATCHED : QUEUED));
            if (expect_found) assert (got == expect_handle);
        end
    end
endmodule
