"""What a search must survive: malformed spaces, several benchmarks in one file, compilers that hang, benchmarks
that print other things than their report or report errors, Ctrl-C, a database of another GPU; and the short list
of variants (--variant) with its table."""
import os
import signal
import threading
import time
import unittest
from unittest import mock

from tuning_fakes import (CONTEXT, SOURCE, FakeToolchain, SearchFixture, alive, wait_for, write_fake_nvcc,
                          write_sleeping_compiler)
import search
import tuning_core as tc

I32 = [tc.parse_axis_filter("T{ct}=I32")]


class MalformedRangeTest(SearchFixture):
    def test_a_malformed_range_names_its_file_line_and_text(self):
        path = self.write("bad.cu", SOURCE.replace("int main", "// %RANGE% TUNE_NOT_A_RANGE\nint main"))
        with self.assertRaises(ValueError) as raised:
            tc.read_space(path)
        self.assertIn(f"{path}:4:", str(raised.exception))
        self.assertIn("// %RANGE% TUNE_NOT_A_RANGE", str(raised.exception))

    def test_every_kind_of_bad_declaration_is_refused(self):
        for line in ("// %RANGE% TUNE_A a 1:4", "// %RANGE% TUNE_A a 1:4:1 extra", "// %RANGE% A a 1:4:1",
                     "// %RANGE% TUNE_A a x:4:1", "/* %RANGE% TUNE_A a 1:4:1 */"):
            with self.assertRaises(ValueError, msg=line) as raised:
                tc.parse_space(f"// top\n{line}\n", "x.cu")
            self.assertIn("x.cu:2:", str(raised.exception))
        with self.assertRaises(ValueError) as raised:
            tc.parse_space("// %RANGE% TUNE_A a 1:4:1\n// %RANGE% TUNE_B a 1:2:1", "x.cu")
        self.assertIn("x.cu:2:", str(raised.exception))
        self.assertIn("first at line 1", str(raised.exception))

    def test_a_search_of_a_malformed_file_stops_before_building(self):
        self.source = self.write("bad.cu", SOURCE + "// %RANGE% TUNE_C c 1:2\n")
        fake = FakeToolchain()
        with self.assertRaises(ValueError):
            self.search(fake, I32)
        self.assertEqual(fake.builds, [])


class SeveralBenchmarksTest(SearchFixture):
    def test_benchmarks_of_one_file_keep_their_own_results(self):
        names = ["fake_a/T{ct}:I32/Elements{io}[pow2]:16/manual_time", "fake_b/T{ct}:I32/Elements{io}[pow2]:16"]

        class TwoBenchmarks(FakeToolchain):
            def run(self, exe, names):
                samples, errors, message = super().run(exe, names)
                return {n: [s * (2 if n.startswith("fake_b") else 1) for s in v] for n, v in samples.items()}, \
                    errors, message

        self.search(TwoBenchmarks(names), I32)
        times = self.read("times", "fake.sum")[("fake.sum", "T{ct}:I32")]
        self.assertEqual(times[tc.BASE], {"fake_a/Elements{io}[pow2]:16": 1.0, "fake_b/Elements{io}[pow2]:16": 2.0})
        self.assertEqual(len(times), 10)
        self.assertTrue(all(len(by_rt) == 2 for by_rt in times.values()))

    def test_case_keys_name_their_benchmark(self):
        self.assertEqual(tc.case_key("a/b/T{ct}:I32/Elements{io}[pow2]:16/Entropy:1/manual_time"),
                         ("T{ct}:I32", "a/b/Elements{io}[pow2]:16/Entropy:1"))
        self.assertEqual(tc.parse_axes_key("a/b/Elements{io}[pow2]:16"), [tc.Axis("Elements", "io", "pow2", "16")])


