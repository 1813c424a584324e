"""Host tests of the tuning workflow's scripts (scripts/tuning_core.py, search.py, analyze.py): no GPU, no compiler;
the search runs against a fake toolchain (tuning_fakes.py)."""
import contextlib
import io
import os
import unittest
from unittest import mock

from tuning_fakes import HERE, SOURCE, FakeToolchain, SearchFixture, write_fake_nvcc
import analyze
import search
import tuning_core as tc


class SpaceTest(unittest.TestCase):
    def test_ranges_parse_in_declaration_order(self):
        params = tc.parse_space(SOURCE)
        self.assertEqual([(p.macro, p.short, p.values) for p in params],
                         [("TUNE_THREADS_PER_BLOCK", "tpb", [128, 256, 384]),
                          ("TUNE_ITEMS_PER_THREAD", "ipt", [7, 8, 9])])

    def test_space_size_counts_every_point(self):
        params = tc.parse_space(SOURCE)
        self.assertEqual(tc.space_size(params), 9)
        self.assertEqual(len(list(tc.variants(params))), 9)
        self.assertEqual(tc.space_size([]), 0)

    def test_bad_ranges_are_refused(self):
        with self.assertRaises(ValueError):
            tc.parse_space("// %RANGE% TUNE_A a 8:4:1")
        with self.assertRaises(ValueError):
            tc.parse_space("// %RANGE% TUNE_A a 1:4:1\n// %RANGE% TUNE_B a 1:2:1")

    def test_a_sample_is_a_fixed_draw_of_distinct_points(self):
        params = tc.parse_space(SOURCE)
        every = list(tc.variants(params))
        drawn = tc.sample(params, 4, seed=7)
        self.assertEqual(len(drawn), 4)
        self.assertEqual(len({tuple(p.items()) for p in drawn}), 4)
        self.assertTrue(all(p in every for p in drawn))
        self.assertEqual(drawn, tc.sample(params, 4, seed=7))
        self.assertNotEqual([tc.sample(params, 4, seed=s) for s in range(5)].count(drawn), 5)
        self.assertEqual(tc.sample(params, 50), every)

    def test_knob_filters_narrow_the_space_to_declared_values(self):
        params = tc.restrict_space(tc.parse_space(SOURCE), [tc.parse_knob_filter("ipt=[7,9]"),
                                                            tc.parse_knob_filter("tpb=256"),
                                                            tc.parse_knob_filter("other=[1]")])
        self.assertEqual([p.values for p in params], [[256], [7, 9]])
        self.assertEqual(tc.space_size(params), 2)
        self.assertEqual(list(tc.variants(params)), [{"tpb": 256, "ipt": 7}, {"tpb": 256, "ipt": 9}])
        with self.assertRaises(ValueError):
            tc.restrict_space(tc.parse_space(SOURCE), [tc.parse_knob_filter("ipt=[8,10]")])
        with self.assertRaises(ValueError):
            tc.parse_knob_filter("ipt=[a]")

    def test_variant_names_round_trip(self):
        params = tc.parse_space(SOURCE)
        point = {"tpb": 256, "ipt": 8}
        self.assertEqual(tc.variant_name(params, point), "tpb_256.ipt_8")
        self.assertEqual(tc.parse_variant_name("tpb_256.ipt_8"), point)
        self.assertEqual(tc.parse_variant_name(tc.BASE), {})
        self.assertEqual(tc.variant_defines(params, point),
                         {"TUNE_BASE": "0", "TUNE_THREADS_PER_BLOCK": "256", "TUNE_ITEMS_PER_THREAD": "8"})
        self.assertEqual(tc.variant_defines(params, {}), {"TUNE_BASE": "1"})


