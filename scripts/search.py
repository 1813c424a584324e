#!/usr/bin/env python3
"""Searches the policy space of benchmarks in the tuning format (benchmarks/bench/<algorithm>/<flavor>.cu).

  scripts/search.py -l [-R REGEX]                      # the benchmarks, their knobs and variant counts; no build
  scripts/search.py -R 'radix_sort\\.keys' -a 'KeyT{ct}=[U32,U64]' -a 'Elements{io}[pow2]=[24,28]' --build DIR
  scripts/search.py -R 'radix_sort\\.keys' -a 'KeyT{ct}=U64' -p 'tpb=[256,384]' -p 'ipt=[16,20,24]' --build DIR

Benchmarks are named <algorithm>.<flavor> (radix_sort.keys); -R selects them by regex. -a selects axis values (see
scripts/tuning_core.py for the names); every selected value of every axis is searched in one invocation. For each
compile-time workload (one value per {ct} axis) the base (TUNE_BASE=1) and every variant of the space (narrowed to the
values -p chooses for a knob, named by its short name) are built,
narrowed to that workload by one -DTUNE_<axis>=<value> per {ct} axis, all cores building while the GPU runs the
binaries already built, one at a time. A build or run that fails or outlasts its time limit is recorded and skipped.
Results go to DIR/tuning-<GPU UUID>.sqlite; run again, the search does only what is missing. scripts/analyze.py
reads the database.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tuning_core as tc  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def find_benchmarks(root, regex=None):
    """[(id, path)] of the tuning-format benchmarks whose id (<algorithm>.<flavor>) matches regex."""
    out = []
    for path in sorted(glob.glob(os.path.join(root, "benchmarks", "bench", "*", "*.cu"))):
        algorithm = os.path.basename(os.path.dirname(path))
        flavor = os.path.splitext(os.path.basename(path))[0]
        bench = f"{algorithm}.{flavor}"
        if regex is None or re.search(regex, bench):
            out.append((bench, path))
    return out


class Toolchain:
    """Builds and runs benchmark binaries: nvcc, and the benchmarks' Google Benchmark."""

    def __init__(self, arch="sm_90", build_timeout=600, run_timeout=300, repetitions=5, min_time=0.1, root=ROOT):
        self.root = root  # the source tree whose headers and backend a build uses
        self.arch = arch
        self.build_timeout = build_timeout
        self.run_timeout = run_timeout
        self.repetitions = repetitions
        self.min_time = min_time
        self._min_time_flag = None

    def build(self, source, exe, defines):
        """(ok, seconds, message)."""
        cmd = ["nvcc", "-std=c++17", "-O3", f"-arch={self.arch}", "--extended-lambda",
               "-I", os.path.join(self.root, "include"), "-I", os.path.join(self.root, "benchmarks", "support")]
        cmd += [f"-D{k}={v}" for k, v in defines.items()]
        cmd += [source, *sorted(glob.glob(os.path.join(self.root, "backend", "*.cpp"))), "-o", exe, "-lbenchmark",
                "-lpthread"]
        t = time.time()
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=self.build_timeout)
        except subprocess.TimeoutExpired:
            return False, time.time() - t, f"build timed out after {self.build_timeout} s"
        return r.returncode == 0, time.time() - t, r.stderr[-4000:]

    def list_names(self, exe):
        r = subprocess.run([exe, "--benchmark_list_tests=true"], capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise RuntimeError(f"{exe} --benchmark_list_tests failed: {r.stderr[-2000:]}")
        return [line.strip() for line in r.stdout.splitlines() if line.strip()]

    def _min_time(self, exe):
        # Google Benchmark 1.8 wants a unit ("0.1s"), 1.7 rejects one; listing answers which without a GPU.
        if self._min_time_flag is None:
            flag = f"--benchmark_min_time={self.min_time}s"
            r = subprocess.run([exe, "--benchmark_list_tests=true", flag], capture_output=True)
            self._min_time_flag = flag if r.returncode == 0 else f"--benchmark_min_time={self.min_time}"
        return self._min_time_flag

    def run(self, exe, names):
        """({benchmark name: [seconds per repetition]}, message); None for a failed or timed-out run."""
        cmd = [exe, "--benchmark_format=json", f"--benchmark_filter={tc.gbench_filter(names)}", self._min_time(exe),
               f"--benchmark_repetitions={self.repetitions}", "--benchmark_enable_random_interleaving=true"]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=self.run_timeout)
        except subprocess.TimeoutExpired:
            return None, f"run timed out after {self.run_timeout} s"
        if r.returncode != 0 or not r.stdout.strip():
            return None, r.stderr[-2000:] or f"exit code {r.returncode}"
        units = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
        wanted = set(names)
        samples = {}
        for b in json.loads(r.stdout)["benchmarks"]:
            if b.get("run_type") == "aggregate" or b.get("error_occurred"):
                continue
            name = b.get("run_name", b["name"])
            if tc.strip_gbench_suffixes(name) not in wanted:
                continue  # the filter's wildcards matched a neighbour
            samples.setdefault(name, []).append(b["real_time"] * units[b.get("time_unit", "ns")])
        return samples, ""