class ProcessTest(SearchFixture):
    """The real tuning_core.Toolchain, with programs for a compiler and benchmarks."""

    def test_a_build_timeout_kills_the_compiler_and_its_children(self):
        pid_file = os.path.join(self.tmp.name, "child.pid")
        toolchain = tc.Toolchain(build_timeout=1, root=self.tmp.name, nvcc=write_sleeping_compiler(self, pid_file))
        started = time.time()
        ok, _, message = toolchain.build(self.source, os.path.join(self.tmp.name, "exe"), {"TUNE_BASE": "1"})
        self.assertLess(time.time() - started, 10)
        self.assertFalse(ok)
        self.assertIn("timed out after 1 s", message)
        with open(pid_file) as f:
            child = int(f.read())
        self.assertTrue(wait_for(lambda: not alive(child)), f"the compiler's child {child} still runs")

    def test_stop_kills_a_running_build_at_once_and_starts_no_other(self):
        pid_file = os.path.join(self.tmp.name, "child.pid")
        toolchain = tc.Toolchain(build_timeout=60, root=self.tmp.name, nvcc=write_sleeping_compiler(self, pid_file))
        result = []
        worker = threading.Thread(target=lambda: result.append(
            toolchain.build(self.source, os.path.join(self.tmp.name, "exe"), {"TUNE_BASE": "1"})))
        worker.start()
        self.assertTrue(wait_for(lambda: os.path.exists(pid_file) and os.path.getsize(pid_file) > 0))
        started = time.time()
        toolchain.stop()
        worker.join(10)
        self.assertLess(time.time() - started, 5)
        self.assertFalse(result[0][0])
        with open(pid_file) as f:
            child = int(f.read())
        self.assertTrue(wait_for(lambda: not alive(child)))
        self.assertFalse(toolchain.build(self.source, os.path.join(self.tmp.name, "exe"), {"TUNE_BASE": "1"})[0])

    def test_output_that_is_not_json_and_cases_that_report_errors_are_failures(self):
        toolchain = tc.Toolchain(root=self.tmp.name, repetitions=3, nvcc=write_fake_nvcc(self))
        self.search(toolchain, I32)
        failures = self.read("failures")
        runs = {f[1]: f for f in failures if f[3] == "run"}
        self.assertEqual(sorted(runs), ["tpb_128.ipt_8", "tpb_256.ipt_8", "tpb_384.ipt_8"])
        self.assertIn("not JSON: line 1: 'warning: clocks are not locked'", runs["tpb_256.ipt_8"][4])
        cases = [f for f in failures if f[3] == "case"]
        self.assertEqual(sorted(f[1] for f in cases), ["tpb_128.ipt_9", "tpb_256.ipt_9", "tpb_384.ipt_9"])
        self.assertTrue(all(f[4] == "fake/Elements{io}[pow2]:28: the tile does not fit" for f in cases))
        times = self.read("times")[("fake.sum", "T{ct}:I32")]
        self.assertEqual(times["tpb_384.ipt_9"]["fake/Elements{io}[pow2]:28"], tc.FAILED)
        self.assertAlmostEqual(times["tpb_384.ipt_7"]["fake/Elements{io}[pow2]:28"], 1 / 1.5 / (7 / 8))
        self.assertEqual(len(self.read("samples")[("fake.sum", "T{ct}:I32")][tc.BASE]["fake/Elements{io}[pow2]:16"]),
                         3)
        # The failed case counts in the score, as a speedup of 0: the fastest variant's score falls below 1.
        s = tc.scores({"w": times})["w"]["tpb_384.ipt_9"]
        self.assertEqual((s["failed"], s["min"], s["workloads"]), (1, 0.0, 2))
        self.assertAlmostEqual(s["score"], 1.5 * 9 / 8 / 3)
        self.assertEqual(self.search(tc.Toolchain(root=self.tmp.name, nvcc=write_fake_nvcc(self)), I32), 0)


class ReportParseTest(unittest.TestCase):
    def test_a_report_with_a_line_that_is_not_json_is_a_failure_naming_the_line(self):
        samples, errors, message = tc.parse_gbench_output('{"benchmarks": []}\nCUDA error: out of memory\n', ["a"])
        self.assertIsNone(samples)
        self.assertIn("line 2: 'CUDA error: out of memory'", message)
        self.assertIsNone(tc.parse_gbench_output('{"context": {}}', ["a"])[0])

    def test_errors_skips_and_missing_cases_are_reported_per_case(self):
        report = ('{"benchmarks": ['
                  '{"name": "a/manual_time", "run_name": "a/manual_time", "real_time": 2, "time_unit": "ms"},'
                  '{"name": "a_mean", "run_name": "a/manual_time", "run_type": "aggregate", "real_time": 9},'
                  '{"name": "b/manual_time", "error_occurred": true, "error_message": "bad"},'
                  '{"name": "c", "skipped": true, "skip_message": "too large"},'
                  '{"name": "e/manual_time", "real_time": 1, "time_unit": "us"},'
                  '{"name": "e/manual_time", "error_occurred": true, "error_message": "once"},'
                  '{"name": "neighbour", "real_time": 1}]}')
        samples, errors, message = tc.parse_gbench_output(report, ["a", "b", "c", "d", "e"])
        self.assertEqual(samples, {"a": [2e-3]})
        self.assertEqual(errors, {"b": "bad", "c": "too large", "d": "no result reported", "e": "once"})
        self.assertEqual(message, "")


