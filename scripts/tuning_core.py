"""The pieces of the tuning workflow that scripts/search.py and scripts/analyze.py share: the search space, the
benchmark names, the score, the toolchain that builds and runs benchmarks, and the results database.

Search space. A benchmark in the tuning format (benchmarks/bench/<algorithm>/<flavor>.cu) declares one knob per line:
    // %RANGE% TUNE_ITEMS_PER_THREAD ipt 7:24:1
(macro, short name, first:last:step, last included). Any other line that holds %RANGE% is an error. A variant is one
value per knob, named by the short names in declaration order: "tpb_256.ipt_16"; a variant may also set a macro
outside the space, named after the knobs ("tpb_256.ipt_16.TUNE_RADIX_BITS_7"). The base (the library's own tuning,
TUNE_BASE=1) is the variant "base".

Benchmark names. After the benchmark's own name, each axis is one path element "Name{tag}[modifier]:value" (Google
Benchmark's own form for named arguments):
    radix_sort_keys/KeyT{ct}:U32/Elements{io}[pow2]:24/Entropy:544
{ct}: a compile-time axis (a type: -DTUNE_<Name>=<value> narrows a build of the benchmark to that one value; the
tokens are benchmarks/support/tuning_axes.cuh's); {io}: a runtime axis whose later values (in numeric order) weigh
more in a score; no tag: any other runtime axis. [pow2]: the value is a power of two's exponent. Google Benchmark's
own suffixes ("/manual_time", "/real_time", "/repeats:3", ...) are not axes. A case's compile-time workload is its
{ct} axes ("KeyT{ct}:U32"); its runtime workload is the benchmark's own name and the other axes
("radix_sort_keys/Elements{io}[pow2]:24/Entropy:544"), so that several benchmarks of one file keep apart. On the
command line of search.py an axis selection is written with '=': -a 'KeyT{ct}=[U32,U64]', -a 'Elements{io}[pow2]=28'.

Score. For one variant and one compile-time workload: the weighted mean over runtime workloads of base time /
variant time (above 1: the variant is faster), each workload weighing the product of its {io} values' ranks
(1, 2, ... in numeric order among the values seen); with the unweighted min, mean and max. A case the variant failed
(it reported an error) counts as a speedup of 0; a case the base failed is left out, as nothing compares with it.
"""
import glob
import itertools
import json
import math
import os
import pathlib
import random
import re
import signal
import sqlite3
import subprocess
import threading
import time
from dataclasses import dataclass

RANGE_RE = re.compile(r"^\s*//\s*%RANGE%\s+(TUNE_\w+)\s+(\w+)\s+(-?\d+):(-?\d+):(\d+)\s*$")
AXIS_RE = re.compile(r"^(\w+)(?:\{(ct|io)\})?(?:\[(\w+)\])?:(.+)$")
GBENCH_SUFFIX_RE = re.compile(r"^(manual_time|real_time|process_time|(iterations|repeats|threads|min_time|"
                              r"min_warmup_time):[^{}\[\]]*)$")
BASE = "base"
FAILED = math.inf  # the time of a case that reported an error: its speedup is 0, and after a tuning, a regression
MAX_VARIANTS = 100_000  # a search of more variants must be narrowed (-p) or sampled (--sample)


# -- the search space ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Param:
    macro: str
    short: str
    first: int
    last: int
    step: int
    only: tuple = None  # the values a knob filter kept (restrict_space), or None for the whole range

    @property
    def values(self):
        every = range(self.first, self.last + 1, self.step)
        return [v for v in every if v in self.only] if self.only is not None else list(every)


def parse_space(text, path="<source>"):
    """The %RANGE% knobs of a benchmark source, in declaration order. A line that holds %RANGE% but does not declare a
    knob is an error naming the line (path:line: text), as is an empty range or a short name declared twice."""
    params, where = [], {}
    for number, line in enumerate(text.splitlines(), 1):
        if "%RANGE%" not in line:
            continue
        m = RANGE_RE.match(line)
        if not m:
            raise ValueError(f"{path}:{number}: not a knob declaration ('// %RANGE% TUNE_<NAME> <short> "
                             f"<first>:<last>:<step>'): {line.strip()}")
        macro, short, first, last, step = m.groups()
        if int(step) <= 0 or int(last) < int(first):
            raise ValueError(f"{path}:{number}: empty range: {line.strip()}")
        if short in where:
            raise ValueError(f"{path}:{number}: the short name '{short}' is declared again (first at line "
                             f"{where[short]}): {line.strip()}")
        where[short] = number
        params.append(Param(macro, short, int(first), int(last), int(step)))
    return params


