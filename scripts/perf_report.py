#!/usr/bin/env python3
"""docs/performance.md and docs/img/<algorithm>.png from the benchmark JSON that scripts/gpu_check.sh writes.

  python3 scripts/perf_report.py docs/data/*.json           # writes docs/performance.md and docs/img/*.png
  python3 scripts/perf_report.py --no-plots docs/data/*.json   # docs/performance.md alone (no matplotlib needed)
  python3 scripts/perf_report.py --out DIR FILE...          # the same under DIR (gpu_check.sh: OUT/report.tar.gz)
  python3 scripts/perf_report.py --check docs/data/*.json   # exit 1 if docs/performance.md is not what the data gives
  python3 scripts/perf_report.py --slug FILE                # the name of FILE's run under docs/data ("nvidia-h200")
  python3 scripts/perf_report.py --update OLD NEW --merged OUT   # OLD's results with NEW's in place of the same cases
  python3 scripts/perf_report.py --self-test                # the table logic on made-up runs

Each FILE is the merged JSON of one gpu_check.sh run on one GPU; runs are ordered by GPU, and a later file of the
same GPU replaces an earlier one. Only the compare.* executables' benchmarks are read. They are named
"<algorithm>/<case>/<library>" (e.g. "reduce_sum/i32/2^28/strata"): each algorithm gets a row in the summary that
opens the page (per GPU: CUB's time / strata's at 2^28, strata's time per call at 2^10), and a section with one plot
(a panel per value type, each with its own y-axis; a row of panels per GPU) and one table (a row per case less its
size, a column per GPU and size, each cell strata's ratios to the other libraries), so a new compare benchmark that
follows the naming needs no change here. A case's value type ("i32", "f64") and input size ("2^28") are the parts of
its name that look like one. With repetitions, every number is a median. No table keeps a column without a value,
and the page may have at most LINE_LIMIT lines (the script refuses to write a longer one).

The tables need only the standard library; the plots need matplotlib (--no-plots leaves them out and keeps the page's
references to the images already in img/).
"""
import argparse
import contextlib
import difflib
import io
import json
import os
import random
import re
import shlex
import statistics
import sys
import tempfile
from collections import OrderedDict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Titles and one-line descriptions of the sections this project has; any other algorithm gets its name as title.
ALGORITHMS = OrderedDict([
    ("reduce_sum", ("DeviceReduce::Sum", "GB/s counts the bytes read.")),
    ("reduce_sum_gpu_to_gpu", ("DeviceReduce::Sum, gpu_to_gpu", "strata's gpu_to_gpu form (the same bits on every GPU "
                                                                 "and policy); `default`: strata's default form. GB/s "
                                                                 "counts the bytes read.")),
    ("reduce_argmin", ("DeviceReduce::ArgMin", "GB/s counts the bytes read.")),
    ("reduce_argminmax", ("DeviceReduce::ArgMinMax",
                          "Both extremes and their positions in one pass; `cub`: cub::DeviceReduce::ArgMin then "
                          "ArgMax, the two passes CUB needs. GB/s counts the bytes read once.")),
    ("segmented_reduce", ("DeviceSegmentedReduce::Sum",
                          "Segments from one offsets array (begin = offsets, end = offsets + 1). uniform_<m>: lengths "
                          "uniform in [1, 2m-1]; power_law_64: lengths k in [1, 2^20] with probability ~k^-1.79, 64 "
                          "on average; giant_tiny: one segment of half the items amid segments of 1 to 8. GB/s counts "
                          "the items and offsets read and the sums written. `read`: a kernel that only reads the "
                          "items.")),
    ("segmented_scan", ("DeviceSegmentedScan::InclusiveSegmentedSum",
                        "The segments of segmented_reduce. `cub`: cub::DeviceScan::InclusiveSumByKey over a key per "
                        "item (CCCL 3.0 has no DeviceSegmentedScan). GB/s counts each run's reads and writes.")),
    ("segmented_sort", ("DeviceSegmentedSort::SortKeys and SortPairs",
                        "The segments of segmented_reduce; u32 keys, u32/u32 pairs. `cub`: cub::DeviceSegmentedSort "
                        "on the same buffers. GB/s counts the keys (and values) read and written once.")),
    ("scan_inclusive_sum", ("DeviceScan::InclusiveSum", "GB/s counts the bytes read and written.")),
    ("scan_inclusive_sum_gpu_to_gpu", ("DeviceScan::InclusiveSum and InclusiveSumByKey, gpu_to_gpu",
                                       "strata's gpu_to_gpu form (the same bits on every GPU and policy); `default`: "
                                       "strata's default form; f32_by_key: InclusiveSumByKey of floats under the "
                                       "keys of scan_inclusive_sum_by_key. GB/s counts the bytes read and written.")),
    ("scan_inclusive_sum_by_key", ("DeviceScan::InclusiveSumByKey",
                                   "int32 keys in runs of 8 on average; GB/s counts keys and values read and values "
                                   "written.")),
    ("select", ("DeviceSelect and DevicePartition",
                "if_<p>pct: Select::If with p percent selected (`read`: a kernel that only reads the input); "
                "unique: Select::Unique of runs of 4 on average; unique_by_key, run_length_encode (Encode), "
                "reduce_by_key (ReduceByKey, sums; _f32: float values): the same keys; partition_if_50pct: "
                "Partition::If; partition_three_way: Partition::If with two operators, a third of the items in each "
                "part. GB/s counts the bytes read and written.")),
    ("frontend_latency", ("The frontend, end to end",
                          "strata::reduce, inclusive_scan, transform, sort and copy_if on int32 items. Host "
                          "wall-clock time of one call until the host holds the result (reduce; copy_if: the end "
                          "iterator) or the output is ready (the others, with a cudaStreamSynchronize), warm pool "
                          "and caches. sort: strata::sort and thrust::sort in place; raw and cub: "
                          "DeviceRadixSort::SortKeys from the input to the output. copy_if: x > 0, about half the "
                          "items; raw and cub: DeviceSelect::If, the count copied to pinned memory, synchronized. "
                          "`thrust`: the same call with `thrust::cuda::par.on(s)`; `raw`: strata's two-phase device "
                          "call on a buffer allocated once (reduce: plus the copy of the sum to pinned memory and the "
                          "synchronization); `cub`: the same with CUB. At 2^10 every library is near the launch and "
                          "synchronization floor (an empty kernel + cudaStreamSynchronize: 9.7-10.8 us on the H100).")),
    ("frontend_throughput", ("The frontend at large sizes",
                             "CUDA-event time of one call over inputs larger than the L2. Reduce reads 4n bytes and "
                             "returns the sum to the host; scan and transform read 4n and write 4n bytes without "
                             "synchronizing (Thrust with `par_nosync`). `copy`: a device-to-device cudaMemcpyAsync of "
                             "the same bytes.")),
    ("adjacent_difference", ("DeviceAdjacentDifference",
                             "left_copy: SubtractLeftCopy; left_in_place: SubtractLeft (the tiles' edge items copied "
                             "first); a - b wrapping. GB/s counts the bytes read and written. `copy`: "
                             "cudaMemcpyAsync of the same bytes.")),
    ("find_if", ("DeviceFind::FindIf",
                 "int32 items, the first equal to a marker at n/100 (match_1pct) or nowhere (absent). `thrust`: "
                 "thrust::find_if (the toolkit's CUB has no DeviceFind), which returns once the host holds the index; "
                 "strata's time includes the copy of the index to pinned memory. `read`: a kernel that only reads the "
                 "input. GB/s counts the whole input.")),
    ("lower_bound", ("DeviceFind::LowerBound",
                     "2^k int32 values (in order, or shuffled) searched in 2^k sorted keys. `thrust`: the vectorized "
                     "thrust::lower_bound. GB/s counts the values read and the positions written.")),
    ("histogram", ("DeviceHistogram::HistogramEven",
                   "even_256/u8: random 8-bit samples into 256 bins over [0, 256); even_1024/f32: floats in "
                   "[-0.5, 0.5) (multiples of 2^-24) into 1024 bins. GB/s counts the samples read. `read`: a kernel "
                   "that only reads the input.")),
    ("topk", ("DeviceTopK::MaxKeys",
              "Random floats (multiples of 2^-24 in [-0.5, 0.5)), k = 10 and 10^4, unsorted and sorted results. "
              "`cub_sort`: cub::DeviceRadixSort::SortKeysDescending of the whole input (the toolkit's CUB has no "
              "DeviceTopK). `read`: a kernel that only reads the input. GB/s counts the input read once.")),
    ("batch_memcpy", ("DeviceMemcpy::Batched",
                      "2^k buffers of uniformly random sizes in a class (8-4096 or 64K-1M bytes), back to back in a "
                      "source arena and at the same offsets in a destination arena. GB/s counts the bytes read and "
                      "written. `copy`: one cudaMemcpyAsync of the same total bytes.")),
    ("merge", ("DeviceMerge::MergeKeys and MergePairs",
               "Two sorted halves of random u32 keys (pairs: with u32 values) merged. GB/s counts the keys (and "
               "values) read and written once.")),
    ("transform", ("DeviceTransform::Transform",
                   "out[i] = 2 x in[i] (unary) or a[i] + b[i] (binary); GB/s counts the bytes read and written. "
                   "`copy`: cudaMemcpyAsync of the same bytes.")),
    ("block_reduce", ("BlockLoad, BlockReduce, BlockStore",
                      "A kernel that loads a tile, reduces it, adds the sum to every item and stores it, built once "
                      "with strata's classes and once with CUB's (same block size x items per thread, load/store and "
                      "reduce algorithms), over 2^26 items. `equal_occupancy`: both kernels held to the lower of their "
                      "two occupancies. `direct(vector)`: strata's DIRECT moves 16-byte vectors and CUB's does not; "
                      "`vs cub_vectorize` compares it with CUB's VECTORIZE, which does.")),
    ("block_scan", ("BlockLoad, BlockScan, BlockStore",
                    "The same with an inclusive block scan. `l2_reuse_after`: the time to re-read an L2-resident "
                    "buffer after the kernel (near 1: strata's kernel leaves the L2 as CUB's does).")),
    ("radix_sort_keys", ("DeviceRadixSort::SortKeys",
                         "In/out form, all key bits. `random`: random keys; `and3`: each key the AND of 3 random words "
                         "(0.544 bits of entropy per bit); floating-point keys finite. Gkeys/s: keys sorted per "
                         "second; `temp vs cub`: strata's temporary bytes / CUB's for the same call.")),
    ("radix_sort_pairs", ("DeviceRadixSort::SortPairs",
                          "In/out form, all key bits, keys and values of the types named (u32_u32: u32 keys, u32 "
                          "values); keys as for SortKeys.")),
    ("radix_sort_skip", ("DeviceRadixSort::SortKeys, skipped digit passes",
                         "u64 keys below 2^20 sorted on all 64 bits: 5 of the 8 digit passes see the same digit in "
                         "every key and can be skipped.")),
    ("radix_sort_latency", ("DeviceRadixSort, small inputs",
                            "Random keys (u32_u32: u32 keys with u32 values), in/out form, all key bits. Host "
                            "wall-clock time of one call and a cudaStreamSynchronize on a non-blocking stream, the same "
                            "input each time. Up to 8192 keys (12288 for 8-byte items) strata sorts in one block of "
                            "the smallest single-block tile that holds the input, and needs no temporary storage "
                            "(`temp vs cub` near 0: one byte against CUB's histogram and look-back state).")),
    ("merge_sort_keys", ("DeviceMergeSort::SortKeysCopy",
                         "Random keys, ascending by cuda::std::less<>, inputs rotated through more memory than the L2 "
                         "holds; Gkeys/s: keys sorted per second.")),
    ("merge_sort_pairs", ("DeviceMergeSort::SortPairsCopy", "As SortKeysCopy, each key with a value of the type named.")),
])
# Sections whose rate is items per second (Gkeys/s) rather than bytes per second.
ITEM_RATE_PREFIXES = ("radix_sort", "merge_sort")
TYPES = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "bf16", "f32", "f64"]
SIZE = re.compile(r"2\^(\d+)$")
TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
MARKERS = ["†", "‡", "§", "¶"]
NONE = "—"  # a cell without a value
# The most lines docs/performance.md may have: a page read in a few minutes, the plots carrying the detail; about a
# dozen lines a device family, with room for every family of CUB.
LINE_LIMIT = 420


