#!/usr/bin/env python3
"""Which registers miss timing: every endpoint's slack from a routed design's nextpnr
report, grouped by the register or memory it belongs to.

nextpnr prints the one worst path and a slack histogram. To fix a design for a clock in one
round rather than one path per place-and-route run, this reads the arrival time nextpnr
computed at every timing endpoint (flip-flop, block RAM and DSP inputs: the report's
`detailed_net_timings`, written with `--report` and `--detailed-timing-report`, both of which
`roce-cc synth` passes) and prints, for each register group with an endpoint that misses the
period, its worst slack, how many of its endpoints miss, and the cell that drives its worst
input (the last logic level of that path). The endpoint delays do not include the setup time, so
the setup times nextpnr's ECP5 model charges are subtracted by port (`SETUP_NS`, read from
the `setup` steps of the reports' critical paths: 0 at a flip-flop's data, `M` and `CE`
inputs, 0.424 ns at its synchronous set/reset `LSR`, about 0.2 ns at block RAM inputs,
3.49 ns at a `MULT18X18D`'s `A` and `B` inputs (the multiply before its output register);
without the `LSR` figure a path that missed by 0.3 ns through a reset yosys built from a
data condition was not listed). Clock skew is not: nextpnr's own Fmax stays the figure
to quote.

    python3 scripts/slack_groups.py DIR/nextpnr_report.json [--period-ns 10] [--top 40]
"""

import argparse
import collections
import json
import re
import sys


# Setup time by endpoint port, ns (nextpnr 0.11 ECP5 -6, as its critical paths report it);
# ports not matched: 0 (a flip-flop's DI, M and CE). The only timing endpoints with ports
# named `A<n>`/`B<n>` are the DSPs' operand inputs (a CCU2C's are not endpoints).
SETUP_NS = [
    (re.compile(r"LSR$"), 0.424),
    (re.compile(r"^[AB]\d+$"), 3.49),
    (re.compile(r"^AD[AB]\d+$"), 0.205),
    (re.compile(r"^DI[AB]\d+$"), 0.218),
]


def setup_ns(port: str) -> float:
    for pat, ns in SETUP_NS:
        if pat.search(port):
            return ns
    return 0.0


def group_of(cell: str) -> str:
    """A register's or memory's name from one of its packed cells' names: the cell name up
    to the technology-mapping suffix, without array indices (`hz_match$67` -> `hz_match`)
    or block RAM tile numbers."""
    for cut in (".q_", "$q_", "_TRELLIS", "$CCU2", "_LUT4", "_PFUMX", "_L6MUX", "_MULT18",
                "_DP16KD", "$RAMW", "_ALU54"):
        i = cell.find(cut)
        if i > 0:
            cell = cell[:i]
    cell = re.sub(r"\.mem\.\d+\.\d+$", ".mem", cell)
    return re.sub(r"\$\d+", "[]", cell)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report", help="nextpnr_report.json of a routed design")
    ap.add_argument("--period-ns", type=float, default=10.0, help="clock period (10 = 100 MHz)")
    ap.add_argument("--top", type=int, default=40, help="groups to print")
    a = ap.parse_args()
    try:
        with open(a.report) as f:
            nets = json.load(f)["detailed_net_timings"]
    except (OSError, ValueError, KeyError) as e:
        print(f"slack_groups: no per-endpoint timing in {a.report} ({e}); run nextpnr with "
              "--report and --detailed-timing-report", file=sys.stderr)
        return 2

    groups = collections.defaultdict(lambda: [0, 0, None])  # misses, endpoints, worst
    for n in nets:
        for e in n["endpoints"]:
            slack = a.period_ns - max(e["delay"]) - setup_ns(e["port"])
            g = groups[group_of(e["cell"])]
            g[1] += 1
            if slack < 0:
                g[0] += 1
            if g[2] is None or slack < g[2][0]:
                g[2] = (slack, e["port"], n["driver"])

    rows = sorted((v[2][0], k, v) for k, v in groups.items() if v[0] > 0)
    miss = sum(v[0] for _, _, v in rows)
    print(f"{len(rows)} register groups, {miss} endpoints miss {a.period_ns:g} ns "
          f"({1000 / a.period_ns:.0f} MHz); worst first:")
    print(f"{'slack ns':>9} {'miss/all':>11}  {'group':<52} worst input's driver")
    for slack, name, (m, alln, (_, port, drv)) in rows[: a.top]:
        print(f"{slack:9.2f} {m:5d}/{alln:<5d}  {name[:52]:<52} {port} <- {drv[:70]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