def read_space(path):
    with open(path) as f:
        return parse_space(f.read(), path)


def _value_list(values):
    """"[a,b]" or "a": the listed values as strings."""
    if values.startswith("[") and values.endswith("]"):
        values = values[1:-1]
    return [v.strip() for v in values.split(",") if v.strip()]


def parse_knob_filter(spec):
    """A knob selection, "ipt=[16,20,24]" or "mb=3": (short name, set of values)."""
    m = re.match(r"^(\w+)=(.+)$", spec)
    if not m:
        raise ValueError(f"not a knob selection: {spec}")
    short, values = m.groups()
    try:
        chosen = {int(v) for v in _value_list(values)}
    except ValueError:
        raise ValueError(f"knob values are integers: {spec}") from None
    return short, chosen


def restrict_space(params, knob_filters):
    """The space with each filtered knob narrowed to the chosen values, which must be points of its declared range.
    A filter of a knob the space does not declare is left out (a search of several benchmarks may name knobs of one
    of them). A later filter of a knob replaces an earlier one."""
    by_short = {p.short: p for p in params}
    narrowed = dict(by_short)
    for short, chosen in knob_filters:
        if short not in by_short:
            continue
        p = by_short[short]
        outside = sorted(chosen - set(p.values))
        if outside:
            raise ValueError(f"{short}={outside} lies outside its range {p.first}:{p.last}:{p.step}")
        narrowed[short] = Param(p.macro, p.short, p.first, p.last, p.step, tuple(sorted(chosen)))
    return [narrowed[p.short] for p in params]


def space_size(params):
    return math.prod(len(p.values) for p in params) if params else 0


def variants(params):
    """Every point of the space, as {short: value}, in declaration order."""
    for point in itertools.product(*(p.values for p in params)):
        yield {p.short: v for p, v in zip(params, point)}


def sample(params, count, seed=0):
    """`count` points of the space drawn without replacement, the same for the same (space, count, seed): a resumed
    search draws the same ones. All of them when the space has no more."""
    size = space_size(params)
    if count >= size:
        return list(variants(params))
    rng = random.Random(f"{seed}:" + ";".join(f"{p.macro}={p.first}:{p.last}:{p.step}" + (f"{list(p.only)}" if p.only
                                                                                         is not None else "")
                                              for p in params))
    points = []
    for index in sorted(rng.sample(range(size), count)):
        point = {}
        for p in reversed(params):
            index, digit = divmod(index, len(p.values))
            point[p.short] = p.values[digit]
        points.append({p.short: point[p.short] for p in params})
    return points


@dataclass(frozen=True)
class VariantSpec:
    """A --variant of search.py: "tpb=256,ipt=20,TUNE_RADIX_BITS=7@T{ct}=[I32,F32]". knobs: {short: value}, each knob
    it names fixed (the others take every value their -p selection or range allows); macros: {TUNE_*: value} outside
    the space, which name the variant too; cases: axis filters (parse_axis_filter), the cases it runs."""
    knobs: tuple
    macros: tuple
    cases: tuple
    text: str = ""


def parse_variant_spec(spec):
    items, *cases = spec.split("@")
    knobs, macros = {}, {}
    for item in items.split(","):
        m = re.match(r"^\s*(\w+)=(-?\d+)\s*$", item)
        if not m:
            raise ValueError(f"not a variant (short=value,...[,TUNE_NAME=value][@axis=values]): {spec}")
        name, value = m.group(1), int(m.group(2))
        (macros if name.startswith("TUNE_") else knobs)[name] = value
    return VariantSpec(tuple(knobs.items()), tuple(macros.items()), tuple(parse_axis_filter(c) for c in cases), spec)


def spec_points(params, spec, knob_filters=()):
    """The points of a VariantSpec in a space (narrowed by knob_filters first); [] if it names a knob the space does
    not declare (the variant is another benchmark's)."""
    declared = {p.short for p in params}
    if any(short not in declared for short, _ in spec.knobs):
        return []
    space = restrict_space(params, list(knob_filters) + [(short, {value}) for short, value in spec.knobs])
    check_size(space_size(space), f"--variant {spec.text}")
    return [dict(point, **dict(spec.macros)) for point in variants(space)]