class InterruptTest(SearchFixture):
    def test_ctrl_c_stops_at_once_and_a_resumed_search_measures_the_rest_once(self):
        params = tc.parse_space(SOURCE)
        measured = []

        class Interrupted(FakeToolchain):
            """Builds the first six at once and the others only after a minute; Ctrl-C during the fourth run."""

            waiting = []  # one item per build waiting (list.append and list.pop are atomic)

            def build(self, source, exe, defines):
                if len(self.builds) >= 6:
                    self.waiting.append(exe)
                    self.stopped.wait(60)
                    self.waiting.pop()
                    return False, 60, "stopped"
                return super().build(source, exe, defines)

            def run(self, exe, names):
                if len(self.runs) == 3:
                    signal.raise_signal(signal.SIGINT)
                result = super().run(exe, names)
                measured.append(self.runs[-1])
                return result

        previous = signal.signal(signal.SIGINT, signal.default_int_handler)
        interrupted = Interrupted()
        try:
            started = time.time()
            with self.assertRaises(KeyboardInterrupt):
                self.search(interrupted, I32)
            self.assertTrue(wait_for(lambda: not interrupted.waiting), "builds still running")  # they were stopped
            self.assertLess(time.time() - started, 5)
        finally:
            signal.signal(signal.SIGINT, previous)
        self.assertEqual(len(measured), 3)
        self.assertEqual(self.read("failures"), [])  # the builds it stopped are not failures
        resumed = FakeToolchain()
        self.search(resumed, I32)
        names = [search_name(d) for d in measured + resumed.runs]
        self.assertEqual(sorted(names), sorted([tc.BASE] + [tc.variant_name(params, p) for p in tc.variants(params)]))
        self.assertEqual(len(self.read("times")[("fake.sum", "T{ct}:I32")]), 10)

    def test_the_command_line_says_how_to_resume(self):
        with mock.patch.object(search, "run_search", side_effect=KeyboardInterrupt), \
                mock.patch.object(tc.Toolchain, "context", return_value=dict(CONTEXT)), \
                mock.patch("sys.stderr") as stderr:
            code = search.main(["-R", "^radix_sort\\.keys$", "--build", self.build])
        self.assertEqual(code, 130)
        self.assertIn("run the same command again", "".join(c.args[0] for c in stderr.write.call_args_list))


def search_name(defines):
    """The variant name of a fake run's defines."""
    if defines["TUNE_BASE"] == "1":
        return tc.BASE
    return f"tpb_{defines['TUNE_THREADS_PER_BLOCK']}.ipt_{defines['TUNE_ITEMS_PER_THREAD']}"


class OtherGpuTest(SearchFixture):
    def test_resume_refuses_a_database_of_another_gpu(self):
        self.search(FakeToolchain(), I32, base_only=True)
        other = dict(CONTEXT, uuid="GPU-9999-ffff")
        with self.assertRaises(tc.DatabaseError) as raised:
            tc.ResultsDB(self.db_path, other)
        self.assertIn("GPU-1234-abcd", str(raised.exception))
        self.assertIn("GPU-9999-ffff", str(raised.exception))
        tc.ResultsDB(self.db_path, CONTEXT).close()  # its own GPU resumes
        with mock.patch.object(tc.Toolchain, "context", return_value=other), mock.patch("sys.stderr"):
            code = search.main(["-R", "^radix_sort\\.keys$", "--build", self.build, "--db", self.db_path])
        self.assertEqual(code, 2)

    def test_a_database_of_the_earlier_format_is_not_resumed(self):
        import sqlite3

        db = sqlite3.connect(self.db_path)
        db.executescript(tc.SCHEMA)
        db.execute("INSERT INTO failures VALUES ('b', 'base', '', 'build', 'x', 'Fake GPU', ?, 'c', 0)",
                   (CONTEXT["uuid"],))
        db.commit()
        db.close()
        with self.assertRaises(tc.DatabaseError):
            tc.ResultsDB(self.db_path, CONTEXT)
        self.assertEqual(len(self.read("failures")), 1)  # it can still be read


