#!/usr/bin/env python3
"""How many LUT levels lie in front of each register of a yosys `synth_ecp5` netlist.

Reads the JSON netlist (`board.json`, `shell.json`) and walks every flip-flop's, block
RAM's and DSP's inputs back to the registers, RAMs, DSPs and pins they start at, counting
logic levels: a LUT4 is 1, an in-slice wide-LUT mux (PFUMX, L6MUX21) 0.3, a carry cell
(CCU2C) 1 from its A/B inputs and 0.05 (to the next carry) or 0.3 (to its sum) from its
carry in, a distributed RAM's read (TRELLIS_DPR16X4, address to data) 1. On the ECP5 a
level costs a LUT (0.24 ns) and a route (0.6 to 1.9 ns on a full device), so at 100 MHz
six or seven levels are where paths start to miss: this finds them before place and
route, without nextpnr's one-path-per-clock report.

Prints, deepest first, one line per register group (the register's name up to its bit
index) with the depth of its deepest input, the port, and where that path starts;
`--path` adds the cells on it. Then the number of groups at each depth.

    python3 scripts/lut_depth.py synth-out/board/board.json --min 6 --path
"""
import argparse
import collections
import json
import re
import sys

SEQUENTIAL = {'TRELLIS_FF', 'DP16KD', 'MULT18X18D', 'ALU54B', 'TRELLIS_IO', 'EHXPLLL',
              'TRELLIS_RAMW'}
ENDPOINT_TYPES = {'TRELLIS_FF', 'DP16KD', 'MULT18X18D', 'ALU54B'}


def level_cost(cell_type, in_port, out_port):
    if cell_type == 'LUT4':
        return 1.0
    if cell_type in ('PFUMX', 'L6MUX21'):
        return 0.3
    if cell_type == 'CCU2C':
        if in_port == 'CIN':
            return 0.05 if out_port == 'COUT' else 0.3
        return 1.0
    return 1.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('netlist', help='yosys JSON netlist (write_json / synth_ecp5 -json)')
    ap.add_argument('--min', type=float, default=6.0,
                    help='list register groups at least this deep (default 6)')
    ap.add_argument('--path', action='store_true', help='print the cells on each path')
    args = ap.parse_args()

    design = json.load(open(args.netlist))
    tops = [m for m, v in design['modules'].items() if v.get('attributes', {}).get('top')]
    if len(tops) != 1:
        sys.exit(f'{args.netlist}: expected one top module, found {tops}')
    cells = design['modules'][tops[0]]['cells']

    driver = {}
    for name, c in cells.items():
        for port, bits in c['connections'].items():
            if c['port_directions'].get(port) == 'output':
                for b in bits:
                    if isinstance(b, int):
                        driver[b] = (name, port)

    # Depth of a net bit and the cell it came through (iterative DFS, memoised).
    memo = {}

    def depth(bit):
        stack = [bit]
        while stack:
            b = stack[-1]
            if b in memo:
                stack.pop()
                continue
            if not isinstance(b, int) or b not in driver:
                memo[b] = (0.0, None)
                stack.pop()
                continue
            name, out_port = driver[b]
            c = cells[name]
            if c['type'] in SEQUENTIAL:
                memo[b] = (0.0, (name, None))
                stack.pop()
                continue
            ports = ['RAD'] if c['type'] == 'TRELLIS_DPR16X4' else [
                p for p, d in c['port_directions'].items() if d == 'input']
            pending = [ib for p in ports for ib in c['connections'].get(p, [])
                       if isinstance(ib, int) and ib not in memo]
            if pending:
                memo_guard = [ib for ib in pending if ib in stack]
                if memo_guard:  # a combinational loop: cut it
                    for ib in memo_guard:
                        memo[ib] = (0.0, None)
                stack.extend(ib for ib in pending if ib not in memo)
                continue
            best = (0.0, (name, None))
            for p in ports:
                w = 1.0 if c['type'] == 'TRELLIS_DPR16X4' else level_cost(c['type'], p, out_port)
                for ib in c['connections'].get(p, []):
                    d, _ = memo.get(ib, (0.0, None))
                    if d + w > best[0]:
                        best = (d + w, (name, ib))
            memo[b] = best
            stack.pop()
        return memo[bit]

    def path_of(bit):
        out = []
        while True:
            d, via = memo.get(bit, (0.0, None))
            if via is None:
                return out
            name, nxt = via
            out.append(name)
            if nxt is None:
                return out
            bit = nxt

    groups = collections.OrderedDict()
    results = []
    for name, c in cells.items():
        if c['type'] not in ENDPOINT_TYPES:
            continue
        for port, direction in c['port_directions'].items():
            if direction != 'input' or port.startswith('CLK') or port == 'CLK':
                continue
            for b in c['connections'][port]:
                d, _ = depth(b)
                results.append((d, name, port, b))
    results.sort(key=lambda r: -r[0])
    for d, name, port, b in results:
        group = re.split(r'(_TRELLIS_FF|\.q_TRELLIS|\$q_TRELLIS)', name)[0]
        if group not in groups:
            groups[group] = (d, port, b)

    hist = collections.Counter()
    for group, (d, port, b) in groups.items():
        hist[int(d)] += 1
        if d >= args.min:
            p = path_of(b)
            print(f'{d:5.2f}  {group}  <{port}>  from {p[-1] if p else "(pin or constant)"}')
            if args.path:
                for cell in p:
                    print(f'         {cell}')
    print(f'\nregister groups by the depth of their deepest input ({len(groups)} groups):')
    for lv in sorted(hist, reverse=True):
        print(f'  {lv} to {lv + 1} levels: {hist[lv]}')


if __name__ == '__main__':
    main()