class Result:
    """One library's median on one case of one run: seconds and GB/s (None where the benchmark set no byte count),
    or the error the benchmark reported."""

    def __init__(self, seconds=None, gbps=None, error=None, label="", repetitions=1, gips=None, temp_ratio=None):
        self.seconds, self.gbps, self.error, self.label = seconds, gbps, error, label
        self.repetitions = repetitions
        # G items/s, and strata's temporary bytes / CUB's (counters temp_bytes_strata, temp_bytes_cub) where set.
        self.gips, self.temp_ratio = gips, temp_ratio


class Run:
    """One GPU's results: {(algorithm, case, library): Result}, the executables the algorithms came from, and the
    JSON context."""

    def __init__(self, path, context, results, executables):
        self.path, self.context, self.results, self.executables = path, context, results, executables
        self.name = context.get("gpu_name") or os.path.splitext(os.path.basename(path))[0]
        self.slug = re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-")

    def repetitions(self):
        """(fewest, most) repetitions behind a result of this run."""
        reps = [r.repetitions for r in self.results.values()] or [1]
        return min(reps), max(reps)


def numbers_label(fewest, most):
    """How a run's numbers were taken ("median of 3 repetitions"), naming the cases measured fewer times."""
    if most <= 1:
        return "one repetition"
    if fewest == most:
        return f"median of {most} repetitions"
    some = "one" if fewest <= 1 else f"median of {fewest}"
    return f"median of {most} repetitions ({some} for some cases)"


