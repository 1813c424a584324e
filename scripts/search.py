#!/usr/bin/env python3
"""Searches the policy space of benchmarks in the tuning format (benchmarks/bench/<algorithm>/<flavor>.cu).

  scripts/search.py -l [-R REGEX]                      # the benchmarks, their knobs and variant counts; no build
  scripts/search.py -R 'radix_sort\\.keys' -a 'KeyT{ct}=[U32,U64]' -a 'Elements{io}[pow2]=[24,28]' --build DIR
  scripts/search.py -R 'radix_sort\\.keys' -a 'KeyT{ct}=U64' -p 'tpb=[256,384]' -p 'ipt=[16,20,24]' --build DIR
  scripts/search.py -R '^scan\\.sum$' --variant 'tpb=256,ipt=20@T{ct}=I32' --variant ... --build DIR   # a short list

Benchmarks are named <algorithm>.<flavor> (radix_sort.keys); -R selects them by regex. -a selects axis values (see
scripts/tuning_core.py for the names); every selected value of every axis is searched in one invocation. For each
compile-time workload (one value per {ct} axis) the base (TUNE_BASE=1) and the variants are built, narrowed to that
workload by one -DTUNE_<axis>=<value> per {ct} axis, all cores building while the GPU runs the binaries already built,
one at a time. The variants are every point of the space (narrowed to the values -p chooses for a knob, named by its
short name), --sample N points drawn from it, or the points that --variant lists (then a table of each case's ratios
follows). A build or run that fails or outlasts its time limit is recorded and skipped, and so is a case that
reports an error. Results go to DIR/tuning-<GPU UUID>.sqlite; run again, the search does only what is missing (on
the same GPU: a database of another GPU is refused). Ctrl-C stops it at once, losing only the runs in flight.
scripts/analyze.py reads the database.
"""
import argparse
import concurrent.futures
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tuning_core as tc  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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


def search_points(params, base_only=False, sample=0, seed=0, specs=(), knobs=()):
    """[(point, case filters)] to search in a space narrowed by knobs, the base first: the base alone, the points of
    the variant specs (tuning_core.VariantSpec), a sample, or every point."""
    points = [({}, ())]
    if base_only:
        return points
    if specs:
        names = set()
        for spec in specs:
            for point in tc.spec_points(params, spec, knobs):
                if tc.variant_name(params, point) not in names:
                    names.add(tc.variant_name(params, point))
                    points.append((point, spec.cases))
        return points
    space = tc.restrict_space(params, knobs)
    if sample:
        return points + [(p, ()) for p in tc.sample(space, sample, seed)]
    tc.check_size(tc.space_size(space), "the space")
    return points + [(p, ()) for p in tc.variants(space)]


def run_search(benches, filters, db, runner, build_dir, jobs, log=print, base_only=False, sample=0, seed=0,
               knobs=(), specs=(), keep=False):
    """Searches every selected workload of every benchmark; returns the number of runs made. base_only: the base
    alone (what scripts/analyze.py --verify compares before and after a tuning lands). sample: that many variants
    drawn from the space (seeded, so that a resumed search draws the same), not all of them. knobs: knob filters
    (tuning_core.parse_knob_filter) that narrow the space. specs: the variants to search (tuning_core.VariantSpec),
    not the space; a table of their ratios follows. keep: keep the binaries (analyze.py --verify --sass reads the
    base's). An interruption (KeyboardInterrupt) kills the builds and the run in flight and propagates: what was
    measured is in the database, and a search started again does the rest."""
    made = 0
    for bench, path in benches:
        params = tc.read_space(path)
        plan = search_points(params, base_only, sample, seed, specs, knobs)
        listing = os.path.join(build_dir, f"{bench}.list")
        if not os.path.exists(listing) or os.path.getmtime(listing) < os.path.getmtime(path):
            ok, _, message = runner.build(path, listing, {"TUNE_BASE": "1"})
            if not ok:
                log(f"{bench}: the base does not build; skipped\n{message}")
                continue
        try:
            chosen = workloads(runner.list_names(listing), filters)
        except RuntimeError as e:
            log(f"{bench}: the base does not list its cases; skipped\n{e}")
            continue
        todo = []
        for ct, (ct_axes, names) in chosen.items():
            for point, cases in plan:
                variant = tc.variant_name(params, point)
                selected = [n for n in names if tc.axes_selected(tc.parse_benchmark_name(n)[1], cases)]
                if selected and not db.done(bench, variant, ct):
                    defines = tc.variant_defines(params, point)
                    defines.update({f"TUNE_{axis}": value for axis, value in ct_axes.items()})
                    todo.append((ct, variant, defines, selected))
        log(f"{bench}: {len(chosen)} compile-time workloads x {len(plan)} variants; {len(todo)} to run")
        made += measure(bench, path, todo, db, runner, build_dir, jobs, log, keep)
        if specs:
            for (_, ct), by_variant in sorted(db.times(bench).items()):
                if ct in chosen:
                    log("\n".join(tc.ratio_table(f"{bench} {ct or '(one workload)'}", by_variant,
                                                 [tc.variant_name(params, point) for point, _ in plan])))
    return made


