"""Fakes for the host tests of the tuning scripts: a toolchain in Python (FakeToolchain), and a compiler, a benchmark
and a disassembler as programs (write_fake_nvcc, write_fake_cuobjdump) for the real tuning_core.Toolchain. No GPU,
no CUDA."""
import inspect
import os
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import search  # noqa: E402
import tuning_core as tc  # noqa: E402

SOURCE = """// a benchmark in the tuning format
// %RANGE% TUNE_THREADS_PER_BLOCK tpb 128:384:128
//   %RANGE%   TUNE_ITEMS_PER_THREAD ipt 7:9:1
int main() {}
"""
CONTEXT = {"device": "Fake GPU", "uuid": "GPU-1234-abcd", "toolkit": "13.0", "commit": "abc1234"}
NAMES = [f"fake/T{{ct}}:{t}/Elements{{io}}[pow2]:{n}/manual_time" for t in ("I16", "I32", "I64") for n in (16, 28)]


def fake_seconds(defines):
    """The base takes 1 s per case, a variant 1 / (tpb / 256) / (ipt / 8) s: tpb_384.ipt_9 is the fastest."""
    if defines.get("TUNE_BASE") == "1":
        return 1.0
    return 1.0 / (int(defines["TUNE_THREADS_PER_BLOCK"]) / 256) / (int(defines["TUNE_ITEMS_PER_THREAD"]) / 8)


class FakeToolchain:
    """Builds by writing the defines into the 'executable'; runs by computing a time from them (fake_seconds), with
    the samples t, 1.01 t and 0.99 t. 16-bit types fail to build."""

    def __init__(self, names=NAMES):
        self.names = list(names)
        self.builds = []
        self.runs = []
        self.stopped = threading.Event()

    def build(self, source, exe, defines):
        self.builds.append(dict(defines))
        if defines.get("TUNE_T") == "I16":
            return False, 0.1, "error: the I16 tile does not fit"
        with open(exe, "w") as f:
            f.write(repr(sorted(defines.items())))
        return True, 0.1, ""

    def list_names(self, exe):
        return list(self.names)

    def defines_of(self, exe):
        with open(exe) as f:
            return dict(eval(f.read()))

    def run(self, exe, names):
        assert all(not n.endswith("/manual_time") for n in names), names  # filters name no suffix
        defines = self.defines_of(exe)
        self.runs.append(defines)
        t = fake_seconds(defines)
        return {n: [t, t * 1.01, t * 0.99] for n in names}, {}, ""

    def stop(self):
        self.stopped.set()


class SearchFixture(unittest.TestCase):
    """A benchmark source with SOURCE's space in a temporary folder, and a search of it against a fake toolchain."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.source = self.write("sum.cu", SOURCE)
        self.build = os.path.join(self.tmp.name, "build")
        os.makedirs(self.build)
        self.db_path = tc.database_path(self.build, CONTEXT["uuid"])
        self.context = dict(CONTEXT)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text, mode=0o644):
        path = os.path.join(self.tmp.name, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, mode)
        return path

    def search(self, toolchain, filters=(), knobs=(), db_path=None, context=None, **options):
        db = tc.ResultsDB(db_path or self.db_path, context or self.context)
        try:
            return search.run_search([("fake.sum", self.source)], list(filters), db, toolchain, self.build, 4,
                                     log=lambda line: None, knobs=list(knobs), **options)
        finally:
            db.close()

    def read(self, method, *args, db_path=None, **kwargs):
        db = tc.ResultsDB(db_path or self.db_path)
        try:
            return getattr(db, method)(*args, **kwargs)
        finally:
            db.close()


# A compiler for tuning_core.Toolchain: it writes, as the "executable", a Python program that plays a Google Benchmark
# binary with NAMES's cases timed by fake_seconds. Variants with ipt 8 print a line that is not JSON before their
# report; variants with ipt 9 report an error for 2^28 elements.
FAKE_NVCC = '''#!{python} -S
import os, sys
args = sys.argv[1:]
defines = dict(a[2:].split("=", 1) for a in args if a.startswith("-D"))
exe = args[args.index("-o") + 1]
with open(exe, "w") as f:
    f.write({benchmark!r}.replace("@DEFINES@", repr(defines)))
os.chmod(exe, 0o755)
'''
FAKE_BENCHMARK = '''#!{python} -S
import json, re, sys
NAMES = {names!r}
{fake_seconds}
defines = @DEFINES@
flags = dict(a.split("=", 1) for a in sys.argv[1:])
if flags.get("--benchmark_list_tests") == "true":
    print("\\n".join(NAMES))
    sys.exit(0)
pattern = re.compile(flags["--benchmark_filter"])
t = fake_seconds(defines)
runs = []
for name in NAMES:
    if not pattern.search(name):
        continue
    for i in range(int(flags.get("--benchmark_repetitions", "1"))):
        run = {{"name": name, "run_name": name, "run_type": "iteration", "repetition_index": i,
               "real_time": t * 1e6, "time_unit": "us"}}
        if defines.get("TUNE_ITEMS_PER_THREAD") == "9" and ":28/" in name:
            run = {{"name": name, "run_name": name, "run_type": "iteration", "error_occurred": True,
                   "error_message": "the tile does not fit"}}
        runs.append(run)
if defines.get("TUNE_ITEMS_PER_THREAD") == "8":
    print("warning: clocks are not locked")
print(json.dumps({{"context": {{}}, "benchmarks": runs}}, indent=1))
'''


def write_fake_nvcc(fixture):
    benchmark = FAKE_BENCHMARK.format(python=sys.executable, names=NAMES, fake_seconds=inspect.getsource(fake_seconds))
    return fixture.write("bin/nvcc", FAKE_NVCC.format(python=sys.executable, benchmark=benchmark), 0o755)


def write_sleeping_compiler(fixture, pid_file):
    """A compiler that starts a child (as nvcc starts cicc) which sleeps a minute, writes the child's pid, and
    waits for it."""
    return fixture.write("bin/nvcc-hangs", f"#!/bin/sh\nsleep 60 &\necho $! > {pid_file}\nwait\n", 0o755)


def write_fake_cuobjdump(fixture):
    """`cuobjdump -sass FILE` prints FILE: the test's 'binaries' hold SASS text."""
    return fixture.write("bin/cuobjdump", '#!/bin/sh\n[ "$1" = -sass ] || exit 2\ncat "$2"\n', 0o755)


def alive(pid):
    """Whether a process runs (a zombie, waiting for its parent to reap it, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_for(predicate, seconds=5.0):
    deadline = time.time() + seconds
    while not predicate() and time.time() < deadline:
        time.sleep(0.05)
    return predicate()