def split_name(name):
    """("reduce_sum", "i32/2^28", "strata") from "reduce_sum/i32/2^28/strata/manual_time"; None if too short."""
    for suffix in ("/manual_time", "/real_time"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    parts = name.split("/")
    if len(parts) < 3:
        return None
    return parts[0], "/".join(parts[1:-1]), parts[-1]


def seconds_of(b):
    return b["real_time"] * TIME_UNITS[b.get("time_unit", "ns")]


def summarize(group):
    """The Result of one library on one case from its Google Benchmark entries: the median aggregate where there
    is one, else the median of the repetitions. An error in any repetition makes the result that error."""
    if group["errors"]:
        return Result(error=group["errors"][0], label=group["label"])
    median = group["median"]
    entries = group["iterations"] + ([median] if median else [])
    if not entries:
        return None
    seconds = seconds_of(median) if median else statistics.median(seconds_of(b) for b in entries)
    # Bytes per iteration are the same in every repetition; the median's throughput follows from the median's time.
    with_bytes = [b for b in entries if b.get("bytes_per_second")]
    gbps = with_bytes[0]["bytes_per_second"] * seconds_of(with_bytes[0]) / seconds / 1e9 if with_bytes else None
    with_items = [b for b in entries if b.get("items_per_second")]
    gips = with_items[0]["items_per_second"] * seconds_of(with_items[0]) / seconds / 1e9 if with_items else None
    with_temp = [b for b in entries if b.get("temp_bytes_strata") and b.get("temp_bytes_cub")]
    temp_ratio = with_temp[0]["temp_bytes_strata"] / with_temp[0]["temp_bytes_cub"] if with_temp else None
    return Result(seconds, gbps, None, group["label"], max(b.get("repetitions", 1) for b in entries), gips, temp_ratio)


def load_run(path):
    with open(path) as f:
        data = json.load(f)
    groups = {}
    executables = {}
    for b in data.get("benchmarks", []):
        # compare_report.py --merge keeps each entry's source file, "<tmp>/compare.reduce.json".
        exe = os.path.basename(b.get("file", "")).rsplit(".json", 1)[0]
        if exe and not exe.startswith("compare."):
            continue
        key = split_name(b.get("run_name") or b["name"])
        if key is None:
            continue
        if exe:
            executables.setdefault(key[0], exe)
        g = groups.setdefault(key, {"iterations": [], "median": None, "errors": [], "label": ""})
        if b.get("error_occurred"):
            g["errors"].append(b.get("error_message") or "error")
            continue
        g["label"] = b.get("label") or g["label"]
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                g["median"] = b
            continue
        g["iterations"].append(b)
    results = {}
    for key, g in groups.items():
        r = summarize(g)
        if r is not None:
            results[key] = r
    return Run(path, data.get("context") or {}, results, executables)


def load_runs(paths):
    """One Run per GPU, ordered by GPU; of two files of the same GPU, the later on the command line."""
    runs = OrderedDict()
    for path in paths:
        run = load_run(path)
        if run.slug in runs:
            print(f"perf_report: {path} replaces {runs[run.slug].path} ({run.name})", file=sys.stderr)
        runs[run.slug] = run
    return [runs[slug] for slug in sorted(runs)]


def commit_groups(text):
    """[(commit, [item, ...])] of a data file's strata_commit: "c1 (a, b/x); c2 (d)", where an item is an algorithm or
    algorithm/first part of its case names; a bare commit is [(commit, None)], for every benchmark."""
    groups = re.findall(r"(\S+) \(([^()]*)\)", text or "")
    if not groups:
        return [((text or "unknown").strip(), None)]
    return [(commit, [item.strip() for item in body.split(",") if item.strip()]) for commit, body in groups]


def commit_items(keys, complete):
    """The items naming the benchmarks `keys` ((algorithm, case, library)): an algorithm whose benchmarks are all in
    `keys` (`complete`: the algorithms with none elsewhere), else algorithm/first part of the case for each."""
    items = set()
    for algorithm, case, _ in keys:
        items.add(algorithm if algorithm in complete else f"{algorithm}/{case.split('/')[0]}")
    return sorted(items)


def item_names(item, key):
    """Whether a strata_commit item (an algorithm, or algorithm/first part of its case names) names the benchmark
    `key` ((algorithm, case, library))."""
    algorithm, _, case_head = item.partition("/")
    return key[0] == algorithm and (not case_head or key[1].split("/")[0] == case_head)


def update_run(old_path, new_path, merged_path):
    """Writes to merged_path the benchmarks of new_path and those of old_path whose (algorithm, case, library) the
    new run does not have: a run of some algorithms refreshes them in the GPU's data file and keeps the rest. The
    context is the new run's; its strata_commit names, besides the new run's commit, the old file's commits for what
    is kept: "new (algorithms or algorithm/cases refreshed); old (the kept ones it names); ...". Where some of the old
    file is kept, so are its benchmark settings (STRATA_BENCH, STRATA_BENCH_ARGS): those that measure the file whole,
    which a refresh of a few cases (one repetition, a filter) does not."""
    with open(old_path) as f:
        old = json.load(f)
    with open(new_path) as f:
        new = json.load(f)
    def key(b):
        return split_name(b.get("run_name") or b["name"])
    fresh = {key(b) for b in new.get("benchmarks", []) if key(b)}
    kept = [b for b in old.get("benchmarks", []) if key(b) not in fresh]
    kept_keys = {key(b) for b in kept if key(b)}
    context = dict(new.get("context") or {})
    if kept_keys:
        new_items = commit_items(fresh, {k[0] for k in fresh} - {k[0] for k in kept_keys})
        groups = [f"{context.get('strata_commit', 'unknown')} ({', '.join(new_items)})"]
        for commit, items in commit_groups((old.get("context") or {}).get("strata_commit")):
            if items is None:
                items = commit_items(kept_keys, {k[0] for k in kept_keys} - {k[0] for k in fresh})
            still = [item for item in items if any(item_names(item, k) for k in kept_keys)]
            if still:
                groups.append(f"{commit} ({', '.join(still)})")
        context["strata_commit"] = "; ".join(groups)
        for setting in ("strata_bench", "strata_bench_args"):
            if setting in (old.get("context") or {}):
                context[setting] = old["context"][setting]
    with open(merged_path, "w") as f:
        json.dump({"context": context, "benchmarks": kept + new.get("benchmarks", [])}, f, indent=1)
    return len(kept), len(new.get("benchmarks", []))


def natural(text):
    return [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", text) if t]


def case_parts(case):
    """(value type or "", log2 size or None, the rest of the name) of a case such as "i32/2^28"."""
    parts = case.split("/")
    vtype = next((p for p in parts if p in TYPES), "")
    size = next((int(SIZE.match(p).group(1)) for p in parts if SIZE.match(p)), None)
    rest = "/".join(p for p in parts if p != vtype and not SIZE.match(p))
    return vtype, size, rest


def case_order(case):
    vtype, size, rest = case_parts(case)
    return (TYPES.index(vtype) if vtype in TYPES else len(TYPES), natural(rest), -1 if size is None else size)


def library_order(lib):
    return ({"strata": 0, "cub": 1, "thrust": 2, "copy": 9}.get(lib, 5), lib)


def algorithms_of(runs):
    found = {key[0] for run in runs for key in run.results if key[2] == "strata"}
    known = [a for a in ALGORITHMS if a in found]
    return known + sorted(found - set(known))


def section_data(runs, algorithm):
    """The cases of one algorithm that strata ran on some GPU (in display order) and the other libraries."""
    cases = sorted({key[1] for run in runs for key in run.results if key[0] == algorithm and key[2] == "strata"},
                   key=case_order)
    libraries = sorted({key[2] for run in runs for key in run.results
                        if key[0] == algorithm and key[1] in cases and key[2] != "strata"}, key=library_order)
    return cases, libraries


def short_names(runs):
    """Column headings: the GPU's model ("H200") where that tells the runs apart, else the name less "NVIDIA"."""
    full = [re.sub(r"^NVIDIA\s+", "", run.name) for run in runs]
    short = [name.split()[0] if name else name for name in full]
    return short if len(set(short)) == len(short) else full


def item_rate(algorithm):
    return algorithm.startswith(ITEM_RATE_PREFIXES)


def rate_of(result, algorithm):
    """The number a section tabulates and plots: GB/s, or Gkeys/s for the item-rate sections."""
    if result is None:
        return None
    return result.gips if item_rate(algorithm) else result.gbps


def fmt_rate(value):
    return NONE if value is None else (f"{value:.0f}" if value >= 100 else f"{value:.1f}")


def ratio_cell(strata, other):
    """other's time / strata's time (above 1: strata is faster), "error", or — where either is missing. Two
    decimals: between runs the ratios move by more than 0.5%."""
    if strata is None or other is None:
        return NONE
    if strata.error or other.error:
        return "error"
    return f"{other.seconds / strata.seconds:.2f}"


def temp_cell(strata):
    return NONE if strata is None or strata.error or strata.temp_ratio is None else f"{strata.temp_ratio:.2f}"


def table(head, rows, numeric=True):
    """A Markdown table without the columns, past the first, in which no row has a value (—): a GPU that did not run
    a case, a library no case of a GPU has, leaves no empty column behind."""
    keep = [0] + [i for i in range(1, len(head)) if any(row[i] != NONE for row in rows)]
    align = "|--:" if numeric else "|---"
    return (["| " + " | ".join(head[i] for i in keep) + " |", "|---" + align * (len(keep) - 1) + "|"]
            + ["| " + " | ".join(row[i] for i in keep) + " |" for row in rows])


def table_columns(lines):
    """The columns of every Markdown table in `lines`: [(heading, [cell, ...]), ...] per table (for the self-test)."""
    tables, current = [], None
    for line in lines + [""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if current is None:
                current = [(head, []) for head in cells]
            elif not set(line) <= set("|-: "):
                for column, cell in zip(current, cells):
                    column[1].append(cell)
        elif current is not None:
            tables.append(current)
            current = None
    return tables


class Notes:
    """The footnotes of one table: a marker per distinct set of benchmark labels, and the errors."""

    def __init__(self):
        self.label_sets, self.errors = [], []

    def take(self, run, name, algorithm, case, libraries, labels):
        """Adds the labels of one case on one GPU to `labels` ({library: label}) and notes its errors."""
        for lib in ["strata"] + libraries:
            r = run.results.get((algorithm, case, lib))
            if r is not None and r.label:
                labels[lib] = r.label
            if r is not None and r.error:
                self.errors.append(f"`{case}` {lib} on {name}: {r.error}")

    def marker(self, labels):
        if not labels:
            return ""
        if labels not in self.label_sets:
            self.label_sets.append(labels)
        i = self.label_sets.index(labels)
        return " " + (MARKERS[i] if i < len(MARKERS) else f"[{i + 1}]")

    def lines(self):
        lines = []
        for i, labels in enumerate(self.label_sets):
            marker = MARKERS[i] if i < len(MARKERS) else f"[{i + 1}]"
            lines.append(f"{marker} " + "; ".join(f"{lib}: {labels[lib]}" for lib in sorted(labels, key=library_order))
                         + ".")
        if self.errors:
            lines.append("Errors: " + "; ".join(self.errors) + ".")
        return lines + [""] if lines else []


def ratios(run, algorithm, case, libraries, temp):
    """The cells of strata's ratios on one case of one GPU: to each other library, then (with `temp`) of its
    temporary bytes to CUB's."""
    strata = run.results.get((algorithm, case, "strata"))
    cells = [ratio_cell(strata, run.results.get((algorithm, case, lib))) for lib in libraries]
    return cells + ([temp_cell(strata)] if temp else [])


def has_temp(runs, algorithm, cases):
    """Whether strata's runs of the algorithm carry both libraries' temporary bytes."""
    return any(temp_cell(run.results.get((algorithm, case, "strata"))) != NONE for run in runs for case in cases)


def variant_of(case):
    """A case's name less its input size: "u32/random" of "u32/random/2^24"."""
    return "/".join(p for p in case.split("/") if not SIZE.match(p))


def sized_table(runs, algorithm):
    """A row per case less its size, a column per GPU and input size; each cell holds strata's ratios to the other
    libraries (and its temporary bytes to CUB's), in the order the first heading names. Its height does not grow
    with the sizes or the GPUs measured."""
    cases, libraries = section_data(runs, algorithm)
    names = short_names(runs)
    temp = has_temp(runs, algorithm, cases)
    measures = [f"vs {lib}" for lib in libraries] + (["temp vs cub"] if temp else [])
    sizes = sorted({case_parts(case)[1] for case in cases})
    by_size = {(variant_of(case), case_parts(case)[1]): case for case in cases}
    head = ["case: " + " · ".join(measures)]
    head += [(f"{name} " if len(runs) > 1 else "") + f"2^{size}" for name in names for size in sizes]
    rows, notes = [], Notes()
    for variant in OrderedDict.fromkeys(variant_of(case) for case in cases):
        row, labels = [variant], {}
        for run, name in zip(runs, names):
            for size in sizes:
                case = by_size.get((variant, size))
                if case is None or (algorithm, case, "strata") not in run.results:
                    row.append(NONE)
                    continue
                values = ratios(run, algorithm, case, libraries, temp)
                row.append(" · ".join(values) if any(v != NONE for v in values) else NONE)
                notes.take(run, name, algorithm, case, libraries, labels)
        row[0] += notes.marker(labels)
        rows.append(row)
    return table(head, rows) + [""] + notes.lines()


def condition_of(case, cases):
    """(case, condition) of a case named after another case and one part more, a measurement of that case under a
    condition ("f32/512x4/vectorize/warp_reductions/equal_occupancy"); (case, "") of any other."""
    base, _, last = case.rpartition("/")
    return (base, last) if base in cases else (case, "")


def case_table(runs, algorithm):
    """For cases without an input size: a row per case, per GPU strata's rate (latency sections: microseconds per call)
    and its ratios to the other libraries, then its ratios under each condition measured (a column per condition)."""
    cases, libraries = section_data(runs, algorithm)
    names = short_names(runs)
    latency = algorithm.endswith("_latency")
    unit = "us" if latency else ("Gkeys/s" if item_rate(algorithm) else "GB/s")
    temp = has_temp(runs, algorithm, cases)
    of = {case: condition_of(case, cases) for case in cases}
    conditions = list(OrderedDict.fromkeys(condition for _, condition in of.values() if condition))
    head = ["case"]
    for name in names:
        prefix = f"{name} " if len(runs) > 1 else ""
        head += [f"{prefix}{unit}"] + [f"{prefix}vs {lib}" for lib in libraries]
        head += [f"{prefix}temp vs cub"] if temp else []
        head += [f"{prefix}{condition}: vs {lib}" for condition in conditions for lib in libraries]
    rows, notes = [], Notes()
    for case in (case for case in cases if not of[case][1]):
        row, labels = [case], {}
        for run, name in zip(runs, names):
            s = run.results.get((algorithm, case, "strata"))
            if s is not None and s.error:
                row.append("error")
            elif latency:
                row.append(NONE if s is None else f"{s.seconds * 1e6:.1f}")
            else:
                row.append(fmt_rate(rate_of(s, algorithm)))
            row += ratios(run, algorithm, case, libraries, temp)
            notes.take(run, name, algorithm, case, libraries, labels)
            for condition in conditions:
                measured = f"{case}/{condition}"
                row += ratios(run, algorithm, measured, libraries, False)
                notes.take(run, name, algorithm, measured, libraries, labels)
        row[0] += notes.marker(labels)
        rows.append(row)
    return table(head, rows) + [""] + notes.lines()


def section_table(runs, algorithm):
    """The Markdown lines of one algorithm's table and its notes."""
    cases, libraries = section_data(runs, algorithm)
    # Cells of ratios need something to compare with; without it, strata's own rates per case.
    if all(case_parts(case)[1] is not None for case in cases) and (libraries or has_temp(runs, algorithm, cases)):
        return sized_table(runs, algorithm)
    return case_table(runs, algorithm)


def baseline(libraries):
    """The library a summary compares strata with: CUB, else the first other one that is not a copy."""
    others = [lib for lib in libraries if lib != "copy"]
    return "cub" if "cub" in others else (others[0] if others else None)


def summary_ratio(run, algorithm, cases, base):
    """Summary cell: base's time / strata's time over the cases of 2^28 items (else of the largest size from 2^20;
    without sizes, over every case with a rate): geometric mean, then the lowest and highest."""
    if base is None:
        return NONE
    sizes = {case_parts(case)[1] for case in cases} - {None}
    size = 28 if 28 in sizes else max(sizes, default=None)
    if size is not None and size < 20:
        return NONE
    ratios = []
    for case in cases:
        s, o = run.results.get((algorithm, case, "strata")), run.results.get((algorithm, case, base))
        if case_parts(case)[1] != size or s is None or o is None or s.error or o.error:
            continue
        if size is None and rate_of(s, algorithm) is None:
            continue  # a measurement beside the operation (an L2 re-read after it), not the operation
        ratios.append(o.seconds / s.seconds)
    if not ratios:
        return NONE
    mean = statistics.geometric_mean(ratios)
    low, high = f"{min(ratios):.2f}", f"{max(ratios):.2f}"
    cell = f"{mean:.2f}" + (f" ({low}–{high})" if low != high else "")
    cell += " all cases" if size is None else (f" at 2^{size}" if size != 28 else "")
    return cell + (f" vs {base}" if base != "cub" else "")


def summary_time(run, algorithm, cases):
    """Summary cell: strata's microseconds per call at 2^10 items (else at the smallest size up to 2^16), the lowest
    and highest over the cases."""
    sizes = {case_parts(case)[1] for case in cases} - {None}
    size = 10 if 10 in sizes else min(sizes, default=None)
    if size is None or size > 16:
        return NONE
    times = [r.seconds * 1e6 for r in (run.results.get((algorithm, case, "strata")) for case in cases
                                       if case_parts(case)[1] == size) if r is not None and not r.error]
    if not times:
        return NONE
    low, high = f"{min(times):.1f}", f"{max(times):.1f}"
    return (low if low == high else f"{low}–{high}") + (f" at 2^{size}" if size != 10 else "")


def anchor(title):
    """GitHub's anchor of a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def summary(runs):
    names = short_names(runs)
    head = ["algorithm"]
    for name in names:
        head += [f"{name}: CUB time / strata time, 2^28 (above 1: strata faster)", f"{name}: strata us per call, 2^10"]
    rows = []
    for algorithm in algorithms_of(runs):
        cases, libraries = section_data(runs, algorithm)
        title = ALGORITHMS.get(algorithm, (algorithm, ""))[0]
        row = [f"[{title}](#{anchor(title)})"]
        for run in runs:
            row += [summary_ratio(run, algorithm, cases, baseline(libraries)), summary_time(run, algorithm, cases)]
        rows.append(row)
    return table(head, rows) + [
        "", "A ratio is the geometric mean over the section's cases at that size, then the lowest and highest. Where "
        "a section has no case of 2^28 items (of 2^10), the cell names the size it shows: the largest from 2^20 up (the "
        "smallest up to 2^16). Times per call are as the section measures them: host wall-clock where its "
        "description says so, CUDA events otherwise.", ""]


def context_date(context):
    return (context.get("check_date") or context.get("date") or "?")[:10]


def runs_table(runs):
    def gib(value, unit):
        return f"{int(value) / 2**unit:.0f}" if value else "?"

    contexts = [run.context for run in runs]
    rows = [
        ["SMs, memory, L2"] + [f"{c.get('gpu_sm_count', '?')} SMs, {gib(c.get('gpu_memory_bytes'), 30)} GiB, "
                               f"{gib(c.get('gpu_l2_bytes'), 20)} MiB L2" for c in contexts],
        ["peak DRAM bandwidth"] + [f"{c.get('gpu_peak_bandwidth_gbps', '?')} GB/s" for c in contexts],
        ["driver, CUDA runtime"] + [f"{c.get('driver_version') or c.get('cuda_driver_version', '?')}, "
                                    f"{c.get('cuda_runtime_version', '?')}" for c in contexts],
        ["nvcc, CCCL"] + [f"{c.get('nvcc_version') or c.get('cuda_toolkit_version', '?')}, "
                          f"{c.get('cccl_version', '?')}" for c in contexts],
        ["strata commit"] + [f"`{c.get('strata_commit', '?')}`" for c in contexts],
        ["date"] + [context_date(c) for c in contexts],
        ["numbers"] + [numbers_label(*run.repetitions()) for run in runs]]
    return table(["GPU"] + [run.name for run in runs], rows, numeric=False)


def bench_settings(context):
    """STRATA_BENCH and STRATA_BENCH_ARGS that measure again what a data file holds. A file refreshed piecewise
    (--update: its commit names what each run measured) holds every compare benchmark, so its last run's selection
    (the executables, a --benchmark_filter) would measure only part of it."""
    bench, args = context.get("strata_bench", ""), context.get("strata_bench_args", "")
    if any(items is not None for _, items in commit_groups(context.get("strata_commit"))):
        bench = "^compare\\."
        args = " ".join(arg for arg in shlex.split(args) if not arg.startswith("--benchmark_filter"))
    return bench, args


def reproduce(runs):
    lines = ["## Reproducing", "",
             "On a GPU machine, once per GPU; then, with Python 3 and matplotlib, this page and its plots "
             "(gpu_check.sh also leaves them, with its own run in them, in OUT/report.tar.gz, to unpack into docs/):",
             "", "```sh"]
    for run in runs:
        env = ["STRATA_STEPS=build,bench"]
        bench, args = bench_settings(run.context)
        env += ["STRATA_BENCH=" + shlex.quote(bench)] if bench else []
        env += ["STRATA_BENCH_ARGS=" + shlex.quote(args)] if args else []
        lines.append(" ".join(env) + f" scripts/gpu_check.sh OUT && cp OUT/benchmarks.json docs/data/{run.slug}.json"
                     f"   # {run.name}")
    return lines + ["python3 scripts/perf_report.py docs/data/*.json", "```"]


def length_error(text):
    """Why a generated page may not stand (longer than LINE_LIMIT lines), or None."""
    length = text.count("\n")
    if length <= LINE_LIMIT:
        return None
    return (f"performance.md would have {length} lines, more than {LINE_LIMIT}: shorten a section's description, or "
            "name a new benchmark's cases so that they share rows (type/variant/2^size)")


def image_name(algorithm):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", algorithm) + ".png"


def markdown(runs):
    lines = ["<!-- generated by scripts/perf_report.py from the benchmark JSON in docs/data; do not edit -->",
             "# Performance against CUB", "",
             "strata and CUB run the same operation on the same buffers in one process, on each GPU below. A ratio is "
             "the other library's time / strata's time: above 1, strata is faster (1.05: CUB takes 5% longer).", ""]
    lines += summary(runs)
    lines += ["## How the numbers are taken", "",
              "The benchmarks are in `benchmarks/compare/`, timed with CUDA events over inputs rotated through more "
              "than twice the L2 size, unless a section says otherwise. Each section has a plot of strata's and the "
              "other libraries' throughput (or time per call) against the input size, a row of panels per GPU, and a "
              "table of ratios, a column per GPU and input size (between runs on the same GPU, ratios have moved by up "
              "to about 2.5% from 2^24 items on and by up to 15% at 2^16 and 2^20 items, where a call takes a few "
              "microseconds):", "",
              "- **vs cub** = CUB's time / strata's time; **vs thrust**, **vs raw** likewise. A cell with several "
              "ratios holds them in the order its table's first heading names, separated by ·.",
              "- **vs copy** = the time of a device-to-device `cudaMemcpyAsync` that moves as many bytes (read plus "
              "written) / strata's time: how close strata comes to the memory system's rate (a reduction only reads "
              "and may pass 1). The plots draw the copy's rate as the ceiling.", ""]
    lines += runs_table(runs) + [""]
    for algorithm in algorithms_of(runs):
        title, description = ALGORITHMS.get(algorithm, (algorithm, ""))
        exes = sorted({run.executables[algorithm] for run in runs if algorithm in run.executables})
        source = ", ".join(f"benchmarks/compare/{exe.split('.', 1)[1]}.cu" for exe in exes)
        about = f"`{algorithm}/...`" + (f" in {source}" if source else "") + "." + (f" {description}" if description
                                                                                      else "")
        # The plot closes the description's paragraph: a line less per section than a paragraph of its own.
        lines += [f"## {title}", "", about, f"![{algorithm}](img/{image_name(algorithm)})", ""]
        lines += section_table(runs, algorithm)
    lines += reproduce(runs)
    return "\n".join(lines) + "\n"


LIBRARY_STYLES = {"strata": ("C0", "-"), "cub": ("C1", "-"), "thrust": ("C2", "-"), "copy": ("0.45", ":")}


def style(lib, index):
    return LIBRARY_STYLES.get(lib, (f"C{3 + index % 6}", "--"))


def time_axis(run, algorithm):
    """Whether a GPU's plot of the algorithm shows time per call: in the latency sections, and where no benchmark of
    the algorithm counted bytes or items on that GPU (a rate would leave the panels empty)."""
    return algorithm.endswith("_latency") or not any(
        rate_of(r, algorithm) for (a, _, _), r in run.results.items() if a == algorithm)


def plotted(run, algorithm, case, lib):
    """The plotted number: microseconds per call where time_axis says so, else the rate: GB/s, or Gkeys/s for the
    item-rate sections."""
    result = run.results.get((algorithm, case, lib))
    if time_axis(run, algorithm):
        return None if result is None or result.error or result.seconds is None else result.seconds * 1e6
    return rate_of(result, algorithm)


def plot_unit(run, algorithm):
    if time_axis(run, algorithm):
        return "us per call"
    return "Gkeys/s" if item_rate(algorithm) else "GB/s"


def plot(runs, algorithm, path):
    """Throughput (latency sections: time per call) against input size, a panel per value type (and variant), a row
    per GPU; algorithms whose cases have no size get bars per case instead."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import LogFormatter

    cases, others = section_data(runs, algorithm)
    libraries = ["strata"] + others
    names = short_names(runs)
    # A row per GPU that ran the algorithm.
    ran = [(run, name) for run, name in zip(runs, names) if any(key[0] == algorithm for key in run.results)]
    runs, names = [run for run, _ in ran], [name for _, name in ran]
    sized = [c for c in cases if case_parts(c)[1] is not None]
    if sized:
        panels = sorted({(case_parts(c)[0], case_parts(c)[2]) for c in sized},
                        key=lambda p: (TYPES.index(p[0]) if p[0] in TYPES else len(TYPES), natural(p[1])))
        # Each panel has its own y-axis: one value type's rate can be a tenth of another's (radix sort: 1-byte keys
        # against 8-byte ones), and an axis shared with it would flatten the lower panel's lines.
        fig, axes = plt.subplots(len(runs), len(panels), figsize=(3.2 * len(panels), 2.6 * len(runs)),
                                 squeeze=False)
        for row, (run, name) in enumerate(zip(runs, names)):
            for col, (vtype, rest) in enumerate(panels):
                ax = axes[row][col]
                in_panel = sorted((case_parts(c)[1], c) for c in sized if case_parts(c)[0] == vtype
                                  and case_parts(c)[2] == rest)
                for i, lib in enumerate(libraries):
                    points = [(size, plotted(run, algorithm, c, lib)) for size, c in in_panel
                              if plotted(run, algorithm, c, lib)]
                    if points:
                        color, line = style(lib, i)
                        ax.plot([p[0] for p in points], [p[1] for p in points], line, color=color, marker=".",
                                label=lib)
                if time_axis(run, algorithm):
                    ax.set_yscale("log")  # from the launch floor (about 10 us) to whole passes over the data
                    # Plain numbers (20, not 2x10^1) on the ticks, minor ones labelled where a panel spans little.
                    ax.yaxis.set_major_formatter(LogFormatter())
                    ax.yaxis.set_minor_formatter(LogFormatter(labelOnlyBase=False))
                sizes = [size for size, _ in in_panel]
                ax.set_xticks(sizes)
                ax.set_xticklabels([f"$2^{{{s}}}$" for s in sizes])
                ax.grid(alpha=0.3)
                if row == 0:
                    ax.set_title(" ".join(p for p in (vtype, rest) if p), fontsize=10)
                if col == 0:
                    ax.set_ylabel(f"{name} {plot_unit(run, algorithm)}")
                if row == len(runs) - 1:
                    ax.set_xlabel("items")
        # The legend in the first panel with lines in it.
        next((ax for ax in axes.flat if ax.get_legend_handles_labels()[0]), axes[0][0]).legend(fontsize=8)
    else:
        measured = [c for c in cases if any(plotted(run, algorithm, c, lib) for run in runs for lib in libraries)]
        height = 0.8 / len(libraries)
        fig, axes = plt.subplots(1, len(runs), figsize=(4 + 3 * len(runs), 1 + 0.2 * len(measured) * len(libraries)),
                                 squeeze=False)
        for col, (run, name) in enumerate(zip(runs, names)):
            ax = axes[0][col]
            for i, lib in enumerate(libraries):
                bars = [(y + i * height, plotted(run, algorithm, c, lib)) for y, c in enumerate(measured)
                        if plotted(run, algorithm, c, lib)]
                ax.barh([b[0] for b in bars], [b[1] for b in bars], height=height, color=style(lib, i)[0], label=lib)
            # Every panel has its own axes; the cases are named once, beside the first.
            ax.set_yticks([y + 0.4 - height / 2 for y in range(len(measured))])
            ax.set_yticklabels(measured if col == 0 else [], fontsize=8)
            ax.set_ylim(len(measured) - 0.1 - height / 2, -0.1 - height / 2)  # the first case on top, every panel alike
            ax.set_xlabel(f"{name} {plot_unit(run, algorithm)}")
            ax.grid(axis="x", alpha=0.3)
        axes[0][0].legend(fontsize=8, loc="lower left", bbox_to_anchor=(0, 1), ncol=min(len(libraries), 2 * len(runs)),
                          frameon=False)
    fig.tight_layout()
    # No software version in the file, so that the same data and matplotlib give the same bytes.
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)


def self_test():
    """The table logic on made-up runs: medians, ratios, missing libraries, errors, labels, ordering and
    replacement of a GPU's earlier file. Needs no matplotlib."""

    def entry(name, us, reps=1, index=0, bps=None, kind="iteration", agg=None, label=None, error=None,
              file="compare.x.json", ips=None, counters=None):
        b = {"name": name + "/manual_time", "run_name": name + "/manual_time", "run_type": kind, "real_time": us,
             "time_unit": "us", "repetitions": reps, "repetition_index": index, "file": "/tmp/t/" + file}
        if bps:
            b["bytes_per_second"] = bps
        if ips:
            b["items_per_second"] = ips
        b.update(counters or {})
        if agg:
            b["aggregate_name"] = agg
        if label:
            b["label"] = label
        if error:
            b["error_occurred"], b["error_message"] = True, error
        return b

    mb = 1e6  # bytes: at 1 us, 1000 GB/s
    gpu_a = [entry("reduce_sum/i32/2^20/strata", t, 3, i, mb / (t * 1e-6)) for i, t in enumerate([3.0, 1.0, 2.0])]
    gpu_a += [entry("reduce_sum/i32/2^20/cub", t, 3, i, mb / (t * 1e-6)) for i, t in enumerate([4.0, 4.0, 4.0])]
    gpu_a += [entry("reduce_sum/i32/2^20/cub", 5.0, 3, 0, mb / 5e-6, "aggregate", "median"),
              entry("reduce_sum/i32/2^20/cub", 9.0, 3, 0, mb / 9e-6, "aggregate", "mean"),
              entry("reduce_sum/i8/2^16/strata", 2.0, bps=mb / 2e-6),
              entry("reduce_sum/i8/2^16/copy", 1.0, bps=mb / 1e-6),
              entry("reduce_sum/i32/2^16/strata", 1.0, bps=mb / 1e-6),
              entry("reduce_sum/i32/2^16/cub", 1.0, error="strata and cub disagree"),
              entry("block_scan/f64/128x8/direct(vector)/raking/strata", 10.0, bps=1e9, label="DIRECT: vectors"),
              entry("block_scan/f64/128x8/direct(vector)/raking/cub", 20.0, bps=1e9 / 2, label="DIRECT: items"),
              entry("block_scan/f64/128x8/direct(vector)/raking/equal_occupancy/strata", 10.0, bps=1e9),
              entry("block_scan/f64/128x8/direct(vector)/raking/equal_occupancy/cub", 15.0, bps=1e9 / 1.5),
              entry("block_scan/i32/128x16/warp_transpose/raking/l2_reuse_after/strata", 4.0),
              entry("block_scan/i32/128x16/warp_transpose/raking/l2_reuse_after/cub", 5.0),
              entry("sort_keys/u32/2^24/strata", 8.0, bps=1e9),
              entry("radix_sort_keys/u32/random/2^24/strata", 10.0, ips=1.5e9,
                    counters={"temp_bytes_strata": 100.0, "temp_bytes_cub": 200.0}),
              entry("radix_sort_keys/u32/random/2^24/cub", 12.0, ips=1.25e9,
                    counters={"temp_bytes_strata": 100.0, "temp_bytes_cub": 200.0}),
              entry("reduce_sum/i8/16", 2.0, bps=mb / 2e-6, file="bench.reduce.sum.json")]
    gpu_b = [entry("reduce_sum/i32/2^20/strata", 1.0, bps=mb / 1e-6), entry("reduce_sum/i32/2^20/cub", 1.5)]
    stale_b = [entry("reduce_sum/i32/2^20/strata", 100.0, bps=mb / 1e-4)]
    context_a = {"gpu_name": "NVIDIA H100 80GB HBM3", "strata_commit": "abc1234", "check_date": "2026-11-24T10:00:00Z",
                 "strata_bench": "^compare\\.", "strata_bench_args": "--benchmark_repetitions=3"}
    context_b = {"gpu_name": "NVIDIA H200", "strata_commit": "abc1234"}

    checks = []

    def check(what, condition):
        checks.append((what, bool(condition)))

    with tempfile.TemporaryDirectory() as tmp:
        def write(name, context, benchmarks):
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                json.dump({"context": context, "benchmarks": benchmarks}, f)
            return path

        paths = [write("b_stale.json", context_b, stale_b), write("a.json", context_a, gpu_a),
                 write("b.json", context_b, gpu_b)]
        shuffled = list(gpu_a)
        random.Random(1).shuffle(shuffled)
        with contextlib.redirect_stderr(io.StringIO()):  # the notes that b.json replaces b_stale.json
            runs = load_runs(paths)
            again = markdown(load_runs([write("b_stale.json", context_b, stale_b), write("b.json", context_b, gpu_b),
                                        write("a2.json", context_a, shuffled)]))
        md = markdown(runs)
        # --update: the new run's cases replace the old ones, the rest of the old file stays.
        refreshed = write("fresh.json", dict(context_b, strata_commit="def5678", strata_bench="compare.reduce",
                                             strata_bench_args="--benchmark_filter=reduce_sum/i32"),
                          [entry("reduce_sum/i32/2^20/strata", 0.5, bps=mb / 5e-7)])
        with contextlib.redirect_stdout(io.StringIO()):
            update_run(paths[1], refreshed, os.path.join(tmp, "merged.json"))
        merged = load_run(os.path.join(tmp, "merged.json"))
        with open(os.path.join(tmp, "merged.json")) as f:
            merged_context = json.load(f)["context"]
        merged_commit = merged_context["strata_commit"]
        # A second refresh, of a whole algorithm: each commit keeps naming what is still its own.
        block_scan = [b for b in gpu_a if b["name"].startswith("block_scan/")]
        again_fresh = write("fresh2.json", dict(context_b, strata_commit="fed9876"), block_scan)
        with contextlib.redirect_stdout(io.StringIO()):
            update_run(os.path.join(tmp, "merged.json"), again_fresh, os.path.join(tmp, "merged2.json"))
        with open(os.path.join(tmp, "merged2.json")) as f:
            merged2_commit = json.load(f)["context"]["strata_commit"]

    check("the numbers row names repetitions, and cases measured fewer times",
          [numbers_label(1, 1), numbers_label(3, 3), numbers_label(1, 3), numbers_label(2, 3)]
          == ["one repetition", "median of 3 repetitions", "median of 3 repetitions (one for some cases)",
              "median of 3 repetitions (median of 2 for some cases)"])
    check("--update replaces the refreshed case and keeps the others",
          abs(merged.results[("reduce_sum", "i32/2^20", "strata")].seconds - 5e-7) < 1e-12
          and abs(merged.results[("reduce_sum", "i32/2^20", "cub")].seconds - 5e-6) < 1e-12
          and ("block_scan", "f64/128x8/direct(vector)/raking", "strata") in merged.results
          and merged_commit == "def5678 (reduce_sum/i32); abc1234 (block_scan, radix_sort_keys, reduce_sum/i32, "
                               "reduce_sum/i8, sort_keys)")
    check("--update keeps the settings that measured the old file whole",
          (merged_context.get("strata_bench"), merged_context.get("strata_bench_args"))
          == (context_a.get("strata_bench"), context_a.get("strata_bench_args")))
    check("--update names each commit's algorithms and cases, refresh after refresh",
          merged2_commit == "fed9876 (block_scan); def5678 (reduce_sum/i32); abc1234 (radix_sort_keys, reduce_sum/i32, "
                            "reduce_sum/i8, sort_keys)")
    a, b = runs
    check("runs ordered by GPU, the later H200 file kept", [r.slug for r in runs] == ["nvidia-h100-80gb-hbm3",
                                                                                      "nvidia-h200"]
          and b.results[("reduce_sum", "i32/2^20", "strata")].seconds == 1e-6)
    check("median of the repetitions", abs(a.results[("reduce_sum", "i32/2^20", "strata")].seconds - 2e-6) < 1e-12)
    check("GB/s of the median", abs(a.results[("reduce_sum", "i32/2^20", "strata")].gbps - 500) < 1e-9)
    check("the median aggregate over the repetitions",
          abs(a.results[("reduce_sum", "i32/2^20", "cub")].seconds - 5e-6) < 1e-12)
    lines = md.split("\n")
    check("the page starts with the summary, a row per algorithm, a column pair per GPU",
          lines[5] == "| algorithm | H100: CUB time / strata time, 2^28 (above 1: strata faster) | H100: strata us per "
                      "call, 2^10 | H200: CUB time / strata time, 2^28 (above 1: strata faster) |"
          and "| [DeviceReduce::Sum](#devicereducesum) | 2.50 at 2^20 | 1.0–2.0 at 2^16 | 1.50 at 2^20 |" in md
          and sum(line.startswith("| [") for line in lines) == len(algorithms_of(runs)))
    wide = Run("w.json", {"gpu_name": "G"}, {("reduce_sum", "i32/2^28", "strata"): Result(1.0),
                                             ("reduce_sum", "i32/2^28", "cub"): Result(2.0),
                                             ("reduce_sum", "i8/2^28", "strata"): Result(1.0),
                                             ("reduce_sum", "i8/2^28", "cub"): Result(0.5),
                                             ("reduce_sum", "i8/2^24", "cub"): Result(9.0)}, {})
    check("summary ratio: geometric mean at 2^28, lowest and highest",
          summary_ratio(wide, "reduce_sum", ["i8/2^24", "i8/2^28", "i32/2^28"], "cub") == "1.00 (0.50–2.00)")
    check("ratio = other time / strata time, a row per case less its size, a column per GPU and size",
          "| case: vs cub · vs copy | H100 2^16 | H100 2^20 | H200 2^20 |" in md
          and "| i32 | error · — | 2.50 · — | 1.50 · — |" in md)
    check("missing library shown as —", "| i8 | — · 0.50 | — | — |" in md)
    check("error shown and listed", "strata and cub disagree" in md and "Errors: `i32/2^16` cub on H100" in md)
    check("labels marked and listed", "| f64/128x8/direct(vector)/raking † |" in md
          and "† strata: DIRECT: vectors; cub: DIRECT: items." in md)
    check("a case measured under a condition is a column of its case's row",
          "| case | H100 GB/s | H100 vs cub | H100 equal_occupancy: vs cub |" in md
          and "| f64/128x8/direct(vector)/raking † | 1.0 | 2.00 | 1.50 |" in md)
    check("no GB/s without bytes", "| i32/128x16/warp_transpose/raking/l2_reuse_after | — | 1.25 | — |" in md)
    check("tuning-format executables left out", ("reduce_sum", "i8", "16") not in a.results)
    check("unknown algorithm gets a section, strata's rates where nothing compares",
          "## sort_keys" in md and "img/sort_keys.png" in md and "| sort_keys/u32/2^24 |" not in md
          and "| u32/2^24 | 1.0 |" in md)
    check("the temporary bytes' ratio beside the sort's ratio",
          "| case: vs cub · temp vs cub | H100 2^24 |" in md and "| u32/random | 1.20 · 0.50 |" in md)
    check("sections in the known order", md.index("## DeviceReduce::Sum") < md.index("## BlockLoad, BlockScan")
          < md.index("## sort_keys"))
    check("case order: type, then the rest", md.index("| i8 |") < md.index("| i32 |"))
    check("same output whatever the order of files and entries", md == again)
    check("reproducing command from the context",
          "STRATA_STEPS=build,bench STRATA_BENCH='^compare\\.' STRATA_BENCH_ARGS=--benchmark_repetitions=3 "
          "scripts/gpu_check.sh OUT && cp OUT/benchmarks.json docs/data/nvidia-h100-80gb-hbm3.json   # NVIDIA H100"
          in md and "cp OUT/benchmarks.json docs/data/nvidia-h200.json" in md)
    check("a data file refreshed piecewise is measured again whole",
          bench_settings({"strata_commit": "a1 (radix_sort_pairs); b2 (reduce_sum)", "strata_bench": "compare.sort",
                          "strata_bench_args": "--benchmark_filter=radix --benchmark_repetitions=3"})
          == ("^compare\\.", "--benchmark_repetitions=3"))

    # The rules of the page on a larger made-up set: every known algorithm, with sizes and GPUs.
    def made_up(gpus, sizes):
        made = []
        for g in range(gpus):
            results = {}
            for algorithm in ALGORITHMS:
                for variant in ("i32", "f64/and3", "u8/random"):
                    for size in sizes:
                        case = f"{variant}/2^{size}"
                        results[(algorithm, case, "strata")] = Result(1e-6 * size, gbps=size, gips=size,
                                                                      temp_ratio=0.5)
                        if (g + size) % 3:  # gaps: a library, or a GPU, that did not run a case
                            results[(algorithm, case, "cub")] = Result(1.1e-6 * size)
                        if algorithm.startswith("reduce") and g == 0:
                            results[(algorithm, case, "copy")] = Result(0.9e-6 * size)
            made.append(Run(f"g{g}.json", {"gpu_name": f"NVIDIA G{g}"}, results, {}))
        return markdown(made)

    small, large = made_up(1, [16, 20]), made_up(4, range(10, 31, 2))
    check(f"at most {LINE_LIMIT} lines; sizes add no line, a GPU one (its command)",
          len(large.split("\n")) - len(small.split("\n")) == 3 and length_error(large) is None
          and length_error(md) is None)
    check("a page over the limit is refused", length_error("x\n" * (LINE_LIMIT + 1)) is not None)
    empty = [(heading, page) for page in (md, small, large) for columns in table_columns(page.split("\n"))
             for heading, cells in columns[1:] if all(cell == NONE for cell in cells)]
    check("no table has a column without a value", not empty and len(table_columns(md.split("\n"))) > 5)
    check("generated-file header", md.startswith("<!-- generated by scripts/perf_report.py"))
    for what, ok in checks:
        if not ok:
            print(f"FAILED: {what}")
    failed = sum(not ok for _, ok in checks)
    print(f"perf_report self-test: {len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", help="merged benchmark JSON, one file per GPU")
    parser.add_argument("--out", default=os.path.join(ROOT, "docs"),
                        help="where performance.md and img/ go (default: docs/)")
    parser.add_argument("--no-plots", action="store_true", help="write the Markdown only, referencing the plots already in OUT/img")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if OUT/performance.md differs from what the files give")
    parser.add_argument("--slug", action="store_true", help="print each file's name under docs/data and exit")
    parser.add_argument("--self-test", action="store_true", help="test the tables and the page's rules (line limit, no empty column) and exit")
    parser.add_argument("--update", action="store_true",
                        help="files OLD NEW: write OLD's results with NEW's in place of the same cases to --merged")
    parser.add_argument("--merged", help="--update: the merged JSON file to write")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if args.update:
        if len(args.files) != 2 or not args.merged:
            parser.error("--update takes OLD NEW and --merged OUT")
        kept, fresh = update_run(args.files[0], args.files[1], args.merged)
        print(f"perf_report: {args.merged}: {fresh} entries of {args.files[1]}, {kept} kept from {args.files[0]}")
        return 0
    if not args.files:
        parser.error("no benchmark JSON given")
    if args.slug:
        for path in args.files:
            print(load_run(path).slug)
        return 0
    runs = load_runs(args.files)
    if not algorithms_of(runs):
        print("perf_report: no compare benchmark with a strata run in " + " ".join(args.files), file=sys.stderr)
        return 1
    text = markdown(runs)
    if length_error(text):
        print("perf_report: " + length_error(text), file=sys.stderr)
        return 1
    target = os.path.join(args.out, "performance.md")
    if args.check:
        current = open(target).read() if os.path.exists(target) else ""
        if current == text:
            return 0
        sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), text.splitlines(True), target,
                                                   "generated", n=1))
        return 1
    if not args.no_plots:
        try:
            import matplotlib  # noqa: F401 (only whether it is there; plot() imports what it uses)
        except ImportError:
            print("perf_report: the plots need matplotlib (apt-get install python3-matplotlib, or pip); "
                  "--no-plots writes the Markdown alone", file=sys.stderr)
            return 1
    os.makedirs(args.out, exist_ok=True)
    with open(target, "w") as f:
        f.write(text)
    if not args.no_plots:
        os.makedirs(os.path.join(args.out, "img"), exist_ok=True)
        for algorithm in algorithms_of(runs):
            plot(runs, algorithm, os.path.join(args.out, "img", image_name(algorithm)))
    print(f"perf_report: {target} ({text.count(chr(10))} lines) from {len(runs)} run(s)")
    missing = [image_name(a) for a in algorithms_of(runs) if not os.path.exists(os.path.join(args.out, "img",
                                                                                            image_name(a)))]
    if missing:
        print("perf_report: no plot yet for " + ", ".join(missing) + " (run without --no-plots where matplotlib is)",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
