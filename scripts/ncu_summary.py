#!/usr/bin/env python3
"""Summarizes Nsight Compute CSV exports (ncu --csv --page raw --print-units base) of strata and CUB kernels.

  scripts/ncu_summary.py CASE.csv [CASE.csv ...]

One table per file (one benchmark case): a row per library and kernel, with the launches, the time per sort (the
kernel's total time over the number of sorts: the launches of the sort's first kernel), the registers, the
theoretical and achieved occupancy, DRAM utilization and the megabytes read and written per launch, issue
utilization, and the top warp stall reasons (cycles per issued
instruction). Columns that a file lacks print as '-'.
"""
import csv
import re
import statistics
import sys

STALLS = ["barrier", "long_scoreboard", "short_scoreboard", "mio_throttle", "lg_throttle", "wait", "math_pipe_throttle",
          "no_instruction", "membar", "drain", "dispatch_stall", "not_selected", "selected", "branch_resolving",
          "tex_throttle", "imc_miss", "sleeping"]
STALL_RE = re.compile(r"^smsp__average_warps?_issue_stalled_(\w+?)_per_issue_active\.ratio$")


def library_of(name):
    return "strata" if "strata::" in name else ("cub" if "cub::" in name else "other")


def short_kernel(name):
    m = re.search(r"(Device\w+Kernel|\w+_kernel)", name)
    return m.group(1) if m else name[:40]


def number(text):
    try:
        return float(str(text).replace(",", ""))
    except ValueError:
        return None


def read(path):
    with open(path, newline="") as f:
        lines = [line for line in f if line.startswith('"')]  # ncu's own messages are not quoted
    rows = list(csv.reader(lines))
    if len(rows) < 3:
        return []
    header, units, data = rows[0], rows[1], rows[2:]
    out = []
    for row in data:
        rec = dict(zip(header, row))
        rec["_units"] = dict(zip(header, units))
        out.append(rec)
    return out


def seconds(rec, column):
    value = number(rec.get(column, ""))
    if value is None:
        return None
    scale = {"nsecond": 1e-9, "ns": 1e-9, "usecond": 1e-6, "us": 1e-6, "msecond": 1e-3, "ms": 1e-3, "second": 1.0}
    return value * scale.get(rec["_units"].get(column, "nsecond"), 1e-9)


def summarize(path):
    recs = [r for r in read(path) if library_of(r.get("Kernel Name", "")) != "other"]
    print(f"== {path}")
    if not recs:
        print("  no strata or cub kernels")
        return
    groups = {}
    for r in recs:
        key = (library_of(r["Kernel Name"]), short_kernel(r["Kernel Name"]), r.get("Block Size", ""))
        groups.setdefault(key, []).append(r)
    firsts = {}
    for r in recs:
        firsts.setdefault(library_of(r["Kernel Name"]), short_kernel(r["Kernel Name"]))
    sorts = {lib: sum(1 for r in recs if library_of(r["Kernel Name"]) == lib and short_kernel(r["Kernel Name"]) == k)
             for lib, k in firsts.items()}
    print(f"  {'lib':6} {'kernel':34} {'block':>13} {'n':>4} {'us/sort':>9} {'regs':>4} {'occ%':>11} "
          f"{'dram%':>5} {'MB r/w':>11} {'issue%':>6}  top stalls (per issue)")
    totals = {}
    for (lib, kernel, block), rs in sorted(groups.items()):
        times = [seconds(r, "gpu__time_duration.sum") for r in rs]
        times = [t for t in times if t is not None]
        per_sort = sum(times) / max(1, sorts.get(lib, 1)) * 1e6 if times else None
        totals[lib] = totals.get(lib, 0.0) + (per_sort or 0.0)

        def med(column):
            values = [number(r.get(column, "")) for r in rs]
            values = [v for v in values if v is not None]
            return statistics.median(values) if values else None

        def fmt(v, spec):
            return format(v, spec) if v is not None else "-"

        stalls = []
        for column in rs[0]:
            m = STALL_RE.match(column)
            if m and not m.group(1).endswith("_pred_on"):
                v = med(column)
                if v:
                    stalls.append((v, m.group(1)))
        stalls.sort(reverse=True)
        theoretical = fmt(med("sm__maximum_warps_per_active_cycle_pct"), ".0f")
        achieved = fmt(med("sm__warps_active.avg.pct_of_peak_sustained_active"), ".0f")
        occ = f"{theoretical}/{achieved}"
        megabytes = [med(c) for c in ("dram__bytes_read.sum", "dram__bytes_write.sum")]
        traffic = "/".join(fmt(v / 1e6 if v is not None else None, ".0f") for v in megabytes)
        print(f"  {lib:6} {kernel[:34]:34} {block[:13]:>13} {len(rs):4d} {fmt(per_sort, '9.1f')} "
              f"{fmt(med('launch__registers_per_thread'), '4.0f')} {occ:>11} "
              f"{fmt(med('dram__throughput.avg.pct_of_peak_sustained_elapsed'), '5.1f')} "
              f"{traffic:>11} "
              f"{fmt(med('smsp__issue_active.avg.pct_of_peak_sustained_active'), '6.1f')}  "
              + ", ".join(f"{name} {v:.2f}" for v, name in stalls[:4]))
    print("  per sort: " + ", ".join(f"{lib} {t:.1f} us" for lib, t in sorted(totals.items())))


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    for path in argv:
        summarize(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