class NameTest(unittest.TestCase):
    def test_axes_and_suffixes(self):
        bench, axes = tc.parse_benchmark_name("radix_sort_keys/KeyT{ct}:U32/Elements{io}[pow2]:24/Entropy:0.544"
                                              "/repeats:3/manual_time")
        self.assertEqual(bench, "radix_sort_keys")
        self.assertEqual(axes, [tc.Axis("KeyT", "ct", "", "U32"), tc.Axis("Elements", "io", "pow2", "24"),
                                tc.Axis("Entropy", "rt", "", "0.544")])
        self.assertEqual(tc.workload_keys(axes), ("KeyT{ct}:U32", "Elements{io}[pow2]:24/Entropy:0.544"))
        self.assertEqual(tc.parse_axes_key("Elements{io}[pow2]:24/Entropy:0.544"), axes[1:])

    def test_a_plain_element_after_an_axis_is_an_error(self):
        with self.assertRaises(ValueError):
            tc.parse_benchmark_name("scan/T{ct}:I32/oops")

    def test_axis_filters(self):
        f = [tc.parse_axis_filter("T{ct}=[I32,I64]"), tc.parse_axis_filter("Elements{io}[pow2]=28")]
        self.assertEqual(f[0], ("T", "ct", {"I32", "I64"}))
        self.assertEqual(f[1], ("Elements", "io", {"28"}))
        yes = tc.parse_benchmark_name("s/T{ct}:I64/Elements{io}[pow2]:28")[1]
        no_type = tc.parse_benchmark_name("s/T{ct}:F32/Elements{io}[pow2]:28")[1]
        no_size = tc.parse_benchmark_name("s/T{ct}:I32/Elements{io}[pow2]:24")[1]
        self.assertTrue(tc.axes_selected(yes, f))
        self.assertFalse(tc.axes_selected(no_type, f))
        self.assertFalse(tc.axes_selected(no_size, f))
        with self.assertRaises(ValueError):
            tc.parse_axis_filter("T{ct}")


    def test_the_benchmark_filter_needs_no_escapes_and_selects_the_names(self):
        names = ["radix_sort_keys/KeyT{ct}:U64/Elements{io}[pow2]:24/Entropy:1000",
                 "radix_sort_keys/KeyT{ct}:U64/Elements{io}[pow2]:28/Entropy:544"]
        pattern = tc.gbench_filter(names)
        # No backslash and no bracket: POSIX regcomp refuses "\{", and "[]]" means another thing to std::regex.
        self.assertNotRegex(pattern, r"[\\\[\]{}]")
        for name in names:
            self.assertRegex(name + "/manual_time", pattern)
            self.assertRegex(name, pattern)
        self.assertNotRegex("radix_sort_keys/KeyT{ct}:U64/Elements{io}[pow2]:20/Entropy:1000", pattern)
        self.assertNotRegex("radix_sort_keys/KeyT{ct}:U64/Elements{io}[pow2]:24/Entropy:10000", pattern)
        self.assertEqual(tc.strip_gbench_suffixes(names[0] + "/repeats:5/manual_time"), names[0])

class ScoreTest(unittest.TestCase):
    def test_later_io_values_weigh_more(self):
        base = {"Elements{io}[pow2]:16": 1.0, "Elements{io}[pow2]:20": 2.0, "Elements{io}[pow2]:28": 8.0}
        variant = {"Elements{io}[pow2]:16": 2.0, "Elements{io}[pow2]:20": 2.0, "Elements{io}[pow2]:28": 4.0}
        s = tc.score(base, variant)
        # speedups 0.5, 1, 2 with weights 1, 2, 3
        self.assertAlmostEqual(s["score"], (0.5 + 2 * 1 + 3 * 2) / 6)
        self.assertAlmostEqual(s["min"], 0.5)
        self.assertAlmostEqual(s["mean"], 3.5 / 3)
        self.assertAlmostEqual(s["max"], 2.0)
        self.assertEqual(s["workloads"], 3)

    def test_the_base_scores_one_and_disjoint_results_score_nothing(self):
        base = {"Elements{io}[pow2]:16/Entropy:1": 3.0, "Elements{io}[pow2]:28/Entropy:1": 5.0}
        self.assertAlmostEqual(tc.score(base, base)["score"], 1.0)
        self.assertIsNone(tc.score(base, {"Elements{io}[pow2]:20/Entropy:1": 1.0}))

    def test_median(self):
        self.assertEqual(tc.median([3.0, 1.0, 2.0]), 2.0)
        self.assertEqual(tc.median([4.0, 1.0, 2.0, 3.0]), 2.5)