def check_size(count, what):
    if count > MAX_VARIANTS:
        raise ValueError(f"{what}: {count} variants, more than {MAX_VARIANTS}; narrow the knobs (-p) or draw a sample "
                         f"(--sample)")


def variant_name(params, point):
    """The name of a point: its knobs in declaration order, then the macros outside the space; the base for {}."""
    if not point:
        return BASE
    knobs = [f"{p.short}_{point[p.short]}" for p in params]
    return ".".join(knobs + [f"{k}_{v}" for k, v in point.items() if k.startswith("TUNE_")])


def parse_variant_name(name):
    """{short or TUNE_* macro: value} of a variant's name ("tpb_256.ipt_16"); {} for the base."""
    if name == BASE:
        return {}
    out = {}
    for part in name.split("."):
        short, _, value = part.rpartition("_")
        out[short] = int(value)
    return out


def variant_defines(params, point):
    """The compiler definitions of a variant (TUNE_BASE=0, one TUNE_* per knob and its macros), or of the base
    ({})."""
    if not point:
        return {"TUNE_BASE": "1"}
    defines = {"TUNE_BASE": "0"}
    defines.update({p.macro: str(point[p.short]) for p in params})
    defines.update({k: str(v) for k, v in point.items() if k.startswith("TUNE_")})
    return defines


# -- benchmarks and their names --------------------------------------------------------------------------------

def find_benchmarks(root, regex=None):
    """[(id, path)] of the tuning-format benchmarks under root whose id (<algorithm>.<flavor>) matches regex."""
    out = []
    for path in sorted(glob.glob(os.path.join(root, "benchmarks", "bench", "*", "*.cu"))):
        algorithm = os.path.basename(os.path.dirname(path))
        bench = f"{algorithm}.{os.path.splitext(os.path.basename(path))[0]}"
        if regex is None or re.search(regex, bench):
            out.append((bench, path))
    return out


def executable_path(build_dir, bench, ct, variant):
    """Where a search builds (bench, compile-time workload, variant): DIR/<bench>/<ct, '/' as ','>/<variant>."""
    return os.path.join(build_dir, bench, ct.replace("/", ",") or "all", variant)


def parse_executable_path(build_dir, path):
    """(bench, ct, variant) of a path made by executable_path."""
    bench, ct_dir, variant = os.path.relpath(path, build_dir).split(os.sep)
    return bench, "" if ct_dir == "all" else ct_dir.replace(",", "/"), variant


def strip_gbench_suffixes(name):
    """A benchmark name without Google Benchmark's own suffixes ("/manual_time", "/repeats:5", ...)."""
    return "/".join(p for p in name.split("/") if not GBENCH_SUFFIX_RE.match(p))


def gbench_filter(names):
    """A --benchmark_filter that selects the benchmarks `names` (with or without Google Benchmark's suffixes). Google
    Benchmark compiles it with std::regex or POSIX regcomp, depending on how it was built, and the two disagree on
    escapes such as \\{: every character of a name other than a letter, a digit or one of _/:=,- is matched by '.',
    which means the same to both. The caller keeps only the exact names among the results."""
    return "^(" + "|".join(re.sub(r"[^A-Za-z0-9_/:=,-]", ".", n) for n in names) + ")(/.*)?$"


@dataclass(frozen=True)
class Axis:
    name: str
    kind: str  # "ct", "io" or "rt"
    modifier: str
    value: str

    def key(self):
        tag = "" if self.kind == "rt" else "{" + self.kind + "}"
        mod = f"[{self.modifier}]" if self.modifier else ""
        return f"{self.name}{tag}{mod}:{self.value}"


def parse_benchmark_name(name):
    """(benchmark, [Axis]) of a Google Benchmark name in the documented form."""
    head = []
    axes = []
    for part in name.split("/"):
        if not part or GBENCH_SUFFIX_RE.match(part):
            continue
        m = AXIS_RE.match(part)
        if m:
            axis, kind, modifier, value = m.groups()
            axes.append(Axis(axis, kind or "rt", modifier or "", value))
        elif axes:
            raise ValueError(f"'{part}' in {name} follows an axis but is not one")
        else:
            head.append(part)
    return "/".join(head), axes


def workload_keys(axes):
    """(compile-time workload, runtime axes): the axes' keys joined by '/' (either may be '')."""
    ct = "/".join(a.key() for a in axes if a.kind == "ct")
    rt = "/".join(a.key() for a in axes if a.kind != "ct")
    return ct, rt


