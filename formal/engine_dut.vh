// The receive engine under proof, shared by the harnesses that drive it (engine.sv,
// completion.sv, labels.sv): the first-cycle reset, the engine's outputs as wires, and the command
// numbering. Included inside a harness module whose ports are the engine's inputs.

// The first cycle is a reset (from power-up garbage or from zeroed registers, as the
// check starts); `reset_in` may reset it again at any cycle.
reg started = 1'b0;
always @(posedge clock) started <= 1'b1;
wire reset = reset_in | ~started;

wire cmd_ready, resp_valid;
wire [3:0] resp_kind;
wire [31:0] resp_recv, resp_msg, resp_src, resp_tag;
wire [7:0] resp_id;
wire [15:0] prq_count, umq_count, prq_cam_count, umq_cam_count;
// Commands taken so far; each command's id is its number. A command taken in a reset
// cycle comes after the reset: it is command 0.
wire take = cmd_valid & cmd_ready;
reg [7:0] accepted;
wire [7:0] next_id = reset ? 8'd0 : accepted;
always @(posedge clock) accepted <= next_id + {7'd0, take};
top dut (
    .clock(clock), .reset(reset),
    .cmd_valid(cmd_valid), .cmd_ready(cmd_ready), .cmd_op(cmd_op), .cmd_comm(cmd_comm),
    .cmd_src(cmd_src), .cmd_tag(cmd_tag), .cmd_src_any(cmd_src_any),
    .cmd_tag_any(cmd_tag_any), .cmd_handle(cmd_handle), .cmd_id(next_id),
    .resp_valid(resp_valid), .resp_ready(resp_ready), .resp_kind(resp_kind),
    .resp_recv(resp_recv), .resp_msg(resp_msg), .resp_src(resp_src), .resp_tag(resp_tag),
    .resp_id(resp_id), .prq_count(prq_count), .umq_count(umq_count),
    .prq_cam_count(prq_cam_count), .umq_cam_count(umq_cam_count)
);

// The host takes responses: never more than 3 cycles in a row without.
reg [1:0] stalled;
always @(posedge clock) stalled <= resp_ready ? 2'd0 : stalled + 2'd1;
always @(*) assume (stalled != 2'd3 || resp_ready);
