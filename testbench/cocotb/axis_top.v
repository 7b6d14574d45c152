// The cocotb tests' top level around the AXI4-Stream shell (`tagmatch gen --shell xilinx`).
// It has no ports: test_shell.py drives these registers and reads these wires, named as
// the shell's ports. Verilator 5.006 drops VPI writes to the top module's input ports
// (the model copies its own inputs over them at each evaluation), so the inputs are
// registers one level down. W is the word width, from the manifest (Makefile).
module tagmatch_cocotb_axis #(parameter W = 128);
    reg aclk = 1'b0;
    reg aresetn = 1'b1;
    reg s_axis_cmd_tvalid = 1'b0;
    reg [W-1:0] s_axis_cmd_tdata;
    reg m_axis_resp_tready = 1'b0;
    wire s_axis_cmd_tready;
    wire m_axis_resp_tvalid;
    wire [W-1:0] m_axis_resp_tdata;
    tagmatch_shell shell (
        .aclk(aclk),
        .aresetn(aresetn),
        .s_axis_cmd_tvalid(s_axis_cmd_tvalid),
        .s_axis_cmd_tready(s_axis_cmd_tready),
        .s_axis_cmd_tdata(s_axis_cmd_tdata),
        .m_axis_resp_tvalid(m_axis_resp_tvalid),
        .m_axis_resp_tready(m_axis_resp_tready),
        .m_axis_resp_tdata(m_axis_resp_tdata)
    );
endmodule
