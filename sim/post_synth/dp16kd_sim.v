// DP16KD: our behavioural simulation model of the Lattice ECP5 18 Kbit block RAM, for the
// post-synthesis simulation only (sim/tests/all/post_synth.rs). yosys 0.23's ecp5/cells_sim.v
// declares DP16KD as a black box with no body, so there is no vendor-supplied model to use;
// the bridge (roce-cc-bridge-gen, `post_synth`) uses yosys's own model instead whenever the
// cells_sim.v it finds has a DP16KD with a body, and drops yosys's empty one otherwise.
//
// Written from the ECP5 sysMEM documentation (Lattice TN1264, "ECP5 and ECP5-5G Memory Usage
// Guide") and the way yosys's ecp5/brams_map.v connects the cell, for the configurations
// brams_map.v makes: true dual port with ports of 1, 2, 4, 9 or 18 bits, or pseudo dual
// port with a 36-bit write port A (data DIB:DIA, byte enables ADA3..ADA0) and/or a 36-bit
// read port B (data DOB:DOA). Both with REGMODE "NOREG" (output latched at the clock edge,
// one cycle of read latency), RESETMODE "SYNC" or "ASYNC" (RST zeroes that port's output at
// the clock edge or at once), CSDECODE
// "0b000" (selected while CS2..CS0 are low), WRITEMODE NORMAL / WRITETHROUGH /
// READBEFOREWRITE on the port that writes, CLKxMUX "CLKx" or "INV", INITVAL_00..3F as
// brams_map.v lays them out (sixteen 18-bit words in 20-bit slots each). Anything else
// instantiates the missing module UNSUPPORTED_DP16KD_CONFIGURATION, so Verilating stops.
//
// Layout: 1024 half-words of 18 bits (two 9-bit bytes). An 18-bit word is a half-word
// (address AD13..AD4; write byte enables AD1, AD0); a 9-bit word a byte (AD3 picks it);
// 4-, 2- and 1-bit words sit in the low 8 bits of a byte (parity unused); a 36-bit word is
// the half-words 2n (low) and 2n + 1 (high), n = AD13..AD5. This is the mixed-width layout
// yosys assumes when it maps a memory; only consistency across the ports matters here.
//
// Not modelled: GSR, the output registers (REGMODE "OUTREG", OCE), ASYNC_RESET_RELEASE,
// the *MUX options other than the clocks, and two ports writing one half-word in the
// same cycle (the write is a read-modify-write of the half-word; roce-cc's RAMs have one
// write port). A read that meets a write to the same word on the other port returns the
// old word (the real part leaves it undefined; the state RAM is `no_rw_check`).
module DP16KD (
   input  wire DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0,
   input  wire ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0,
   input  wire CEA, OCEA, CLKA, WEA, RSTA,
   input  wire CSA2, CSA1, CSA0,
   output wire DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0,
   input  wire DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0,
   input  wire ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0,
   input  wire CEB, OCEB, CLKB, WEB, RSTB,
   input  wire CSB2, CSB1, CSB0,
   output wire DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0
);
   parameter DATA_WIDTH_A = 18;
   parameter DATA_WIDTH_B = 18;
   parameter [127:0] REGMODE_A = "NOREG";
   parameter [127:0] REGMODE_B = "NOREG";
   parameter [127:0] RESETMODE = "SYNC";
   parameter ASYNC_RESET_RELEASE = "SYNC";
   parameter [127:0] CSDECODE_A = "0b000";
   parameter [127:0] CSDECODE_B = "0b000";
   parameter [127:0] WRITEMODE_A = "NORMAL";
   parameter [127:0] WRITEMODE_B = "NORMAL";
   parameter WID = 0;
   parameter GSR = "ENABLED";
   parameter INIT_DATA = "STATIC";
   // The per-pin inversion options of the real cell (accepted; only CLKAMUX and CLKBMUX
   // are honoured).
   parameter DIA0MUX = "DIA0", DIA1MUX = "DIA1", DIA2MUX = "DIA2", DIA3MUX = "DIA3";
   parameter DIA4MUX = "DIA4", DIA5MUX = "DIA5", DIA6MUX = "DIA6", DIA7MUX = "DIA7";
   parameter DIA8MUX = "DIA8", DIA9MUX = "DIA9", DIA10MUX = "DIA10", DIA11MUX = "DIA11";
   parameter DIA12MUX = "DIA12", DIA13MUX = "DIA13", DIA14MUX = "DIA14", DIA15MUX = "DIA15";
   parameter DIA16MUX = "DIA16", DIA17MUX = "DIA17", ADA0MUX = "ADA0", ADA1MUX = "ADA1";
   parameter ADA2MUX = "ADA2", ADA3MUX = "ADA3", ADA4MUX = "ADA4", ADA5MUX = "ADA5";
   parameter ADA6MUX = "ADA6", ADA7MUX = "ADA7", ADA8MUX = "ADA8", ADA9MUX = "ADA9";
   parameter ADA10MUX = "ADA10", ADA11MUX = "ADA11", ADA12MUX = "ADA12", ADA13MUX = "ADA13";
   parameter CEAMUX = "CEA", OCEAMUX = "OCEA", CLKAMUX = "CLKA", WEAMUX = "WEA";
   parameter RSTAMUX = "RSTA", CSA0MUX = "CSA0", CSA1MUX = "CSA1", CSA2MUX = "CSA2";
   parameter DOA0MUX = "DOA0", DOA1MUX = "DOA1", DOA2MUX = "DOA2", DOA3MUX = "DOA3";
   parameter DOA4MUX = "DOA4", DOA5MUX = "DOA5", DOA6MUX = "DOA6", DOA7MUX = "DOA7";
   parameter DOA8MUX = "DOA8", DOA9MUX = "DOA9", DOA10MUX = "DOA10", DOA11MUX = "DOA11";
   parameter DOA12MUX = "DOA12", DOA13MUX = "DOA13", DOA14MUX = "DOA14", DOA15MUX = "DOA15";
   parameter DOA16MUX = "DOA16", DOA17MUX = "DOA17", DIB0MUX = "DIB0", DIB1MUX = "DIB1";
   parameter DIB2MUX = "DIB2", DIB3MUX = "DIB3", DIB4MUX = "DIB4", DIB5MUX = "DIB5";
   parameter DIB6MUX = "DIB6", DIB7MUX = "DIB7", DIB8MUX = "DIB8", DIB9MUX = "DIB9";
   parameter DIB10MUX = "DIB10", DIB11MUX = "DIB11", DIB12MUX = "DIB12", DIB13MUX = "DIB13";
   parameter DIB14MUX = "DIB14", DIB15MUX = "DIB15", DIB16MUX = "DIB16", DIB17MUX = "DIB17";
   parameter ADB0MUX = "ADB0", ADB1MUX = "ADB1", ADB2MUX = "ADB2", ADB3MUX = "ADB3";
   parameter ADB4MUX = "ADB4", ADB5MUX = "ADB5", ADB6MUX = "ADB6", ADB7MUX = "ADB7";
   parameter ADB8MUX = "ADB8", ADB9MUX = "ADB9", ADB10MUX = "ADB10", ADB11MUX = "ADB11";
   parameter ADB12MUX = "ADB12", ADB13MUX = "ADB13", CEBMUX = "CEB", OCEBMUX = "OCEB";
   parameter CLKBMUX = "CLKB", WEBMUX = "WEB", RSTBMUX = "RSTB", CSB0MUX = "CSB0";
   parameter CSB1MUX = "CSB1", CSB2MUX = "CSB2", DOB0MUX = "DOB0", DOB1MUX = "DOB1";
   parameter DOB2MUX = "DOB2", DOB3MUX = "DOB3", DOB4MUX = "DOB4", DOB5MUX = "DOB5";
   parameter DOB6MUX = "DOB6", DOB7MUX = "DOB7", DOB8MUX = "DOB8", DOB9MUX = "DOB9";
   parameter DOB10MUX = "DOB10", DOB11MUX = "DOB11", DOB12MUX = "DOB12", DOB13MUX = "DOB13";
   parameter DOB14MUX = "DOB14", DOB15MUX = "DOB15", DOB16MUX = "DOB16", DOB17MUX = "DOB17";
   // Initial contents: INITVAL_nn[20 * i +: 18] is half-word 16 * nn + i.
   parameter [319:0] INITVAL_00 = 320'h0, INITVAL_01 = 320'h0;
   parameter [319:0] INITVAL_02 = 320'h0, INITVAL_03 = 320'h0;
   parameter [319:0] INITVAL_04 = 320'h0, INITVAL_05 = 320'h0;
   parameter [319:0] INITVAL_06 = 320'h0, INITVAL_07 = 320'h0;
   parameter [319:0] INITVAL_08 = 320'h0, INITVAL_09 = 320'h0;
   parameter [319:0] INITVAL_0A = 320'h0, INITVAL_0B = 320'h0;
   parameter [319:0] INITVAL_0C = 320'h0, INITVAL_0D = 320'h0;
   parameter [319:0] INITVAL_0E = 320'h0, INITVAL_0F = 320'h0;
   parameter [319:0] INITVAL_10 = 320'h0, INITVAL_11 = 320'h0;
   parameter [319:0] INITVAL_12 = 320'h0, INITVAL_13 = 320'h0;
   parameter [319:0] INITVAL_14 = 320'h0, INITVAL_15 = 320'h0;
   parameter [319:0] INITVAL_16 = 320'h0, INITVAL_17 = 320'h0;
   parameter [319:0] INITVAL_18 = 320'h0, INITVAL_19 = 320'h0;
   parameter [319:0] INITVAL_1A = 320'h0, INITVAL_1B = 320'h0;
   parameter [319:0] INITVAL_1C = 320'h0, INITVAL_1D = 320'h0;
   parameter [319:0] INITVAL_1E = 320'h0, INITVAL_1F = 320'h0;
   parameter [319:0] INITVAL_20 = 320'h0, INITVAL_21 = 320'h0;
   parameter [319:0] INITVAL_22 = 320'h0, INITVAL_23 = 320'h0;
   parameter [319:0] INITVAL_24 = 320'h0, INITVAL_25 = 320'h0;
   parameter [319:0] INITVAL_26 = 320'h0, INITVAL_27 = 320'h0;
   parameter [319:0] INITVAL_28 = 320'h0, INITVAL_29 = 320'h0;
   parameter [319:0] INITVAL_2A = 320'h0, INITVAL_2B = 320'h0;
   parameter [319:0] INITVAL_2C = 320'h0, INITVAL_2D = 320'h0;
   parameter [319:0] INITVAL_2E = 320'h0, INITVAL_2F = 320'h0;
   parameter [319:0] INITVAL_30 = 320'h0, INITVAL_31 = 320'h0;
   parameter [319:0] INITVAL_32 = 320'h0, INITVAL_33 = 320'h0;
   parameter [319:0] INITVAL_34 = 320'h0, INITVAL_35 = 320'h0;
   parameter [319:0] INITVAL_36 = 320'h0, INITVAL_37 = 320'h0;
   parameter [319:0] INITVAL_38 = 320'h0, INITVAL_39 = 320'h0;
   parameter [319:0] INITVAL_3A = 320'h0, INITVAL_3B = 320'h0;
   parameter [319:0] INITVAL_3C = 320'h0, INITVAL_3D = 320'h0;
   parameter [319:0] INITVAL_3E = 320'h0, INITVAL_3F = 320'h0;

   localparam PDP_WRITE = DATA_WIDTH_A == 36;
   localparam PDP_READ = DATA_WIDTH_B == 36;

   generate
      if (!(DATA_WIDTH_A == 1 || DATA_WIDTH_A == 2 || DATA_WIDTH_A == 4 || DATA_WIDTH_A == 9
            || DATA_WIDTH_A == 18 || DATA_WIDTH_A == 36)
          || !(DATA_WIDTH_B == 1 || DATA_WIDTH_B == 2 || DATA_WIDTH_B == 4 || DATA_WIDTH_B == 9
            || DATA_WIDTH_B == 18 || DATA_WIDTH_B == 36)
          || REGMODE_A != "NOREG" || REGMODE_B != "NOREG"
          || (RESETMODE != "SYNC" && RESETMODE != "ASYNC")
          || CSDECODE_A != "0b000" || CSDECODE_B != "0b000"
          || (CLKAMUX != "CLKA" && CLKAMUX != "INV") || (CLKBMUX != "CLKB" && CLKBMUX != "INV")
          || (WRITEMODE_A != "NORMAL" && WRITEMODE_A != "WRITETHROUGH"
              && WRITEMODE_A != "READBEFOREWRITE")
          || (WRITEMODE_B != "NORMAL" && WRITEMODE_B != "WRITETHROUGH"
              && WRITEMODE_B != "READBEFOREWRITE")) begin : unsupported
         UNSUPPORTED_DP16KD_CONFIGURATION unsupported();
      end
   endgenerate

   wire [17:0] dia = {DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0};
   wire [17:0] dib = {DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0};
   wire [13:0] ada = {ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0};
   wire [13:0] adb = {ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0};
   wire clka = CLKAMUX == "INV" ? ~CLKA : CLKA;
   wire clkb = CLKBMUX == "INV" ? ~CLKB : CLKB;
   wire sela = CEA && {CSA2, CSA1, CSA0} == 3'b000;
   wire selb = CEB && {CSB2, CSB1, CSB0} == 3'b000;

   reg [17:0] mem [0:1023];
   reg [17:0] doa_q = 18'd0;
   reg [17:0] dob_q = 18'd0;
   // Port B's low half in the 36-bit read mode (it leaves on DOA).
   reg [17:0] dob_lo_q = 18'd0;

   function [319:0] initval;
      input [5:0] n;
      begin
         case (n)
         6'h00: initval = INITVAL_00;
         6'h01: initval = INITVAL_01;
         6'h02: initval = INITVAL_02;
         6'h03: initval = INITVAL_03;
         6'h04: initval = INITVAL_04;
         6'h05: initval = INITVAL_05;
         6'h06: initval = INITVAL_06;
         6'h07: initval = INITVAL_07;
         6'h08: initval = INITVAL_08;
         6'h09: initval = INITVAL_09;
         6'h0A: initval = INITVAL_0A;
         6'h0B: initval = INITVAL_0B;
         6'h0C: initval = INITVAL_0C;
         6'h0D: initval = INITVAL_0D;
         6'h0E: initval = INITVAL_0E;
         6'h0F: initval = INITVAL_0F;
         6'h10: initval = INITVAL_10;
         6'h11: initval = INITVAL_11;
         6'h12: initval = INITVAL_12;
         6'h13: initval = INITVAL_13;
         6'h14: initval = INITVAL_14;
         6'h15: initval = INITVAL_15;
         6'h16: initval = INITVAL_16;
         6'h17: initval = INITVAL_17;
         6'h18: initval = INITVAL_18;
         6'h19: initval = INITVAL_19;
         6'h1A: initval = INITVAL_1A;
         6'h1B: initval = INITVAL_1B;
         6'h1C: initval = INITVAL_1C;
         6'h1D: initval = INITVAL_1D;
         6'h1E: initval = INITVAL_1E;
         6'h1F: initval = INITVAL_1F;
         6'h20: initval = INITVAL_20;
         6'h21: initval = INITVAL_21;
         6'h22: initval = INITVAL_22;
         6'h23: initval = INITVAL_23;
         6'h24: initval = INITVAL_24;
         6'h25: initval = INITVAL_25;
         6'h26: initval = INITVAL_26;
         6'h27: initval = INITVAL_27;
         6'h28: initval = INITVAL_28;
         6'h29: initval = INITVAL_29;
         6'h2A: initval = INITVAL_2A;
         6'h2B: initval = INITVAL_2B;
         6'h2C: initval = INITVAL_2C;
         6'h2D: initval = INITVAL_2D;
         6'h2E: initval = INITVAL_2E;
         6'h2F: initval = INITVAL_2F;
         6'h30: initval = INITVAL_30;
         6'h31: initval = INITVAL_31;
         6'h32: initval = INITVAL_32;
         6'h33: initval = INITVAL_33;
         6'h34: initval = INITVAL_34;
         6'h35: initval = INITVAL_35;
         6'h36: initval = INITVAL_36;
         6'h37: initval = INITVAL_37;
         6'h38: initval = INITVAL_38;
         6'h39: initval = INITVAL_39;
         6'h3A: initval = INITVAL_3A;
         6'h3B: initval = INITVAL_3B;
         6'h3C: initval = INITVAL_3C;
         6'h3D: initval = INITVAL_3D;
         6'h3E: initval = INITVAL_3E;
         6'h3F: initval = INITVAL_3F;
         endcase
      end
   endfunction

   integer n, i;
   initial begin
      for (n = 0; n < 64; n = n + 1)
         for (i = 0; i < 16; i = i + 1)
            mem[16 * n + i] = initval(n[5:0]) >> (20 * i);
   end

   // Bit offset of a 1- to 9-bit word inside its half-word.
   function integer lane;
      input integer width;
      input [13:0] ad;
      begin
         case (width)
            9: lane = 9 * ad[3];
            4: lane = 9 * ad[3] + 4 * ad[2];
            2: lane = 9 * ad[3] + 2 * ad[2:1];
            1: lane = 9 * ad[3] + ad[2:0];
            default: lane = 0;
         endcase
      end
   endfunction

   // The low `width` bits set (width 1..18).
   function [17:0] ones;
      input integer width;
      begin
         ones = (18'd1 << width) - 18'd1;
         if (width >= 18) ones = 18'h3ffff;
      end
   endfunction

   // The word of `width` (1..18) bits at `ad`, zero-extended.
   function [17:0] read_word;
      input integer width;
      input [13:0] ad;
      begin
         read_word = (mem[ad[13:4]] >> lane(width, ad)) & ones(width);
      end
   endfunction

   // Half-word `old` with the `width`-bit (1..18) word `d` at `ad` written into it; for
   // 18 bits, only the bytes whose enable (ad[1], ad[0]) is high.
   function [17:0] merge;
      input integer width;
      input [13:0] ad;
      input [17:0] old;
      input [17:0] d;
      reg [17:0] mask;
      begin
         if (width == 18)
            mask = {{9{ad[1]}}, {9{ad[0]}}};
         else
            mask = ones(width) << lane(width, ad);
         merge = (old & ~mask) | ((d << lane(width, ad)) & mask);
      end
   endfunction

   // A port's reset zeroes its output: at the clock edge (RESETMODE "SYNC", and the write
   // of that edge is blocked) or at once (RESETMODE "ASYNC", which yosys picks for RAMs
   // whose reset pins it ties low).
   wire sync_rsta = RESETMODE == "SYNC" && RSTA;
   wire sync_rstb = RESETMODE == "SYNC" && RSTB;
   wire async_rsta = RESETMODE == "ASYNC" && RSTA;
   wire async_rstb = RESETMODE == "ASYNC" && RSTB;

   // Port A's write (36-bit: both half-words, byte enables ADA3..ADA0).
   always @(posedge clka) begin
      if (sela && WEA && !sync_rsta) begin
         if (PDP_WRITE) begin
            mem[{ada[13:5], 1'b0}] <= merge(18, {12'd0, ada[1:0]}, mem[{ada[13:5], 1'b0}], dia);
            mem[{ada[13:5], 1'b1}] <= merge(18, {12'd0, ada[3:2]}, mem[{ada[13:5], 1'b1}], dib);
         end else begin
            mem[ada[13:4]] <= merge(DATA_WIDTH_A, ada, mem[ada[13:4]], dia);
         end
      end
   end

   // Port A's output (none in the 36-bit write mode).
   always @(posedge clka or posedge async_rsta) begin
      if (RSTA) begin
         doa_q <= 18'd0;
      end else if (sela && !PDP_WRITE) begin
         if (!WEA)
            doa_q <= read_word(DATA_WIDTH_A, ada);
         else if (WRITEMODE_A == "WRITETHROUGH")
            doa_q <= (merge(DATA_WIDTH_A, ada, mem[ada[13:4]], dia) >> lane(DATA_WIDTH_A, ada))
                     & ones(DATA_WIDTH_A);
         else if (WRITEMODE_A == "READBEFOREWRITE")
            doa_q <= read_word(DATA_WIDTH_A, ada);
      end
   end

   // Port B's write (never in a 36-bit mode: then DIB is port A's high half, or B reads).
   always @(posedge clkb) begin
      if (selb && WEB && !sync_rstb && !PDP_WRITE && !PDP_READ)
         mem[adb[13:4]] <= merge(DATA_WIDTH_B, adb, mem[adb[13:4]], dib);
   end

   // Port B's output, or the 36-bit read (DOB high half, DOA low half).
   always @(posedge clkb or posedge async_rstb) begin
      if (RSTB) begin
         dob_q <= 18'd0;
         dob_lo_q <= 18'd0;
      end else if (selb) begin
         if (PDP_READ) begin
            dob_lo_q <= mem[{adb[13:5], 1'b0}];
            dob_q <= mem[{adb[13:5], 1'b1}];
         end else if (!WEB || PDP_WRITE) begin
            dob_q <= read_word(DATA_WIDTH_B, adb);
         end else if (WRITEMODE_B == "WRITETHROUGH") begin
            dob_q <= (merge(DATA_WIDTH_B, adb, mem[adb[13:4]], dib) >> lane(DATA_WIDTH_B, adb))
                     & ones(DATA_WIDTH_B);
         end else if (WRITEMODE_B == "READBEFOREWRITE") begin
            dob_q <= read_word(DATA_WIDTH_B, adb);
         end
      end
   end

   assign {DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0} = PDP_READ ? dob_lo_q : doa_q;
   assign {DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0} = dob_q;
endmodule