def case_key(name):
    """(compile-time workload, runtime workload) of a case: the runtime workload begins with the benchmark's own
    name, so that the cases of several benchmarks in one file keep apart."""
    head, axes = parse_benchmark_name(name)
    ct, rt = workload_keys(axes)
    return ct, "/".join(k for k in (head, rt) if k)


def parse_axis_filter(spec):
    """An axis selection, "T{ct}=[I32,I64]" or "Elements{io}[pow2]=28": (axis name, kind or None, set of values)."""
    m = re.match(r"^(\w+)(?:\{(ct|io)\})?(?:\[\w+\])?=(.+)$", spec)
    if not m:
        raise ValueError(f"not an axis selection: {spec}")
    name, kind, values = m.groups()
    return name, kind, set(_value_list(values))


def axes_selected(axes, filters):
    """Whether every filter names an axis of `axes` with one of its values, or an axis these do not have."""
    by_name = {a.name: a for a in axes}
    for name, kind, chosen in filters:
        a = by_name.get(name)
        if a is None:
            continue
        if kind is not None and a.kind != kind:
            continue
        if a.value not in chosen:
            return False
    return True


def _numeric(value):
    try:
        return float(value)
    except ValueError:
        return value


def parse_axes_key(key):
    """The axes of a workload key made by workload_keys() or case_key() (a benchmark's name in it is not an axis)."""
    return parse_benchmark_name(key)[1]


def rt_order(rt):
    """A sort key of runtime workloads: the benchmark's name, then each axis by value, numbers in numeric order."""
    head, axes = parse_benchmark_name(rt)
    order = []
    for a in axes:
        value = _numeric(a.value)
        order.append((a.name, (0, value, "") if isinstance(value, float) else (1, 0.0, value)))
    return head, order


# -- scores ----------------------------------------------------------------------------------------------------

def io_weights(rt_keys):
    """Weight of each runtime workload: the product of its {io} values' ranks among the values seen."""
    parsed = {k: parse_axes_key(k) for k in rt_keys}
    seen = {}
    for axes in parsed.values():
        for a in axes:
            if a.kind == "io":
                seen.setdefault(a.name, set()).add(a.value)
    rank = {name: {v: i + 1 for i, v in enumerate(sorted(vals, key=_numeric))} for name, vals in seen.items()}
    weights = {}
    for k, axes in parsed.items():
        w = 1
        for a in axes:
            if a.kind == "io":
                w *= rank[a.name][a.value]
        weights[k] = w
    return weights


def score(base, variant):
    """Score of a variant against the base on one compile-time workload: {rt workload: seconds, or FAILED} each.
    The workloads both have count, but for those the base failed; None where that leaves none. "failed": the number
    of workloads the variant failed (each a speedup of 0)."""
    common = [k for k in base if k in variant and 0 < base[k] < FAILED and variant[k] > 0]
    if not common:
        return None
    speedups = {k: base[k] / variant[k] for k in common}
    weights = io_weights(common)
    total = sum(weights[k] for k in common)
    return {
        "score": sum(weights[k] * speedups[k] for k in common) / total,
        "min": min(speedups.values()),
        "mean": sum(speedups.values()) / len(speedups),
        "max": max(speedups.values()),
        "workloads": len(common),
        "failed": sum(variant[k] == FAILED for k in common),
    }


def scores(times):
    """{(bench, ct): {variant: score dict}} from ResultsDB.times(); the base scores 1."""
    out = {}
    for key, by_variant in times.items():
        base = by_variant.get(BASE)
        if base is None:
            continue
        row = {}
        for variant, t in by_variant.items():
            s = score(base, t)
            if s is not None:
                row[variant] = s
        out[key] = row
    return out


def quantiles(values, qs):
    """The qs quantiles (0 <= q <= 1) of values, interpolated linearly between order statistics."""
    s = sorted(values)
    out = []
    for q in qs:
        position = q * (len(s) - 1)
        low = math.floor(position)
        high = min(low + 1, len(s) - 1)
        out.append(s[low] + (s[high] - s[low]) * (position - low))
    return out


def median(values):
    return quantiles(values, (0.5,))[0]


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else math.nan


