#!/usr/bin/env bash
# The test command (README "Set-up"; CI runs exactly this): installs Verilator and yosys if
# missing, then runs every test of the workspace, including the three-way lock-step tests
# and the lint and synthesis gates. Extra arguments go to `cargo test`.
# Heavier campaigns: ROCE_CC_LONG=1 (10^8-cycle RP campaign), ROCE_CC_CASES=N (proptest cases).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
cargo test --workspace "$@"
