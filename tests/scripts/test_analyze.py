"""scripts/analyze.py: GPUs kept apart, coverage, tables, the spread --variants-ratio draws, and --verify (one GPU,
the base's times, the SASS of what was not tuned)."""
import os
import subprocess
import sys
import unittest
from unittest import mock

from tuning_fakes import CONTEXT, HERE, SOURCE, FakeToolchain, SearchFixture, write_fake_cuobjdump
import analyze
import tuning_core as tc

I32 = [tc.parse_axis_filter("T{ct}=I32")]
OTHER = dict(CONTEXT, uuid="GPU-5678-ef01")  # another GPU of the same model


class SlowerToolchain(FakeToolchain):
    """FakeToolchain on a GPU that takes twice as long."""

    def run(self, exe, names):
        samples, errors, message = super().run(exe, names)
        return {n: [2 * s for s in v] for n, v in samples.items()}, errors, message


class GpusTest(SearchFixture):
    def test_two_gpus_of_one_model_keep_apart(self):
        other_db = tc.database_path(self.build, OTHER["uuid"])
        self.search(FakeToolchain(), I32)
        self.search(SlowerToolchain(), I32, db_path=other_db, context=OTHER)
        data = analyze.load([self.db_path, other_db])
        gpus = sorted({gpu for gpu, _, _ in data.times})
        self.assertEqual(gpus, [analyze.Gpu(CONTEXT["uuid"], "Fake GPU"), analyze.Gpu(OTHER["uuid"], "Fake GPU")])
        base = {gpu: data.times[(gpu, "fake.sum", "T{ct}:I32")][tc.BASE]["fake/Elements{io}[pow2]:16"]
                for gpu in gpus}
        self.assertEqual(list(base.values()), [1.0, 2.0])
        headers = [line for line in analyze.top(data.times, 1) if line.startswith("Fake GPU")]
        self.assertEqual(len(headers), 2)
        self.assertIn("GPU-1234-abcd", headers[0])
        self.assertIn("GPU-5678-ef01", headers[1])

    def test_verify_refuses_databases_of_two_gpus(self):
        other_db = tc.database_path(self.build, OTHER["uuid"])
        self.search(FakeToolchain(), I32, base_only=True)
        self.search(FakeToolchain(), I32, base_only=True, db_path=other_db, context=OTHER)
        with mock.patch("sys.stderr") as stderr, mock.patch("sys.stdout"):
            self.assertEqual(analyze.main(["--verify", self.db_path, other_db]), 2)
        self.assertIn("compares runs on one GPU", "".join(c.args[0] for c in stderr.write.call_args_list))
        with mock.patch("sys.stdout") as stdout:
            self.assertEqual(analyze.main(["--verify", self.db_path, self.db_path]), 0)
        self.assertIn("2 workloads compared on Fake GPU (GPU-1234-abcd), 0 slower",
                      "".join(c.args[0] for c in stdout.write.call_args_list))

    def test_verify_refuses_a_database_that_holds_two_gpus(self):
        self.search(FakeToolchain(), I32, base_only=True)
        db = tc.ResultsDB(self.db_path, CONTEXT)
        db.context = OTHER  # as if two searches had written one file
        db.add_failure("fake.sum", tc.BASE, "T{ct}:I64", "build", "x")
        db.close()
        with self.assertRaises(tc.DatabaseError):
            analyze.one_gpu(self.db_path)


class CoverageTest(SearchFixture):
    def test_coverage_counts_the_declared_space(self):
        self.search(FakeToolchain(), I32, [tc.parse_knob_filter("ipt=[8,9]")], sample=0)
        lines = analyze.coverage(analyze.load([self.db_path]), {"fake.sum": tc.parse_space(SOURCE)})
        self.assertEqual(lines, ["Fake GPU (GPU-1234-abcd) fake.sum T{ct}:I32: 6 of 9 variants (66.7%): 6 measured, "
                                 "0 with failed cases, 0 build failures, 0 run failures; base measured"])
        unknown = analyze.coverage(analyze.load([self.db_path]), {})
        self.assertIn("6 of ? variants (?)", unknown[0])

    def test_variants_with_failed_cases_count_apart_and_never_win(self):
        class FailsLarge(FakeToolchain):
            def run(self, exe, names):
                samples, _, message = super().run(exe, names)
                if self.runs[-1].get("TUNE_ITEMS_PER_THREAD") == "9":
                    big = [n for n in samples if ":28" in n]
                    return {n: s for n, s in samples.items() if n not in big}, {n: "no fit" for n in big}, message
                return samples, {}, message

        self.search(FailsLarge(), I32)
        data = analyze.load([self.db_path])
        cov = analyze.coverage(data, {"fake.sum": tc.parse_space(SOURCE)})[0]
        self.assertIn("9 of 9 variants (100%): 6 measured, 3 with failed cases", cov)
        (variant, s), = analyze.best(data.times).values()
        self.assertEqual((variant, s["failed"]), ("tpb_384.ipt_8", 0))
        top = analyze.top(data.times, 9)
        failed = [line.split() for line in top if line.strip().startswith("tpb_384.ipt_9")][0]
        self.assertEqual(failed[-1], "1")


