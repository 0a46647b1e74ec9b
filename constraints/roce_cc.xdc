# Xilinx (Vivado) timing constraints for roce-cc. NOT RUN HERE: no Vivado on the build
# machine; written for users who integrate the core with Vivado. See constraints/README.md.
#
# The design is single-clock: every flip-flop of roce_cc_top (core + register block), of
# the time base and of the UART bridge is clocked by the one core clock, so there is no
# clock-domain crossing inside it. The only asynchronous signals are inputs:
#   - a reset from a button or another clock domain (roce_cc_top's `reset` is a
#     synchronous, active-high input: drive it from a reset synchroniser in the core clock
#     domain, as board_ulx3s does for its button);
#   - the UART receive line (board designs with the UART bridge), synchronised by two
#     flip-flops inside the bridge (rx_n1 -> rx_n2).

# ---- core clock: 250 MHz ----
# With roce_cc_top as the top level its clock port is `clock`. When the core is
# instantiated in a NIC design, constrain the clock there instead (the MMCM/PLL output
# that drives the core's `clock` is usually constrained automatically); keep the period.
create_clock -period 4.000 -name core_clk [get_ports clock]

# ---- asynchronous inputs (only in designs that have them as top-level ports) ----
# The button of a board design: it reaches the design only through a two-flip-flop
# synchroniser, so no timing relation to the clock exists.
set_false_path -from [get_ports -quiet btn1]
# The UART receive line: sampled by the bridge's two-flip-flop synchroniser; the bridge
# samples it 868 (115200 baud at the ULX3S design's 100 MHz) or more clocks per bit, so its timing does not
# matter beyond the synchroniser.
set_false_path -from [get_ports -quiet ftdi_txd]
# The UART transmit line comes from a flip-flop and changes at most once per bit period.
set_false_path -to [get_ports -quiet ftdi_rxd]

# An asynchronous reset source that drives a reset synchroniser: only the first stage sees
# it; bound its delay rather than timing it against the clock.
#   set_max_delay -datapath_only -from [get_ports <async_reset>] 4.000

# Keep the synchroniser flip-flops together and out of shift-register extraction.
set_property -quiet ASYNC_REG TRUE [get_cells -quiet -hier -filter {NAME =~ *bridge/rx_n1* && IS_SEQUENTIAL}]
set_property -quiet ASYNC_REG TRUE [get_cells -quiet -hier -filter {NAME =~ *bridge/rx_n2* && IS_SEQUENTIAL}]
set_property -quiet ASYNC_REG TRUE [get_cells -quiet -hier -filter {NAME =~ *btn_s1* && IS_SEQUENTIAL}]
set_property -quiet ASYNC_REG TRUE [get_cells -quiet -hier -filter {NAME =~ *btn_s2* && IS_SEQUENTIAL}]
# The board reset's synchroniser of a clock generator's lock output (`BoardReset`).
set_property -quiet ASYNC_REG TRUE [get_cells -quiet -hier -filter {NAME =~ *lock_s1* && IS_SEQUENTIAL}]
set_property -quiet ASYNC_REG TRUE [get_cells -quiet -hier -filter {NAME =~ *lock_s2* && IS_SEQUENTIAL}]

# ---- I/O of roce_cc_top when it is the top level (out-of-context timing runs) ----
# Its ports connect to logic in the same clock domain in a real design; for an
# out-of-context run, budget half a period on each side.
#   set_input_delay  -clock core_clk 2.000 [get_ports -filter {DIRECTION == IN && NAME != clock}]
#   set_output_delay -clock core_clk 2.000 [get_ports -filter {DIRECTION == OUT}]
