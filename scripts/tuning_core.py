"""The pieces of the tuning workflow that scripts/search.py and scripts/analyze.py share.

Search space. A benchmark in the tuning format (benchmarks/bench/<algorithm>/<flavor>.cu) declares one knob per line:
    // %RANGE% TUNE_ITEMS_PER_THREAD ipt 7:24:1
(macro, short name, first:last:step, last included). A variant is one value per knob, named by the short names
in declaration order: "tpb_256.ipt_16". The base (the library's own tuning, TUNE_BASE=1) is the variant "base".

Benchmark names. After the benchmark's own name, each axis is one path element "Name{tag}[modifier]:value" (Google
Benchmark's own form for named arguments):
    radix_sort_keys/KeyT{ct}:U32/Elements{io}[pow2]:24/Entropy:544
{ct}: a compile-time axis (a type: -DTUNE_<Name>=<value> narrows a build of the benchmark to that one value; the
tokens are benchmarks/support/tuning_axes.cuh's); {io}: a runtime axis whose later values (in numeric order) weigh
more in a score; no tag: any other runtime axis. [pow2]: the value is a power of two's exponent. Google Benchmark's
own suffixes ("/manual_time", "/real_time", "/repeats:3", ...) are not axes. On the command line of search.py an
axis selection is written with '=': -a 'KeyT{ct}=[U32,U64]', -a 'Elements{io}[pow2]=28'.

Score. For one variant and one compile-time workload: the weighted mean over runtime workloads of base time /
variant time (above 1: the variant is faster), each workload weighing the product of its {io} values' ranks
(1, 2, ... in numeric order among the values seen); with the unweighted min, mean and max.
"""
import itertools
import json
import math
import os
import random
import re
import sqlite3
import time
from dataclasses import dataclass

RANGE_RE = re.compile(r"^\s*//\s*%RANGE%\s+(TUNE_\w+)\s+(\w+)\s+(-?\d+):(-?\d+):(\d+)\s*$")
AXIS_RE = re.compile(r"^(\w+)(?:\{(ct|io)\})?(?:\[(\w+)\])?:(.+)$")
GBENCH_SUFFIX_RE = re.compile(r"^(manual_time|real_time|process_time|(iterations|repeats|threads|min_time|"
                              r"min_warmup_time):[^{}\[\]]*)$")
BASE = "base"


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


def parse_space(text):
    """The %RANGE% knobs of a benchmark source, in declaration order."""
    params = []
    for line in text.splitlines():
        m = RANGE_RE.match(line)
        if m:
            macro, short, first, last, step = m.groups()
            if int(step) <= 0 or int(last) < int(first):
                raise ValueError(f"empty range in: {line.strip()}")
            params.append(Param(macro, short, int(first), int(last), int(step)))
    shorts = [p.short for p in params]
    if len(set(shorts)) != len(shorts):
        raise ValueError(f"a short name is declared twice: {shorts}")
    return params


def parse_knob_filter(spec):
    """A knob selection, "ipt=[16,20,24]" or "mb=3": (short name, set of values)."""
    m = re.match(r"^(\w+)=(.+)$", spec)
    if not m:
        raise ValueError(f"not a knob selection: {spec}")
    short, values = m.groups()
    if values.startswith("[") and values.endswith("]"):
        values = values[1:-1]
    try:
        chosen = {int(v) for v in values.split(",") if v.strip()}
    except ValueError:
        raise ValueError(f"knob values are integers: {spec}") from None
    return short, chosen


def restrict_space(params, knob_filters):
    """The space with each filtered knob narrowed to the chosen values, which must be points of its declared range.
    A filter of a knob the space does not declare is left out (a search of several benchmarks may name knobs of one
    of them)."""
    by_short = {p.short: p for p in params}
    narrowed = dict(by_short)
    for short, chosen in knob_filters:
        if short not in by_short:
            continue
        outside = sorted(chosen - set(by_short[short].values))
        if outside:
            raise ValueError(f"{short}={outside} lies outside its range {by_short[short].first}:"
                             f"{by_short[short].last}:{by_short[short].step}")
        p = narrowed[short]
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


def variant_name(params, point):
    return ".".join(f"{p.short}_{point[p.short]}" for p in params)


def parse_variant_name(name):
    """{short: value} of a variant's name ("tpb_256.ipt_16"); {} for the base."""
    if name == BASE:
        return {}
    out = {}
    for part in name.split("."):
        short, _, value = part.rpartition("_")
        out[short] = int(value)
    return out


