#!/usr/bin/env bash
# Installs what roce-cc needs when it is missing; sourced by demo.sh and test.sh.
#   - Verilator (>= 5.006) and yosys, from the distribution (Debian/Ubuntu: apt-get);
#   - a Rust toolchain is expected (https://rustup.rs); edition 2024 needs rustc >= 1.85.
set -euo pipefail

need_pkgs=()
command -v verilator >/dev/null 2>&1 || need_pkgs+=(verilator)
command -v yosys >/dev/null 2>&1 || need_pkgs+=(yosys)
if [ ${#need_pkgs[@]} -gt 0 ]; then
    echo "roce-cc: installing ${need_pkgs[*]} (apt-get)" >&2
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "roce-cc: no apt-get here: install ${need_pkgs[*]} with your package manager" >&2
        exit 1
    fi
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_pkgs[@]}" >/dev/null
fi
if ! command -v cargo >/dev/null 2>&1; then
    echo "roce-cc: cargo not found: install Rust from https://rustup.rs and re-run" >&2
    exit 1
fi