class TableTest(SearchFixture):
    def test_ratios_and_their_geomean_point_the_same_way(self):
        by_variant = {tc.BASE: {"b/N{io}:1": 2.0, "b/N{io}:2": 4.0, "b/N{io}:3": 1.0},
                      "fast": {"b/N{io}:1": 1.0, "b/N{io}:2": 1.0, "b/N{io}:3": 1.0},
                      "broken": {"b/N{io}:1": 4.0, "b/N{io}:2": tc.FAILED}}
        lines = tc.ratio_table("w", by_variant, ["fast", "broken"])
        self.assertEqual(lines[0], "w: base time / variant time (above 1: the variant is faster)")
        rows = [line.split() for line in lines[2:]]
        self.assertEqual(rows[0], ["b/N{io}:1", "2000000.00", "2.000", "0.500"])
        self.assertEqual(rows[1], ["b/N{io}:2", "4000000.00", "4.000", "failed"])
        self.assertEqual(rows[2], ["b/N{io}:3", "1000000.00", "1.000", "-"])
        self.assertEqual(rows[3], ["geomean", "(base", "/", "variant)", "2.000", "0.500"])
        self.assertEqual(rows[4][-2:], ["0", "1"])

    def test_analyze_prints_tables_of_chosen_variants(self):
        self.search(FakeToolchain(), I32)
        lines = analyze.table(analyze.load([self.db_path]).times, ["tpb_384.ipt_9"])
        self.assertTrue(lines[0].startswith("Fake GPU (GPU-1234-abcd) fake.sum T{ct}:I32: base time / variant time"))
        self.assertEqual(lines[-1].split()[-1], "1.688")


class SpreadTest(SearchFixture):
    def test_the_plot_shows_the_quantiles_of_the_samples(self):
        self.search(FakeToolchain(), I32)
        spread = analyze.ratio_spread(analyze.load([self.db_path]), "tpb_384.ipt_9")
        ((gpu, bench), panels), = spread.items()
        self.assertEqual(bench, "fake.sum")
        (ct, lines), = panels
        self.assertEqual(ct, "T{ct}:I32")
        (label, points), = lines.items()
        self.assertEqual(label, "fake")
        self.assertEqual([x for x, _, _ in points], [16.0, 28.0])
        t = 1 / 1.5 / (9 / 8)
        x, variant, base = points[0]

        def spread(low, mid, high):  # the quartiles of three samples lie halfway between them
            return [low, (low + mid) / 2, mid, (mid + high) / 2, high]

        for got, want in zip(variant, spread(1 / (1.01 * t), 1 / t, 1 / (0.99 * t))):
            self.assertAlmostEqual(got, want, places=9)
        for got, want in zip(base, spread(1 / 1.01, 1.0, 1 / 0.99)):
            self.assertAlmostEqual(got, want, places=9)
        self.assertEqual(analyze.ratio_spread(analyze.load([self.db_path]), "no_such_variant"), {})

    def test_analyze_loads_without_matplotlib(self):
        code = "import sys; sys.path.insert(0, sys.argv[1]); import analyze; print('matplotlib' in sys.modules)"
        out = subprocess.run([sys.executable, "-c", code, os.path.join(HERE, "..", "..", "scripts")],
                             capture_output=True, text=True, check=True).stdout
        self.assertEqual(out.strip(), "False")

    def test_quantiles_interpolate(self):
        self.assertEqual(tc.quantiles([4.0, 1.0, 3.0, 2.0], (0, 0.25, 0.5, 1)), [1.0, 1.75, 2.5, 4.0])
        self.assertEqual(tc.quantiles([7.0], (0, 0.5, 1)), [7.0, 7.0, 7.0])


