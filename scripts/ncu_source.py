#!/usr/bin/env python3
"""Summarizes Nsight Compute source-level exports of kernels: where their warps wait, instruction by instruction.

  scripts/ncu_source.py [--top N] FILE.csv [FILE.csv ...]

Each FILE is what `ncu --csv --page source --print-source sass --section SourceCounters --section WarpStateStats`
prints (gpu_check.sh's profile step writes one per STRATA_PROFILE_SOURCE entry); it may hold several kernels. For
each kernel: the instructions executed and the warp-state samples by stall reason; every barrier (BAR.SYNC) that ran,
with the samples of warps waiting on it (a barrier's wait is sampled on the instruction after it, so the barrier
samples of each instruction go to the nearest barrier before it), those on the main path (run at least half as often as
the most frequent one: once per tile, say) listed one by one; the opcodes that ran most; shared-memory wavefronts
against the ideal (bank conflicts); and the N instructions with the most samples. With more than one kernel, a last
table sets their totals side by side (strata's and CUB's kernels of one case, say), each count also as a fraction of
the first kernel's (stall reasons: of its samples).
"""
import argparse
import collections
import csv
import io
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ncu_summary import library_of, number as parsed_number, short_kernel  # noqa: E402

REASON_PREFIX = "stall_"
OPCODE_RE = re.compile(r"^\s*(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*)")


def number(text):
    value = parsed_number(text)
    return value if value is not None else 0.0


def opcode(sass):
    m = OPCODE_RE.match(sass)
    return m.group(1) if m else "?"


def read(text):
    """The kernels of one export: a list of (kernel name, rows), each row a dict of the columns."""
    kernels = []
    name = None
    lines = []

    def flush():
        if name is not None and lines:
            kernels.append((name, list(csv.DictReader(io.StringIO("".join(lines))))))

    for line in text.splitlines(keepends=True):
        if line.startswith('"Kernel Name"'):
            flush()
            name = next(csv.reader([line]))[1]
            lines = []
        elif line.startswith('"') and name is not None:
            lines.append(line)
    flush()
    return kernels


class Kernel:
    def __init__(self, name, rows):
        self.name = name
        self.rows = []
        for index, row in enumerate(rows):
            reasons = {}
            for column, value in row.items():
                if column and column.startswith(REASON_PREFIX) and "Not Issued" not in column:
                    v = number(value)
                    if v:
                        reasons[column[len(REASON_PREFIX):]] = v
            sass = (row.get("Source") or "").strip()
            self.rows.append({
                "index": index,
                "sass": sass,
                "opcode": opcode(sass),
                "executed": number(row.get("Instructions Executed", 0)),
                "samples": number(row.get("Warp Stall Sampling (All Samples)", 0)),
                "reasons": reasons,
                "wavefronts": number(row.get("L1 Wavefronts Shared", 0)),
                "wavefronts_ideal": number(row.get("L1 Wavefronts Shared Ideal", 0)),
            })

    def short_name(self):
        return f"{library_of(self.name)} {short_kernel(self.name)}"

    def executed(self):
        return sum(r["executed"] for r in self.rows)

    def samples(self):
        return sum(r["samples"] for r in self.rows)

    def reasons(self):
        total = collections.Counter()
        for r in self.rows:
            total.update(r["reasons"])
        return total

    def barriers(self):
        """(barrier row, barrier samples after it) for each barrier that ran, in program order."""
        out = []
        current = None
        for r in self.rows:
            if r["opcode"].startswith("BAR.SYNC") or r["opcode"] == "BAR":
                current = [r, 0.0]
                if r["executed"] > 0:
                    out.append(current)
            wait = r["reasons"].get("barrier", 0.0)
            if wait and current is not None:
                current[1] += wait
        return out

    def main_barriers(self):
        """The barriers on the kernel's main path: those that ran at least half as often as the most frequent one."""
        barriers = self.barriers()
        most = max((bar["executed"] for bar, _ in barriers), default=0.0)
        return [(bar, wait) for bar, wait in barriers if bar["executed"] >= most / 2]

    def opcodes(self):
        total = collections.Counter()
        for r in self.rows:
            total[r["opcode"]] += r["executed"]
        return total

    def wavefronts(self):
        return sum(r["wavefronts"] for r in self.rows), sum(r["wavefronts_ideal"] for r in self.rows)