def gpu_context(root=ROOT):
    """Device name and UUID of the GPU the runs use, the toolkit and the commit of `root`."""
    ctx = {"device": "unknown", "uuid": "unknown-gpu", "toolkit": "unknown", "commit": "unknown"}
    try:
        visible = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0] or "0"
        r = subprocess.run(["nvidia-smi", "-i", visible, "--query-gpu=name,uuid", "--format=csv,noheader"],
                           capture_output=True, text=True)
        if r.returncode == 0 and r.stdout.strip():
            name, uuid = [x.strip() for x in r.stdout.strip().splitlines()[0].split(",")]
            ctx.update(device=name, uuid=uuid)
    except OSError:
        pass
    try:
        r = subprocess.run(["nvcc", "--version"], capture_output=True, text=True)
        m = re.search(r"release ([\d.]+), V([\d.]+)", r.stdout)
        if m:
            ctx["toolkit"] = m.group(2)
    except OSError:
        pass
    r = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if r.returncode == 0:
        ctx["commit"] = r.stdout.strip()
    return ctx


def workloads(names, filters):
    """{ct workload: ({ct axis: value}, [benchmark names])} of the names that the axis filters select (without Google
    Benchmark's suffixes such as "/manual_time", which a filter need not match)."""
    out = {}
    for name in names:
        _, axes = tc.parse_benchmark_name(name)
        if not tc.axes_selected(axes, filters):
            continue
        ct, _ = tc.workload_keys(axes)
        entry = out.setdefault(ct, ({a.name: a.value for a in axes if a.kind == "ct"}, []))
        entry[1].append(tc.strip_gbench_suffixes(name))
    return out


def run_search(benches, filters, db, runner, build_dir, jobs, log=print, base_only=False, sample=0, seed=0,
               knobs=()):
    """Searches every selected workload of every benchmark; returns the number of runs made. base_only: the base
    alone (what scripts/analyze.py --verify compares before and after a tuning lands). sample: that many variants
    drawn from the space (seeded, so that a resumed search draws the same), not all of them. knobs: knob filters
    (tuning_core.parse_knob_filter) that narrow the space."""
    made = 0
    for bench, path in benches:
        with open(path) as f:
            params = tc.restrict_space(tc.parse_space(f.read()), knobs)
        if base_only:
            points = [{}]
        else:
            points = [{}] + (tc.sample(params, sample, seed) if sample else list(tc.variants(params)))
        listing = os.path.join(build_dir, f"{bench}.list")
        if not os.path.exists(listing) or os.path.getmtime(listing) < os.path.getmtime(path):
            ok, _, message = runner.build(path, listing, {"TUNE_BASE": "1"})
            if not ok:
                log(f"{bench}: the base does not build; skipped\n{message}")
                continue
        chosen = workloads(runner.list_names(listing), filters)
        todo = [(ct, point) for ct in chosen for point in points
                if not db.done(bench, tc.variant_name(params, point) if point else tc.BASE, ct)]
        total = len(todo)
        log(f"{bench}: {len(chosen)} compile-time workloads x {len(points)} variants; {total} to run")
        if not todo:
            continue
        started = time.time()

        def build_one(ct, point):
            name = tc.variant_name(params, point) if point else tc.BASE
            exe = os.path.join(build_dir, bench, re.sub(r"[^A-Za-z0-9_.=-]+", "_", ct) or "all", name)
            os.makedirs(os.path.dirname(exe), exist_ok=True)
            defines = tc.variant_defines(params, point)
            defines.update({f"TUNE_{axis}": value for axis, value in chosen[ct][0].items()})
            ok, seconds, message = runner.build(path, exe, defines)
            return name, exe, ok, seconds, message

        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(build_one, ct, point): ct for ct, point in todo}
            done = 0
            for future in concurrent.futures.as_completed(futures):
                ct = futures[future]
                name, exe, ok, build_seconds, message = future.result()
                done += 1
                if not ok:
                    db.add_failure(bench, name, ct, "build", message)
                    log(f"{bench} {ct} {name}: build failed: {first_error(message)}")
                else:
                    samples, message = runner.run(exe, chosen[ct][1])
                    made += 1
                    if os.path.exists(exe):
                        os.remove(exe)  # thousands of variants would fill the disk
                    if not samples:
                        message = message or "no results: every case reported an error"
                        db.add_failure(bench, name, ct, "run", message)
                        log(f"{bench} {ct} {name}: run failed: {first_error(message)}")
                    else:
                        by_rt = {}
                        for full, values in samples.items():
                            _, axes = tc.parse_benchmark_name(full)
                            by_rt[tc.workload_keys(axes)[1]] = values
                        db.add_results(bench, name, ct, by_rt, build_seconds)
                log(progress_line(db, bench, ct, done, total, started))
    return made