def variant_defines(params, point):
    """The compiler definitions of a variant (TUNE_BASE=0 and one TUNE_* per knob), or of the base ({})."""
    if not point:
        return {"TUNE_BASE": "1"}
    defines = {"TUNE_BASE": "0"}
    defines.update({p.macro: str(point[p.short]) for p in params})
    return defines


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
    parts = name.split("/")
    head = []
    axes = []
    for part in parts:
        if GBENCH_SUFFIX_RE.match(part):
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
    """(compile-time workload, runtime workload): the axes' keys joined by '/' (either may be '')."""
    ct = "/".join(a.key() for a in axes if a.kind == "ct")
    rt = "/".join(a.key() for a in axes if a.kind != "ct")
    return ct, rt


def parse_axis_filter(spec):
    """An axis selection, "T{ct}=[I32,I64]" or "Elements{io}[pow2]=28": (axis name, kind or None, set of values)."""
    m = re.match(r"^(\w+)(?:\{(ct|io)\})?(?:\[\w+\])?=(.+)$", spec)
    if not m:
        raise ValueError(f"not an axis selection: {spec}")
    name, kind, values = m.groups()
    if values.startswith("[") and values.endswith("]"):
        chosen = {v.strip() for v in values[1:-1].split(",") if v.strip()}
    else:
        chosen = {values.strip()}
    return name, kind, chosen


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
    """The axes of a workload key made by workload_keys()."""
    axes = []
    for part in key.split("/"):
        if part:
            name, kind, modifier, value = AXIS_RE.match(part).groups()
            axes.append(Axis(name, kind or "rt", modifier or "", value))
    return axes


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
    """Score of a variant against the base on one compile-time workload: {rt workload: seconds} each. Only the
    workloads both have count; None where they share none."""
    common = [k for k in base if k in variant and base[k] > 0 and variant[k] > 0]
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
    }


def median(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


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
"""


def database_path(build_dir, uuid):
    """One database per physical GPU, in the build folder."""
    safe = re.sub(r"[^A-Za-z0-9-]+", "_", uuid or "unknown-gpu")
    return os.path.join(build_dir, f"tuning-{safe}.sqlite")


class ResultsDB:
    """Results of a search: per (benchmark, variant, compile-time workload), the median time of each runtime
    workload with its samples, or why the variant has none (a build or run that failed or ran out of time)."""

    def __init__(self, path, context=None):
        self.path = path
        self.context = dict(context or {})
        self.db = sqlite3.connect(path)
        self.db.executescript(SCHEMA)

    def close(self):
        self.db.close()

    def done(self, bench, variant, ct):
        """Whether (bench, variant, ct) has results or a recorded failure: a resumed search skips it."""
        for table in ("results", "failures"):
            row = self.db.execute(f"SELECT 1 FROM {table} WHERE bench=? AND variant=? AND ct=? LIMIT 1",
                                  (bench, variant, ct)).fetchone()
            if row:
                return True
        return False

    def add_results(self, bench, variant, ct, samples_by_rt, build_seconds=None):
        c = self.context
        now = time.time()
        with self.db:
            for rt, samples in samples_by_rt.items():
                self.db.execute(
                    "INSERT OR REPLACE INTO results VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    (bench, variant, ct, rt, median(samples), json.dumps(list(samples)), c.get("device"),
                     c.get("uuid"), c.get("toolkit"), c.get("commit"), build_seconds, now))

    def add_failure(self, bench, variant, ct, stage, message):
        c = self.context
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO failures VALUES (?,?,?,?,?,?,?,?,?)",
                            (bench, variant, ct, stage, message[-2000:], c.get("device"), c.get("uuid"),
                             c.get("commit"), time.time()))

    def times(self, bench=None):
        """{(bench, ct): {variant: {rt: seconds}}}, for one benchmark or all."""
        q = "SELECT bench, variant, ct, rt, seconds FROM results"
        args = ()
        if bench is not None:
            q += " WHERE bench=?"
            args = (bench,)
        out = {}
        for b, v, ct, rt, s in self.db.execute(q, args):
            out.setdefault((b, ct), {}).setdefault(v, {})[rt] = s
        return out

    def failures(self):
        return list(self.db.execute("SELECT bench, variant, ct, stage, message FROM failures"))


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