def report(kernel, top, out):
    executed, samples = kernel.executed(), kernel.samples()
    print(f"== {kernel.short_name()}", file=out)
    print(f"  instructions executed {executed:,.0f}; samples {samples:,.0f}", file=out)
    reasons = kernel.reasons()
    print("  samples by reason: " + ", ".join(f"{k} {v:,.0f} ({100 * v / max(samples, 1):.0f}%)"
                                                for k, v in reasons.most_common(8)), file=out)
    barriers = kernel.barriers()
    main_path = kernel.main_barriers()
    print(f"  barriers on the main path (run at least half as often as the most frequent): {len(main_path)}", file=out)
    for bar, wait in main_path:
        print(f"    #{bar['index']:<6} executed {bar['executed']:>12,.0f}  waits sampled {wait:>8,.0f} "
              f"({100 * wait / max(samples, 1):4.1f}%)", file=out)
    rare = [(bar, wait) for bar, wait in barriers if all(bar is not m for m, _ in main_path)]
    if rare:
        print(f"    {len(rare)} more ran less often: {sum(b['executed'] for b, _ in rare):,.0f} times, "
              f"waits sampled {sum(w for _, w in rare):,.0f}", file=out)
    ops = kernel.opcodes()
    print("  opcodes executed: " + ", ".join(f"{k} {v:,.0f}" for k, v in ops.most_common(12)), file=out)
    wf, ideal = kernel.wavefronts()
    if wf:
        print(f"  shared wavefronts {wf:,.0f} (ideal {ideal:,.0f}: {wf / max(ideal, 1):.2f}x)", file=out)
    print(f"  the {top} instructions with the most samples:", file=out)
    hot = sorted(kernel.rows, key=lambda r: r["samples"], reverse=True)[:top]
    for r in hot:
        reasons_text = ", ".join(f"{k} {v:.0f}" for k, v in sorted(r["reasons"].items(), key=lambda kv: -kv[1])[:3])
        print(f"    #{r['index']:<6} {r['samples']:>7,.0f}  x{r['executed']:>11,.0f}  {r['sass'][:60]:60}  "
              f"{reasons_text}", file=out)


def compare(kernels, out):
    base = kernels[0]
    reasons = collections.Counter()
    for k in kernels:
        reasons.update(k.reasons())
    names = [k.short_name() for k in kernels]
    width = max(14, *(len(n) for n in names))
    print("== side by side (each kernel / the first)", file=out)
    print("  " + f"{'':24}" + "".join(f"{n:>{width + 2}}" for n in names), file=out)

    def row(label, values, scale):
        cells = "".join(f"{v:>{width - 6},.0f} {v / scale if scale else 0:5.2f}x" for v in values)
        print(f"  {label:24}{cells}", file=out)

    row("instructions executed", [k.executed() for k in kernels], base.executed())
    row("samples", [k.samples() for k in kernels], base.samples())
    for reason, _ in reasons.most_common(6):
        row(f"  {reason}", [k.reasons().get(reason, 0.0) for k in kernels], base.samples())
    row("main-path barriers", [len(k.main_barriers()) for k in kernels], len(base.main_barriers()))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--top", type=int, default=12, help="instructions listed per kernel (default 12)")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    kernels = []
    for path in args.files:
        with open(path, newline="") as f:
            found = read(f.read())
        if not found:
            print(f"== {path}: no kernel", file=sys.stdout)
        kernels += [Kernel(name, rows) for name, rows in found]
    for k in kernels:
        report(k, args.top, sys.stdout)
    if len(kernels) > 1:
        compare(kernels, sys.stdout)
    return 0 if kernels else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