def ratio_table(title, by_variant, names):
    """Lines of a table of one compile-time workload ({variant: {rt: seconds}}): per case the base's time and, per
    variant of `names`, base time / variant time; last, the geometric mean of those same ratios per variant."""
    base = by_variant.get(BASE, {})
    names = [n for n in names if n != BASE and n in by_variant]
    width = max([9] + [len(n) for n in names])
    cases = sorted(base, key=rt_order)
    case_width = max([40] + [len(c) for c in cases])
    lines = [f"{title}: base time / variant time (above 1: the variant is faster)",
             f"  {'case':{case_width}s} {'base us':>10s} " + " ".join(f"{n:>{width}s}" for n in names)]

    def cell(t, v):
        return "failed" if v == FAILED else "-" if v is None or t == FAILED else f"{t / v:.3f}"

    for case in cases:
        t = base[case]
        shown = "failed" if t == FAILED else f"{t * 1e6:.2f}"
        lines.append(f"  {case:{case_width}s} {shown:>10s} "
                     + " ".join(f"{cell(t, by_variant[n].get(case)):>{width}s}" for n in names))
    means, failures = [], []
    for n in names:
        s = score(base, by_variant[n])
        ratios = [base[c] / by_variant[n][c] for c in cases if c in by_variant[n]
                  and 0 < base[c] < FAILED and 0 < by_variant[n][c] < FAILED]
        means.append(f"{geomean(ratios):.3f}" if ratios else "-")
        failures.append(str(s["failed"]) if s else "-")
    lines.append(f"  {'geomean (base / variant)':{case_width}s} {'':10s} " + " ".join(f"{m:>{width}s}" for m in means))
    if any(f not in ("0", "-") for f in failures):
        lines.append(f"  {'failed cases (not in the geomean)':{case_width}s} {'':10s} "
                     + " ".join(f"{f:>{width}s}" for f in failures))
    return lines


# -- the toolchain ---------------------------------------------------------------------------------------------

def parse_gbench_output(stdout, names):
    """(samples, errors, message) of a Google Benchmark JSON report for the cases `names` (without suffixes):
    samples {name: [seconds per repetition]}, errors {name: why it has none} (an error or a skip it reported, or no
    result at all). (None, None, why) when stdout is not such a report, a non-JSON line included."""
    try:
        entries = json.loads(stdout)["benchmarks"]
    except json.JSONDecodeError as e:
        lines = stdout.splitlines()
        text = lines[e.lineno - 1] if 0 < e.lineno <= len(lines) else ""
        return None, None, f"the benchmark's output is not JSON: line {e.lineno}: {text[:200]!r} ({e.msg})"
    except (KeyError, TypeError):
        return None, None, "the benchmark's JSON report has no list of benchmarks"
    units = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    wanted = set(names)
    samples, errors = {}, {}
    for b in entries:
        name = strip_gbench_suffixes(b.get("run_name", b.get("name", "")))
        if b.get("run_type") == "aggregate" or name not in wanted:
            continue  # the filter's wildcards matched a neighbour
        if b.get("error_occurred") or b.get("skipped"):
            errors[name] = b.get("error_message") or b.get("skip_message") or "the case reported an error"
        elif b.get("time_unit", "ns") in units and isinstance(b.get("real_time"), (int, float)):
            samples.setdefault(name, []).append(b["real_time"] * units[b.get("time_unit", "ns")])
        else:
            errors[name] = f"no time in the report: {json.dumps(b)[:200]}"
    for name in wanted:
        if name not in samples and name not in errors:
            errors[name] = "no result reported"
    return {n: s for n, s in samples.items() if n not in errors}, errors, ""


SASS_OFFSET_RE = re.compile(r"/\*[0-9a-f]{4,}\*/")
SASS_ENCODING_RE = re.compile(r"/\*\s*0x[0-9a-f]+\s*\*/")
SASS_LABEL_RE = re.compile(r"\.L_x_\d+")
SASS_BRANCH_RE = re.compile(r"^(@!?U?P\w+\s+)?(BRA|BRX|JMP|JMX|CALL|BSSY|SSY|PBK|PCNT|RET)\b")