SASS = """
Fatbin elf code:
================
arch = sm_90
code version = [1,7]
host = linux
compile_size = 64bit

	code for sm_90
		Function : {name}
	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90"
        /*{o0}*/                   LDC R1, c[0x0][0x28] ;                  /* 0x00000a00ff017b82 */
                                                                          /* 0x000fe40000000800 */
        /*{o1}*/                   {op} ;                                 /* 0x0000000000007919 */
                                                                          /* 0x000e220000002100 */
.L_x_{l}:
        /*{o2}*/              @!P0 BRA `(.L_x_{l}) ;                      /* 0xfffffffc00fc7947 */
        /*{o3}*/                   BSSY B0, {target} ;                    /* 0x000fc0000383ffff */
        /*{o4}*/                   EXIT ;                                 /* 0x000000000000794d */
		..........
"""


def sass(name, op="S2R R0, SR_TID.X", shift=0):
    """SASS of a kernel, its offsets, label numbers and branch targets moved by shift (as in another binary)."""
    offsets = {f"o{i}": f"{16 * i + shift:04x}" for i in range(5)}
    return SASS.format(name=name, op=op, l=3 + shift, target=hex(0x80 + shift), **offsets)


class SassTest(SearchFixture):
    def binaries(self, folder, kernels):
        for (bench, ct), text in kernels.items():
            self.write(os.path.relpath(tc.executable_path(os.path.join(self.tmp.name, folder), bench, ct, tc.BASE),
                                       self.tmp.name), text)
        return os.path.join(self.tmp.name, folder)

    def test_sass_compares_after_addresses_are_normalized(self):
        a = tc.parse_sass(sass("_Z1kv"))
        self.assertEqual(a, tc.parse_sass(sass("_Z1kv", shift=0x40)))
        self.assertNotEqual(a, tc.parse_sass(sass("_Z1kv", op="S2R R0, SR_TID.Y")))
        self.assertEqual(list(a), [("sm_90", "_Z1kv")])
        self.assertIn("@!P0 BRA `(.L0)", a[("sm_90", "_Z1kv")])
        self.assertIn("BSSY B0, ADDR", a[("sm_90", "_Z1kv")])
        self.assertEqual(len(tc.parse_sass(sass("_Z1kv") + sass("_Z1kv"))), 2)  # a name seen twice stays twice

    def test_verify_flags_sass_that_changed_where_nothing_was_tuned(self):
        before = self.binaries("before", {("r.keys", "K{ct}:U8"): sass("_Z2u8v") + sass("_Z4histv"),
                                          ("r.keys", "K{ct}:U64"): sass("_Z3u64v"),
                                          ("r.pairs", "K{ct}:U8/V{ct}:U8"): sass("_Z2p8v")})
        after = self.binaries("after", {("r.keys", "K{ct}:U8"): sass("_Z2u8v", shift=0x20) + sass("_Z4histv"),
                                        ("r.keys", "K{ct}:U64"): sass("_Z3u64v", op="NOP"),
                                        ("r.pairs", "K{ct}:U8/V{ct}:U8"): sass("_Z2p8v", op="NOP")})
        toolchain = tc.Toolchain(cuobjdump=write_fake_cuobjdump(self))
        lines, changed = analyze.compare_sass(before, after, toolchain, tuned=r"^r\.keys K\{ct\}:U64 ")
        self.assertEqual(changed, 1)
        self.assertEqual(lines[0], "SASS CHANGED r.pairs K{ct}:U8/V{ct}:U8 sm_90 _Z2p8v")
        self.assertEqual(lines[-1], "SASS of 4 kernels: 2 unchanged and 1 changed where nothing was tuned; 1 changed "
                                    "and 0 unchanged where tuned")
        lines, changed = analyze.compare_sass(before, after, toolchain, tuned=r"^r\.(keys K\{ct\}:U64|pairs) ")
        self.assertEqual(changed, 0)

    def test_verify_with_sass_fails_on_an_unexpected_change(self):
        self.search(FakeToolchain(), I32, base_only=True)
        before = self.binaries("before", {("r.keys", "K{ct}:U8"): sass("_Z2u8v")})
        after = self.binaries("after", {("r.keys", "K{ct}:U8"): sass("_Z2u8v", op="NOP")})
        argv = ["--verify", self.db_path, self.db_path, "--sass", before, after, "--cuobjdump",
                write_fake_cuobjdump(self)]
        with mock.patch("sys.stdout") as stdout:
            self.assertEqual(analyze.main(argv), 1)
            self.assertEqual(analyze.main(argv + ["--tuned", "u8"]), 0)
        self.assertIn("SASS CHANGED r.keys K{ct}:U8 sm_90 _Z2u8v", "".join(c.args[0] for c in
                                                                          stdout.write.call_args_list))


if __name__ == "__main__":
    unittest.main()
