// Behavioural stand-ins for the Xilinx clock primitives the board wrappers instantiate,
// so Verilator can lint a wrapper (Vivado and yosys bring their own definitions).
/* verilator lint_off DECLFILENAME */
module IBUFDS (input wire I, input wire IB, output wire O);
    /* verilator lint_off UNUSED */
    wire unused_ib = IB;
    /* verilator lint_on UNUSED */
    assign O = I;
endmodule

module IBUF (input wire I, output wire O);
    assign O = I;
endmodule

module BUFG (input wire I, output wire O);
    assign O = I;
endmodule

module BUFGCE_DIV #(parameter integer BUFGCE_DIVIDE = 1) (
    input wire I, input wire CE, input wire CLR, output reg O
);
    integer count = 0;
    initial O = 1'b0;
    always @(posedge I) begin
        if (CLR) begin
            count <= 0;
            O <= 1'b0;
        end else if (CE) begin
            if (count == BUFGCE_DIVIDE - 1) begin
                count <= 0;
                O <= ~O;
            end else begin
                count <= count + 1;
            end
        end
    end
endmodule