class SearchTest(SearchFixture):
    def test_every_selected_workload_and_variant_runs_once(self):
        fake = FakeToolchain()
        runs = self.search(fake, [tc.parse_axis_filter("T{ct}=[I32,I64]")])
        self.assertEqual(runs, 2 * 10)  # two types, the base and 9 variants
        narrowed = {b.get("TUNE_T") for b in fake.builds}
        self.assertEqual(narrowed, {None, "I32", "I64"})  # the unnarrowed build is the listing
        db = tc.ResultsDB(self.db_path)
        scores = tc.scores(db.times("fake.sum"))
        db.close()
        best = max(scores[("fake.sum", "T{ct}:I32")].items(), key=lambda kv: kv[1]["score"])
        self.assertEqual(best[0], "tpb_384.ipt_9")
        self.assertAlmostEqual(best[1]["score"], 1.5 * 9 / 8)
        self.assertAlmostEqual(scores[("fake.sum", "T{ct}:I32")][tc.BASE]["score"], 1.0)

    def test_knob_filters_run_only_the_chosen_variants(self):
        fake = FakeToolchain()
        runs = self.search(fake, [tc.parse_axis_filter("T{ct}=I32")], [tc.parse_knob_filter("ipt=[8,9]")])
        self.assertEqual(runs, 1 + 3 * 2)  # the base, 3 block sizes x 2 item counts
        self.assertEqual(sorted({r.get("TUNE_ITEMS_PER_THREAD") for r in fake.runs if r["TUNE_BASE"] == "0"}),
                         ["8", "9"])

    def test_a_resumed_search_runs_only_what_is_missing(self):
        params = tc.parse_space(SOURCE)
        points = list(tc.variants(params))
        db = tc.ResultsDB(self.db_path, self.context)
        for point in points[:4]:  # a search that stopped after the first four variants of I32
            db.add_run("fake.sum", tc.variant_name(params, point), "T{ct}:I32", {"fake/Elements{io}[pow2]:16": [1.0]})
        db.close()
        fake = FakeToolchain()
        self.search(fake, [tc.parse_axis_filter("T{ct}=I32")])
        ran = [tc.variant_name(params, {"tpb": int(d["TUNE_THREADS_PER_BLOCK"]), "ipt": int(d["TUNE_ITEMS_PER_THREAD"])})
               if d.get("TUNE_BASE") == "0" else tc.BASE for d in fake.runs]
        self.assertEqual(sorted(ran), sorted([tc.BASE] + [tc.variant_name(params, p) for p in points[4:]]))
        again = FakeToolchain()
        self.assertEqual(self.search(again, [tc.parse_axis_filter("T{ct}=I32")]), 0)

    def test_build_failures_are_recorded_and_not_retried(self):
        fake = FakeToolchain()
        self.search(fake, [tc.parse_axis_filter("T{ct}=I16")])
        db = tc.ResultsDB(self.db_path)
        failures = db.failures()
        db.close()
        self.assertEqual(len(failures), 10)
        self.assertTrue(all(f[3] == "build" and "does not fit" in f[4] for f in failures))
        again = FakeToolchain()
        self.search(again, [tc.parse_axis_filter("T{ct}=I16")])
        self.assertEqual([b for b in again.builds if b.get("TUNE_T") == "I16"], [])

    def test_results_record_their_context_and_samples(self):
        self.search(FakeToolchain(), [tc.parse_axis_filter("T{ct}=I64"), tc.parse_axis_filter("Elements{io}=28")])
        db = tc.ResultsDB(self.db_path)
        rows = list(db.db.execute("SELECT rt, seconds, samples, device, uuid, toolkit, commit_id FROM results "
                                  "WHERE variant='base'"))
        db.close()
        self.assertEqual(len(rows), 1)
        rt, seconds, samples, device, uuid, toolkit, commit = rows[0]
        self.assertEqual(rt, "fake/Elements{io}[pow2]:28")
        self.assertAlmostEqual(seconds, 1.0)
        self.assertEqual(len(eval(samples)), 3)
        self.assertEqual((device, uuid, toolkit, commit), ("Fake GPU", "GPU-1234-abcd", "13.0", "abc1234"))

    def test_coverage_and_top(self):
        self.search(FakeToolchain())
        data = analyze.load([self.db_path])
        cov = analyze.coverage(data, {"fake.sum": tc.parse_space(SOURCE)})
        self.assertEqual(len(cov), 3)
        i16 = [line for line in cov if "T{ct}:I16" in line][0]
        self.assertIn("9 of 9 variants (100%): 0 measured, 0 with failed cases, 9 build failures, 0 run failures; "
                      "base build failed", i16)
        i32 = [line for line in cov if "T{ct}:I32" in line][0]
        self.assertIn("9 of 9 variants (100%): 9 measured", i32)
        self.assertTrue(i32.endswith("base measured"), i32)
        lines = analyze.top(data.times, 2)
        at = [i for i, line in enumerate(lines) if line.startswith("Fake GPU (GPU-1234-abcd) fake.sum T{ct}:I32 ")][0]
        self.assertIn("base time / variant time, above 1: faster", lines[at])
        self.assertTrue(lines[at + 2].split()[0] == "tpb_384.ipt_9")
        self.assertEqual(len([line for line in lines if line.startswith("Fake GPU")]), 2)  # I16 has no results