class VariantListTest(SearchFixture):
    def test_variant_specs_parse(self):
        spec = tc.parse_variant_spec("tpb=256,ipt=8,TUNE_RADIX_BITS=7@T{ct}=[I32,F32]@Elements{io}=28")
        self.assertEqual(spec.knobs, (("tpb", 256), ("ipt", 8)))
        self.assertEqual(spec.macros, (("TUNE_RADIX_BITS", 7),))
        self.assertEqual(spec.cases, (("T", "ct", {"I32", "F32"}), ("Elements", "io", {"28"})))
        for bad in ("tpb", "tpb=x", "tpb=1@T{ct}"):
            with self.assertRaises(ValueError, msg=bad):
                tc.parse_variant_spec(bad)

    def test_a_variant_fixes_its_knobs_and_names_its_macros(self):
        params = tc.parse_space(SOURCE)
        spec = tc.parse_variant_spec("tpb=256,TUNE_RADIX_BITS=7")
        points = tc.spec_points(params, spec, [tc.parse_knob_filter("ipt=[8,9]")])
        self.assertEqual([tc.variant_name(params, p) for p in points],
                         ["tpb_256.ipt_8.TUNE_RADIX_BITS_7", "tpb_256.ipt_9.TUNE_RADIX_BITS_7"])
        self.assertEqual(tc.variant_defines(params, points[0]), {"TUNE_BASE": "0", "TUNE_THREADS_PER_BLOCK": "256",
                                                                 "TUNE_ITEMS_PER_THREAD": "8",
                                                                 "TUNE_RADIX_BITS": "7"})
        self.assertEqual(tc.parse_variant_name("tpb_256.ipt_8.TUNE_RADIX_BITS_7"), points[0])
        self.assertEqual(tc.spec_points(params, tc.parse_variant_spec("other=1")), [])

    def test_a_short_list_runs_its_variants_on_their_cases_and_prints_their_ratios(self):
        fake = FakeToolchain()
        log = []
        specs = [tc.parse_variant_spec("tpb=256,ipt=8"), tc.parse_variant_spec("tpb=384,ipt=9@T{ct}=I64")]
        db = tc.ResultsDB(self.db_path, self.context)
        try:
            runs = search.run_search([("fake.sum", self.source)], [tc.parse_axis_filter("T{ct}=[I32,I64]")], db,
                                     fake, self.build, 2, log=log.append, specs=specs)
        finally:
            db.close()
        self.assertEqual(runs, 2 + 2 + 1)  # the base and tpb_256.ipt_8 on both types, tpb_384.ipt_9 on I64 alone
        self.assertEqual(sorted(search_name(d) + " " + d["TUNE_T"] for d in fake.runs),
                         ["base I32", "base I64", "tpb_256.ipt_8 I32", "tpb_256.ipt_8 I64", "tpb_384.ipt_9 I64"])
        text = "\n".join(log)
        at = text.index("fake.sum T{ct}:I64: base time / variant time (above 1: the variant is faster)")
        table = text[at:].splitlines()
        self.assertEqual(table[1].split(), ["case", "base", "us", "tpb_256.ipt_8", "tpb_384.ipt_9"])
        self.assertEqual(table[2].split(), ["fake/Elements{io}[pow2]:16", "1000000.00", "1.000", "1.688"])
        self.assertEqual(table[4].split()[-2:], ["1.000", "1.688"])  # the geomean, the same way round

    def test_the_command_line_checks_the_variants(self):
        with mock.patch("sys.stderr"):
            for argv in (["--variant", "nope=1"], ["--variant", "tpb=128", "--sample", "3"]):
                with self.assertRaises(SystemExit, msg=argv):
                    search.main(["-R", "^radix_sort\\.keys$", "--build", self.build] + argv)

    def test_a_space_too_large_to_list_must_be_narrowed(self):
        params = [tc.Param("TUNE_A", "a", 1, 1000, 1), tc.Param("TUNE_B", "b", 1, 1000, 1)]
        with self.assertRaises(ValueError):
            search.search_points(params)
        self.assertEqual(len(search.search_points(params, sample=5)), 6)


class KeepBinariesTest(SearchFixture):
    def test_kept_binaries_lie_where_their_workload_names_them(self):
        self.search(FakeToolchain(), [tc.parse_axis_filter("T{ct}=I32")], base_only=True, keep=True)
        exe = tc.executable_path(self.build, "fake.sum", "T{ct}:I32", tc.BASE)
        self.assertTrue(os.path.exists(exe))
        self.assertEqual(tc.parse_executable_path(self.build, exe), ("fake.sum", "T{ct}:I32", tc.BASE))
        self.assertEqual(tc.parse_executable_path(self.build, tc.executable_path(self.build, "b", "K{ct}:U8/V{ct}:U8",
                                                                                 "v")), ("b", "K{ct}:U8/V{ct}:U8", "v"))


if __name__ == "__main__":
    unittest.main()
