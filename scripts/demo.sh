#!/usr/bin/env bash
# The main job (README "Set-up"): installs Verilator and yosys if missing, builds the
# `roce-cc` tool, emits and lints the Verilog of every top, replays the example trace
# through the golden model and through the Verilated RTL, checks that both print the same
# bytes, and writes a waveform of the RTL run. Everything goes to out/ (not committed).
#
#   ROCE_CC_OUT=DIR   write there instead of out/
#   ROCE_CC_BIN=FILE  use this roce-cc binary instead of building one (the workspace test
#                     `cli/tests/all/demo_script.rs` runs this script so, with the binary cargo
#                     built for it, so that every step below is also part of the test command)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

out="${ROCE_CC_OUT:-out}"
mkdir -p "$out"
if [ -n "${ROCE_CC_BIN:-}" ]; then
    rcc="$ROCE_CC_BIN"
else
    cargo build -q -p roce-cc
    # Where cargo put it: `CARGO_TARGET_DIR` if set (relative to the workspace, as cargo
    # reads it from here), else `target/`.
    rcc="${CARGO_TARGET_DIR:-target}/debug/roce-cc"
fi

echo "== Verilog of every top -> $out/verilog"
# `roce-cc verilog` prints one `lint: <command>` line per top (the waivers and the vendor
# cells' lint-only stand-ins beside each top); run exactly those.
lint_cmds=$("$rcc" verilog --out "$out/verilog" | sed -n 's/^lint: //p')
if [ -z "$lint_cmds" ]; then
    echo "   roce-cc verilog printed no lint commands" >&2
    exit 1
fi
while IFS= read -r cmd; do
    $cmd
    top_file=$(awk '{print $(NF-2)}' <<< "$cmd")
    echo "   lint clean: $top_file"
done <<< "$lint_cmds"

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