def parse_sass(text):
    """{(arch, kernel): (instructions, ...)} of `cuobjdump -sass` output, with what depends on where the code lies
    normalized away: instruction offsets and encodings dropped, labels numbered from 0 in each kernel, branch and call
    targets written ADDR. Equal tuples: the same code."""
    kernels, arch, current, labels = {}, "", None, {}

    def label(m):
        return f".L{labels.setdefault(m.group(0), len(labels))}"

    for line in text.splitlines():
        m = re.match(r"\s*(?:arch = |code for )(sm_\w+)", line)
        if m or re.match(r"\s*Fatbin ", line):
            arch = m.group(1) if m else arch
            current = None
            continue
        m = re.match(r"\s*Function\s*:\s*(\S+)", line)
        if m:
            key, copy = (arch, m.group(1)), 1
            while key in kernels:
                copy += 1
                key = (arch, f"{m.group(1)}#{copy}")
            current, labels = kernels.setdefault(key, []), {}
            continue
        if current is None:
            continue
        code = SASS_ENCODING_RE.sub("", SASS_OFFSET_RE.sub("", line)).strip().rstrip(";").strip()
        if not code or set(code) == {"."}:
            continue
        code = SASS_LABEL_RE.sub(label, code)
        if SASS_BRANCH_RE.match(code):
            code = re.sub(r"\b0x[0-9a-f]+\b", "ADDR", code)
        current.append(" ".join(code.split()))
    return {k: tuple(v) for k, v in kernels.items()}


def _kill_group(process):
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class Toolchain:
    """Builds, runs and disassembles benchmark binaries: nvcc, the benchmarks' Google Benchmark, cuobjdump. Every
    command runs in a process group of its own, killed whole when it outlasts its time, when the caller is
    interrupted, or on stop(): a compiler's children (cicc, ptxas) do not outlive it."""

    def __init__(self, arch="sm_90", build_timeout=600, run_timeout=300, repetitions=5, min_time=0.1, root=None,
                 nvcc="nvcc", cuobjdump="cuobjdump"):
        self.root = root or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the tree a build uses
        self.arch = arch
        self.build_timeout = build_timeout
        self.run_timeout = run_timeout
        self.repetitions = repetitions
        self.min_time = min_time
        self.nvcc = nvcc
        self.cuobjdump = cuobjdump
        self._min_time_flag = None
        self._lock = threading.Lock()
        self._live = set()
        self._stopped = False

    def _call(self, cmd, timeout):
        """(exit code, stdout, stderr) of cmd; the exit code is None when it ran past timeout seconds."""
        with self._lock:
            if self._stopped:
                return -signal.SIGKILL, "", "stopped"
            try:
                process = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                           errors="replace", start_new_session=True)
            except OSError as e:
                return 127, "", str(e)
            self._live.add(process)
        try:
            out, err = process.communicate(timeout=timeout)
            return process.returncode, out, err
        except subprocess.TimeoutExpired:
            _kill_group(process)
            out, err = process.communicate()
            return None, out, err
        except BaseException:  # KeyboardInterrupt above all
            _kill_group(process)
            process.wait()
            raise
        finally:
            with self._lock:
                self._live.discard(process)

    def stop(self):
        """Kills every command still running, whole, and starts no other: for an interrupted search."""
        with self._lock:
            self._stopped = True
            live = list(self._live)
        for process in live:
            _kill_group(process)

    def build(self, source, exe, defines):
        """(ok, seconds, message)."""
        cmd = [self.nvcc, "-std=c++17", "-O3", f"-arch={self.arch}", "--extended-lambda",
               "-I", os.path.join(self.root, "include"), "-I", os.path.join(self.root, "benchmarks", "support")]
        cmd += [f"-D{k}={v}" for k, v in defines.items()]
        cmd += [source, *sorted(glob.glob(os.path.join(self.root, "backend", "*.cpp"))), "-o", exe, "-lbenchmark",
                "-lpthread"]
        t = time.time()
        code, _, err = self._call(cmd, self.build_timeout)
        if code is None:
            return False, time.time() - t, f"build timed out after {self.build_timeout} s"
        return code == 0, time.time() - t, err[-4000:]

    def list_names(self, exe):
        code, out, err = self._call([exe, "--benchmark_list_tests=true"], 120)
        if code != 0:
            raise RuntimeError(f"{exe} --benchmark_list_tests failed: {err[-2000:]}")
        return [line.strip() for line in out.splitlines() if line.strip()]

    def _min_time(self, exe):
        # Google Benchmark 1.8 wants a unit ("0.1s"), 1.7 rejects one; listing answers which without a GPU. Every
        # binary links the same Google Benchmark: one probe answers for all.
        if self._min_time_flag is None:
            flag = f"--benchmark_min_time={self.min_time}s"
            code, _, _ = self._call([exe, "--benchmark_list_tests=true", flag], 120)
            self._min_time_flag = flag if code == 0 else f"--benchmark_min_time={self.min_time}"
        return self._min_time_flag

    def run(self, exe, names):
        """(samples, errors, message) as parse_gbench_output makes them; (None, None, why) for a failed run."""
        cmd = [exe, "--benchmark_format=json", f"--benchmark_filter={gbench_filter(names)}", self._min_time(exe),
               f"--benchmark_repetitions={self.repetitions}", "--benchmark_enable_random_interleaving=true"]
        code, out, err = self._call(cmd, self.run_timeout)
        if code is None:
            return None, None, f"run timed out after {self.run_timeout} s"
        if code != 0 or not out.strip():
            return None, None, err[-2000:] or (f"exit code {code}" if code else "no output")
        return parse_gbench_output(out, names)

    def sass(self, exe):
        """parse_sass of the binary's SASS."""
        code, out, err = self._call([self.cuobjdump, "-sass", exe], self.build_timeout)
        if code != 0:
            raise RuntimeError(f"{self.cuobjdump} -sass {exe} failed: {err[-2000:] or f'exit code {code}'}")
        return parse_sass(out)

    def context(self):
        """Device name and UUID of the GPU the runs use, the toolkit and the commit of the tree built."""
        ctx = {"device": "unknown", "uuid": "unknown-gpu", "toolkit": "unknown", "commit": "unknown"}
        visible = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0] or "0"
        code, out, _ = self._call(["nvidia-smi", "-i", visible, "--query-gpu=name,uuid", "--format=csv,noheader"],
                                  60)
        if code == 0 and out.strip():
            name, uuid = [x.strip() for x in out.strip().splitlines()[0].split(",")]
            ctx.update(device=name, uuid=uuid)
        code, out, _ = self._call([self.nvcc, "--version"], 60)
        m = re.search(r"release ([\d.]+), V([\d.]+)", out)
        if code == 0 and m:
            ctx["toolkit"] = m.group(2)
        code, out, _ = self._call(["git", "-C", self.root, "rev-parse", "--short", "HEAD"], 60)
        if code == 0:
            ctx["commit"] = out.strip()
        return ctx