def measure(bench, path, todo, db, runner, build_dir, jobs, log, keep):
    """Builds todo's [(ct, variant, defines, case names)] on `jobs` threads and runs each binary as it is built, one
    at a time; records every result and failure. Returns the number of runs."""
    if not todo:
        return 0
    started = time.time()
    made = 0

    def build_one(ct, variant, defines):
        exe = tc.executable_path(build_dir, bench, ct, variant)
        os.makedirs(os.path.dirname(exe), exist_ok=True)
        ok, seconds, message = runner.build(path, exe, defines)
        return exe, ok, seconds, message

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    try:
        futures = {pool.submit(build_one, ct, variant, defines): (ct, variant, names)
                   for ct, variant, defines, names in todo}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            ct, variant, names = futures[future]
            exe, ok, build_seconds, message = future.result()
            if not ok:
                db.add_failure(bench, variant, ct, "build", message)
                log(f"{bench} {ct} {variant}: build failed: {first_error(message)}")
            else:
                samples, errors, message = runner.run(exe, names)
                made += 1
                if not keep and os.path.exists(exe):
                    os.remove(exe)  # thousands of variants would fill the disk
                if samples is None:
                    db.add_failure(bench, variant, ct, "run", message)
                    log(f"{bench} {ct} {variant}: run failed: {first_error(message)}")
                else:
                    db.add_run(bench, variant, ct, {tc.case_key(n)[1]: s for n, s in samples.items()},
                               {tc.case_key(n)[1]: e for n, e in errors.items()}, build_seconds)
                    if errors:
                        name, error = min(errors.items())
                        log(f"{bench} {ct} {variant}: {len(errors)} of {len(names)} cases failed, {name}: "
                            f"{first_error(error)}")
            log(progress_line(db, bench, ct, done, len(todo), started))
    except BaseException:  # KeyboardInterrupt above all: stop now, not after the builds still queued
        pool.shutdown(wait=False, cancel_futures=True)
        runner.stop()
        raise
    pool.shutdown()
    return made


def first_error(message):
    """The line of a compiler's or a benchmark's output that says what went wrong (else its last line)."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    for line in lines:
        if re.search(r"error|fatal|timed out|failed|not JSON", line, re.IGNORECASE):
            return line[:300]
    return lines[-1][:300] if lines else "(no output)"


def progress_line(db, bench, ct, done, total, started):
    best = None
    for variant, s in tc.scores(db.times(bench)).get((bench, ct), {}).items():
        if variant != tc.BASE and not s["failed"] and (best is None or s["score"] > best[1]):
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
    p.add_argument("--variant", action="append", default=[], metavar="SPEC",
                   help="search this variant rather than the space: 'tpb=256,ipt=20' (knobs it leaves out take each "
                        "value -p or their range allows), with macros outside the space ('...,TUNE_RADIX_BITS=7') "
                        "and the cases it runs ('...@T{ct}=[I32,F32]'); repeatable; prints each case's ratios")
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
    p.add_argument("--keep-binaries", action="store_true",
                   help="keep the binaries in the build folder (analyze.py --verify --sass compares the base's)")
    p.add_argument("--db", help="the database (default: DIR/tuning-<GPU UUID>.sqlite)")
    p.add_argument("--sample", type=int, default=0, help="search this many variants drawn from the space, not all")
    p.add_argument("--seed", type=int, default=0, help="the draw of --sample")
    args = p.parse_args(argv)

    root = os.path.abspath(args.root)
    try:
        benches = tc.find_benchmarks(root, args.regex)
        knobs = [tc.parse_knob_filter(k) for k in args.knobs]
        specs = [tc.parse_variant_spec(v) for v in args.variant]
        spaces = {bench: tc.read_space(path) for bench, path in benches}
        filters = [tc.parse_axis_filter(a) for a in args.axes]
    except ValueError as e:
        p.error(str(e))
    if specs and (args.sample or args.base_only):
        p.error("--variant lists the variants: it takes neither --sample nor --base-only")
    declared = {q.short for params in spaces.values() for q in params}
    unknown = sorted({short for short, _ in knobs + [k for s in specs for k in s.knobs]} - declared)
    if unknown:
        p.error(f"no selected benchmark declares the knob(s) {unknown}")
    if args.list:
        for bench, path in benches:
            params = tc.restrict_space(spaces[bench], knobs)
            ranges = ", ".join(f"{q.short} {q.first}:{q.last}:{q.step}"
                               + (f" {list(q.only)}" if q.only is not None else "") + f" ({len(q.values)})"
                               for q in params)
            print(f"{bench:24s} {tc.space_size(params):12d} variants  {ranges}  {os.path.relpath(path, root)}")
        return 0
    os.makedirs(args.build, exist_ok=True)
    runner = tc.Toolchain(args.arch, args.build_timeout, args.run_timeout, args.repetitions, root=root)
    ctx = runner.context()
    try:
        db = tc.ResultsDB(args.db or tc.database_path(args.build, ctx["uuid"]), ctx)
    except tc.DatabaseError as e:
        print(e, file=sys.stderr)
        return 2
    try:
        run_search(benches, filters, db, runner, args.build, args.jobs, base_only=args.base_only,
                   sample=args.sample, seed=args.seed, knobs=knobs, specs=specs, keep=args.keep_binaries)
    except KeyboardInterrupt:
        print(f"interrupted; what was measured is in {db.path}: run the same command again to finish",
              file=sys.stderr)
        return 130
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2
    finally:
        db.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