def first_error(message):
    """The line of a compiler's or a benchmark's output that says what went wrong (else its last line)."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    for line in lines:
        if re.search(r"error|fatal|timed out|failed", line, re.IGNORECASE):
            return line[:300]
    return lines[-1][:300] if lines else "(no output)"


def progress_line(db, bench, ct, done, total, started):
    best = None
    for variant, s in tc.scores(db.times(bench)).get((bench, ct), {}).items():
        if variant != tc.BASE and (best is None or s["score"] > best[1]):
            best = (variant, s["score"])
    elapsed = time.time() - started
    left = elapsed / done * (total - done) if done else 0
    best_text = f"best {best[0]} {best[1]:.3f}" if best else "best -"
    return f"[{done}/{total}] {bench} {ct or '(one workload)'}: {best_text}; about {left / 60:.0f} min left"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-R", dest="regex", help="benchmarks to search (regex over <algorithm>.<flavor>)")
    p.add_argument("-a", dest="axes", action="append", default=[], help="axis values, e.g. 'T{ct}=[I32,I64]'")
    p.add_argument("-p", dest="knobs", action="append", default=[],
                   help="knob values to search, by short name, e.g. 'ipt=[16,20,24]' (default: the declared range)")
    p.add_argument("-l", dest="list", action="store_true", help="list the selected benchmarks; build nothing")
    p.add_argument("--build", default=os.path.join(ROOT, "build-tune"), help="build folder (and its databases)")
    p.add_argument("--root", default=ROOT,
                   help="the source tree to build (default: this checkout); e.g. a worktree of the commit before a "
                        "tuning, measured with --base-only for analyze.py --verify on the same GPU")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--jobs", type=int, default=os.cpu_count())
    p.add_argument("--build-timeout", type=int, default=600, help="seconds a variant may take to build")
    p.add_argument("--run-timeout", type=int, default=300, help="seconds a variant may take to run")
    p.add_argument("--repetitions", type=int, default=5)
    p.add_argument("--base-only", action="store_true",
                   help="run only the base: with --db, the before or after database of analyze.py --verify")
    p.add_argument("--db", help="the database (default: DIR/tuning-<GPU UUID>.sqlite)")
    p.add_argument("--sample", type=int, default=0, help="search this many variants drawn from the space, not all")
    p.add_argument("--seed", type=int, default=0, help="the draw of --sample")
    args = p.parse_args(argv)

    root = os.path.abspath(args.root)
    benches = find_benchmarks(root, args.regex)
    knobs = [tc.parse_knob_filter(k) for k in args.knobs]
    declared = set()
    for _, path in benches:
        with open(path) as f:
            declared |= {q.short for q in tc.parse_space(f.read())}
    unknown = sorted({short for short, _ in knobs} - declared)
    if unknown:
        p.error(f"no selected benchmark declares the knob(s) {unknown}")
    if args.list:
        for bench, path in benches:
            with open(path) as f:
                params = tc.restrict_space(tc.parse_space(f.read()), knobs)
            ranges = ", ".join(f"{q.short} {q.first}:{q.last}:{q.step}"
                               + (f" {list(q.only)}" if q.only is not None else "") + f" ({len(q.values)})"
                               for q in params)
            print(f"{bench:24s} {tc.space_size(params):12d} variants  {ranges}  {os.path.relpath(path, root)}")
        return 0
    filters = [tc.parse_axis_filter(a) for a in args.axes]
    os.makedirs(args.build, exist_ok=True)
    ctx = gpu_context(root)
    db = tc.ResultsDB(args.db or tc.database_path(args.build, ctx["uuid"]), ctx)
    runner = Toolchain(args.arch, args.build_timeout, args.run_timeout, args.repetitions, root=root)
    try:
        run_search(benches, filters, db, runner, args.build, args.jobs, base_only=args.base_only,
                   sample=args.sample, seed=args.seed, knobs=knobs)
    finally:
        db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