# -- the results database --------------------------------------------------------------------------------------

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
  bench TEXT NOT NULL, variant TEXT NOT NULL, ct TEXT NOT NULL, rt TEXT NOT NULL,
  seconds REAL NOT NULL, samples TEXT NOT NULL,
  device TEXT, uuid TEXT, toolkit TEXT, commit_id TEXT, build_seconds REAL, created REAL,
  PRIMARY KEY (bench, variant, ct, rt));
CREATE TABLE IF NOT EXISTS failures (
  bench TEXT NOT NULL, variant TEXT NOT NULL, ct TEXT NOT NULL, stage TEXT NOT NULL, message TEXT,
  device TEXT, uuid TEXT, commit_id TEXT, created REAL,
  PRIMARY KEY (bench, variant, ct));
CREATE TABLE IF NOT EXISTS case_failures (
  bench TEXT NOT NULL, variant TEXT NOT NULL, ct TEXT NOT NULL, rt TEXT NOT NULL, message TEXT,
  device TEXT, uuid TEXT, commit_id TEXT, created REAL,
  PRIMARY KEY (bench, variant, ct, rt));
"""
TABLES = ("results", "failures", "case_failures")
FORMAT = 2  # PRAGMA user_version; 2: runtime workloads begin with the benchmark's name (case_key)


class DatabaseError(Exception):
    """A database a search must not add to: another GPU's, or of an earlier format."""


def database_path(build_dir, uuid):
    """One database per physical GPU, in the build folder."""
    safe = re.sub(r"[^A-Za-z0-9-]+", "_", uuid or "unknown-gpu")
    return os.path.join(build_dir, f"tuning-{safe}.sqlite")


