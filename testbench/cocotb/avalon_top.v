// The cocotb tests' top level around the Avalon-ST shell (`tagmatch gen --shell intel`).
// It has no ports: test_shell.py drives these registers and reads these wires, named as
// the shell's ports. Verilator 5.006 drops VPI writes to the top module's input ports
// (the model copies its own inputs over them at each evaluation), so the inputs are
// registers one level down. W is the word width, from the manifest (Makefile).
module tagmatch_cocotb_avalon #(parameter W = 128);
    reg clk = 1'b0;
    reg reset = 1'b0;
    reg asi_cmd_valid = 1'b0;
    reg [W-1:0] asi_cmd_data;
    reg aso_resp_ready = 1'b0;
    wire asi_cmd_ready;
    wire aso_resp_valid;
    wire [W-1:0] aso_resp_data;
    tagmatch_shell shell (
        .clk(clk),
        .reset(reset),
        .asi_cmd_valid(asi_cmd_valid),
        .asi_cmd_ready(asi_cmd_ready),
        .asi_cmd_data(asi_cmd_data),
        .aso_resp_valid(aso_resp_valid),
        .aso_resp_ready(aso_resp_ready),
        .aso_resp_data(aso_resp_data)
    );
endmodule
