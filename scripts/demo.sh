#!/usr/bin/env bash
# The main job (README "Set-up"): installs Verilator and yosys if missing, builds the
# `roce-cc` tool, emits and lints the Verilog of every top, replays the example trace
# through the golden model and through the Verilated RTL, checks that both print the same
# bytes, and writes a waveform of the RTL run. Everything goes to out/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

out=out
mkdir -p "$out"
cargo build -q -p roce-cc
rcc=target/debug/roce-cc

echo "== Verilog of every top -> $out/verilog"
"$rcc" verilog --out "$out/verilog"
for v in "$out"/verilog/*.v; do
    verilator --lint-only -Wall -Wno-DECLFILENAME "$out/verilog/waivers.vlt" "$v" --top-module top
    echo "   lint clean: $v"
done

echo "== parameters (connectx profile) -> $out/PARAMS.toml"
"$rcc" params --profile connectx > "$out/PARAMS.toml"

trace=docs/examples/basic.jsonl
echo "== replay $trace through the golden model and the Verilated RTL"
"$rcc" replay --engine golden --params "$out/PARAMS.toml" "$trace" > "$out/basic.golden.jsonl"
"$rcc" replay --engine rtl --params "$out/PARAMS.toml" --vcd "$out/basic.vcd" "$trace" > "$out/basic.rtl.jsonl"
if cmp -s "$out/basic.golden.jsonl" "$out/basic.rtl.jsonl"; then
    echo "   identical output ($(wc -l < "$out/basic.golden.jsonl") lines): $out/basic.golden.jsonl"
else
    echo "   golden and rtl output differ:" >&2
    diff "$out/basic.golden.jsonl" "$out/basic.rtl.jsonl" >&2 || true
    exit 1
fi
head -n 3 "$out/basic.golden.jsonl"
echo "== waveform of the RTL run: $out/basic.vcd (open with: gtkwave $out/basic.vcd)"