class ResultsDB:
    """Results of a search: per (benchmark, variant, compile-time workload), the median time of each runtime
    workload with its samples and the cases that reported an error, or why the variant has none (a build or run that
    failed or ran out of time). Opened with a context (the GPU, toolkit and commit a search runs with) it is written
    to, and refuses to be if it holds another GPU's results; opened without one, it is only read."""

    def __init__(self, path, context=None):
        self.path = path
        self.context = dict(context or {})
        if context is None:
            self.db = sqlite3.connect(pathlib.Path(path).resolve().as_uri() + "?mode=ro", uri=True)
        else:
            self.db = sqlite3.connect(path)
            self.db.executescript(SCHEMA)
        self.tables = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if context is not None:
            self._check_writable()

    def _check_writable(self):
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        written = any(self.db.execute(f"SELECT EXISTS (SELECT 1 FROM {t})").fetchone()[0] for t in TABLES)
        if version < FORMAT and written:
            self.db.close()
            raise DatabaseError(f"{self.path} was written by an earlier search.py (its runtime workloads do not name "
                                f"their benchmark): search into a new database")
        uuid = self.context.get("uuid")
        others = [g for g in self.gpus() if g[0] != uuid]
        if others:
            self.db.close()
            raise DatabaseError(f"{self.path} holds results of {describe_gpus(others)}, not of this GPU "
                                f"({self.context.get('device')}, {uuid}): resume a search on the GPU that began it")
        self.db.execute(f"PRAGMA user_version = {FORMAT}")

    def close(self):
        self.db.close()

    def _rows(self, table, columns, bench, uuid, variant=None, ct=None):
        if table not in self.tables:
            return []
        conditions, args = [], []
        for column, value in (("bench", bench), ("uuid", uuid), ("variant", variant), ("ct", ct)):
            if value is not None:
                conditions.append(f"{column} = ?")
                args.append(value)
        where = " WHERE " + " AND ".join(conditions) if conditions else ""
        return self.db.execute(f"SELECT {columns} FROM {table}{where}", args).fetchall()

    def gpus(self):
        """[(uuid, device name)] of the GPUs whose results (or failures) the database holds."""
        found = {}
        for table in TABLES:
            for uuid, device in self._rows(table, "DISTINCT uuid, device", None, None):
                found.setdefault(uuid, device)
        return sorted(found.items(), key=lambda g: (g[0] or "", g[1] or ""))

    def done(self, bench, variant, ct):
        """Whether (bench, variant, ct) has results or a recorded failure: a resumed search skips it."""
        return any(self._rows(t, "1", bench, None, variant, ct) for t in TABLES)

    def add_run(self, bench, variant, ct, samples_by_rt, errors_by_rt=None, build_seconds=None):
        """A run's samples ({rt: [seconds]}) and the cases it failed ({rt: message}), in one transaction."""
        c = self.context
        now = time.time()
        with self.db:
            for rt, samples in samples_by_rt.items():
                self.db.execute(
                    "INSERT OR REPLACE INTO results VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    (bench, variant, ct, rt, median(samples), json.dumps(list(samples)), c.get("device"),
                     c.get("uuid"), c.get("toolkit"), c.get("commit"), build_seconds, now))
            for rt, message in (errors_by_rt or {}).items():
                self.db.execute("INSERT OR REPLACE INTO case_failures VALUES (?,?,?,?,?,?,?,?,?)",
                                (bench, variant, ct, rt, message[-2000:], c.get("device"), c.get("uuid"),
                                 c.get("commit"), now))

    def add_failure(self, bench, variant, ct, stage, message):
        c = self.context
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO failures VALUES (?,?,?,?,?,?,?,?,?)",
                            (bench, variant, ct, stage, message[-2000:], c.get("device"), c.get("uuid"),
                             c.get("commit"), time.time()))

    def times(self, bench=None, uuid=None):
        """{(bench, ct): {variant: {rt: seconds, or FAILED for a case that reported an error}}}, for one benchmark or
        all, one GPU or all."""
        out = {}
        for b, v, ct, rt, s in self._rows("results", "bench, variant, ct, rt, seconds", bench, uuid):
            out.setdefault((b, ct), {}).setdefault(v, {})[rt] = s
        for b, v, ct, rt in self._rows("case_failures", "bench, variant, ct, rt", bench, uuid):
            out.setdefault((b, ct), {}).setdefault(v, {})[rt] = FAILED
        return out

    def samples(self, bench=None, uuid=None):
        """{(bench, ct): {variant: {rt: [seconds per repetition]}}} of the cases measured."""
        out = {}
        for b, v, ct, rt, s in self._rows("results", "bench, variant, ct, rt, samples", bench, uuid):
            out.setdefault((b, ct), {}).setdefault(v, {})[rt] = json.loads(s)
        return out

    def failures(self, uuid=None):
        """[(bench, variant, ct, stage, message)]: builds and runs that failed (stage "build" or "run"), and cases
        that reported an error (stage "case", the message led by the runtime workload)."""
        cases = [(b, v, ct, "case", f"{rt}: {m}")
                 for b, v, ct, rt, m in self._rows("case_failures", "bench, variant, ct, rt, message", None, uuid)]
        return self._rows("failures", "bench, variant, ct, stage, message", None, uuid) + cases


def describe_gpus(gpus):
    return ", ".join(f"{device} ({uuid})" for uuid, device in gpus) or "no GPU"