class AnalyzeTest(SearchFixture):
    def test_emit_names_the_best_values_with_their_figure(self):
        self.search(FakeToolchain(), [tc.parse_axis_filter("T{ct}=I32")])
        lines = analyze.emit(analyze.load([self.db_path]).times, {"fake.sum": tc.parse_space(SOURCE)})
        self.assertEqual(len(lines), 3)
        self.assertTrue(lines[0].startswith("// fake.sum T{ct}:I32: score 1.688"), lines[0])
        self.assertIn("Fake GPU", lines[0])
        self.assertEqual(lines[1:], ["//   TUNE_THREADS_PER_BLOCK = 384", "//   TUNE_ITEMS_PER_THREAD = 9"])

    def test_verify_lists_the_workloads_that_became_slower(self):
        before = {("b", "T{ct}:I32"): {tc.BASE: {"Elements{io}[pow2]:16": 1.0, "Elements{io}[pow2]:28": 2.0}},
                  ("b", "T{ct}:I64"): {tc.BASE: {"Elements{io}[pow2]:16": 1.0}}}
        after = {("b", "T{ct}:I32"): {tc.BASE: {"Elements{io}[pow2]:16": 1.005, "Elements{io}[pow2]:28": 2.1}},
                 ("b", "T{ct}:I64"): {tc.BASE: {"Elements{io}[pow2]:16": 0.5}},
                 ("b", "T{ct}:F32"): {tc.BASE: {"Elements{io}[pow2]:16": 9.0}}}
        regressions, compared = analyze.verify(before, after, 0.01)
        self.assertEqual(len(compared), 3)
        self.assertIn(("b", "T{ct}:I64", "Elements{io}[pow2]:16", 1.0, 0.5), compared)
        self.assertEqual(regressions, [("b", "T{ct}:I32", "Elements{io}[pow2]:28", 2.0, 2.1)])

    def test_a_sampled_search_runs_the_base_and_the_draw(self):
        fake = FakeToolchain()
        db = tc.ResultsDB(self.db_path, self.context)
        try:
            runs = search.run_search([("fake.sum", self.source)], [tc.parse_axis_filter("T{ct}=I32")], db, fake,
                                     self.build, 2, log=lambda line: None, sample=3, seed=1)
        finally:
            db.close()
        self.assertEqual(runs, 4)
        self.assertEqual(sorted(d["TUNE_BASE"] for d in fake.runs), ["0", "0", "0", "1"])

    def test_base_only_runs_nothing_else(self):
        fake = FakeToolchain()
        db = tc.ResultsDB(self.db_path, self.context)
        try:
            runs = search.run_search([("fake.sum", self.source)], [tc.parse_axis_filter("T{ct}=I32")], db, fake,
                                     self.build, 2, log=lambda line: None, base_only=True)
        finally:
            db.close()
        self.assertEqual(runs, 1)
        self.assertEqual([d["TUNE_BASE"] for d in fake.runs], ["1"])

    def test_variants_ratio_draws_one_figure_per_benchmark(self):
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            self.skipTest("no matplotlib")
        self.search(FakeToolchain(), [tc.parse_axis_filter("T{ct}=[I32,I64]")])
        files = analyze.plot_ratios(analyze.load([self.db_path]), "tpb_384.ipt_9", os.path.join(self.tmp.name, "plots"))
        self.assertEqual(len(files), 1)
        with open(files[0], "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


class CommandLineTest(SearchFixture):
    def test_a_short_list_searched_then_analyzed(self):
        """search.py --variant with the fake compiler first on PATH, then analyze.py on its database."""
        nvcc = write_fake_nvcc(self)
        self.write("benchmarks/bench/fake/sum.cu", SOURCE)
        env = dict(os.environ, PATH=os.path.dirname(nvcc) + os.pathsep + os.environ["PATH"])
        argv = ["--root", self.tmp.name, "--build", self.build, "--jobs", "2", "--repetitions", "2",
                "-a", "T{ct}=I32", "--variant", "tpb=384,ipt=7", "--variant", "tpb=256,ipt=9"]
        out = io.StringIO()
        with mock.patch.dict(os.environ, env), contextlib.redirect_stdout(out):
            self.assertEqual(search.main(argv), 0)
        text = out.getvalue()
        self.assertIn("fake.sum: 1 compile-time workloads x 3 variants; 3 to run", text)
        self.assertIn("fake.sum T{ct}:I32 tpb_256.ipt_9: 1 of 2 cases failed, fake/T{ct}:I32/Elements{io}[pow2]:28: "
                      "the tile does not fit", text)
        self.assertIn("fake.sum T{ct}:I32: base time / variant time (above 1: the variant is faster)", text)
        databases = [os.path.join(self.build, f) for f in os.listdir(self.build) if f.endswith(".sqlite")]
        self.assertEqual(len(databases), 1)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(analyze.main(["--top", "3", "--table", "tpb_384.ipt_7", databases[0]]), 0)
        lines = out.getvalue().splitlines()
        self.assertEqual([line.split()[0] for line in lines[2:5]], ["tpb_384.ipt_7", "base", "tpb_256.ipt_9"])
        self.assertEqual(lines[-1].split()[-1], f"{1.5 * 7 / 8:.3f}")


class ListTest(unittest.TestCase):
    def test_the_repository_benchmarks_declare_their_spaces(self):
        root = os.path.join(HERE, "..", "..")
        benches = tc.find_benchmarks(root)
        ids = [b for b, _ in benches]
        self.assertIn("radix_sort.keys", ids)
        self.assertIn("scan.sum", ids)  # reduce.sum and scan.sum are kept apart by their algorithm
        self.assertIn("reduce.sum", ids)
        for bench, path in benches:
            self.assertGreater(tc.space_size(tc.read_space(path)), 0, bench)
        self.assertEqual([b for b, _ in tc.find_benchmarks(root, r"^radix_sort\.")],
                         ["radix_sort.keys", "radix_sort.pairs"])


if __name__ == "__main__":
    unittest.main()
