"""Host tests of scripts/ncu_source.py on a made-up source-level export of two kernels: the totals, the barrier waits
(sampled on the instruction after a barrier, so counted for the nearest barrier before), the main-path barriers, the
opcodes, and the side-by-side table."""
import io
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "ncu_source.py")
sys.path.insert(0, os.path.dirname(SCRIPT))
import ncu_source  # noqa: E402

COLUMNS = ["Address", "Source", "Warp Stall Sampling (All Samples)", "Instructions Executed", "L1 Wavefronts Shared",
           "L1 Wavefronts Shared Ideal", "stall_barrier", "stall_long_sb", "stall_barrier (Not Issued)"]


def kernel_block(name, rows):
    """One kernel of an export: ncu's own messages, the name line, the header, a line per instruction."""
    lines = ["==PROF== Connected to process 1\n", f'"Kernel Name","{name}",\n',
             ",".join(f'"{c}"' for c in COLUMNS) + "\n"]
    for i, (sass, samples, executed, barrier, long_sb) in enumerate(rows):
        values = [hex(0x1000 + 16 * i), sass, samples, f"{executed:,}", 0, 0, barrier, long_sb, barrier]
        lines.append(",".join(f'"{v}"' for v in values) + "\n")
    return "".join(lines)


# strata's kernel: two barriers per tile, one of them with long waits, one in a path that ran once.
STRATA = [("      LDG.E R2, desc[UR4][R2.64]", 5, 1000, 0, 5),
          ("      BAR.SYNC.DEFER_BLOCKING 0x0", 0, 1000, 0, 0),
          ("      UMOV UR4, 0x400", 40, 1000, 40, 0),
          ("      IADD3 R1, R2, R3, RZ", 2, 1000, 2, 0),
          ("@!P0  BAR.SYNC.DEFER_BLOCKING 0x0", 0, 1, 0, 0),
          ("      LDS R5, [R1]", 1, 1, 1, 0),
          ("      BAR.SYNC.DEFER_BLOCKING 0x0", 0, 990, 0, 0),
          ("      STG.E desc[UR4][R2.64], R5", 7, 990, 6, 1),
          ("      EXIT", 0, 0, 0, 0)]
CUB = [("      LDG.E R2, desc[UR4][R2.64]", 4, 500, 0, 4),
       ("      BAR.SYNC.DEFER_BLOCKING 0x0", 0, 500, 0, 0),
       ("      STG.E desc[UR4][R2.64], R5", 30, 500, 30, 0)]


class NcuSourceTest(unittest.TestCase):
    def kernels(self):
        text = kernel_block("void strata::sm_900::DeviceReduceByKeyKernel<int>(int)", STRATA) + \
            kernel_block("void cub::CUB_300001_SM_900::DeviceReduceByKeyKernel<int>(int)", CUB)
        return [ncu_source.Kernel(n, r) for n, r in ncu_source.read(text)]

    def test_reads_both_kernels(self):
        strata, cub = self.kernels()
        self.assertEqual(strata.short_name(), "strata DeviceReduceByKeyKernel")
        self.assertEqual(cub.short_name(), "cub DeviceReduceByKeyKernel")
        self.assertEqual(strata.executed(), 1000 * 4 + 1 + 1 + 990 * 2)
        self.assertEqual(strata.samples(), 55)
        self.assertEqual(strata.reasons()["barrier"], 49)
        self.assertEqual(strata.reasons()["long_sb"], 6)
        self.assertNotIn("barrier (Not Issued)", strata.reasons())

    def test_barrier_waits_go_to_the_barrier_before(self):
        strata, _ = self.kernels()
        waits = [(bar["index"], wait) for bar, wait in strata.barriers()]
        self.assertEqual(waits, [(1, 42.0), (4, 1.0), (6, 6.0)])
        self.assertEqual([bar["index"] for bar, _ in strata.main_barriers()], [1, 6])

    def test_opcodes_strip_predicates(self):
        strata, _ = self.kernels()
        ops = strata.opcodes()
        self.assertEqual(ops["BAR.SYNC.DEFER_BLOCKING"], 1000 + 1 + 990)
        self.assertEqual(ops["LDS"], 1)

    def test_main_prints_every_kernel_and_the_comparison(self):
        text = kernel_block("void strata::k::DeviceSelectSweepKernel<int>(int)", STRATA) + \
            kernel_block("void cub::k::DeviceSelectSweepKernel<int>(int)", CUB)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "source.csv")
            with open(path, "w") as f:
                f.write(text)
            out = io.StringIO()
            stdout, sys.stdout = sys.stdout, out
            try:
                rc = ncu_source.main(["--top", "2", path])
            finally:
                sys.stdout = stdout
        report = out.getvalue()
        self.assertEqual(rc, 0)
        self.assertIn("== strata DeviceSelectSweepKernel", report)
        self.assertIn("== cub DeviceSelectSweepKernel", report)
        self.assertIn("barriers on the main path (run at least half as often as the most frequent): 2", report)
        self.assertIn("1 more ran less often: 1 times, waits sampled 1", report)
        self.assertIn("== side by side", report)
        # CUB's samples as a fraction of strata's: 34 / 55.
        self.assertRegex(report, r"samples\s+55\s+1\.00x\s+34\s+0\.62x")

    def test_a_file_without_kernels_fails(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "empty.csv")
            with open(path, "w") as f:
                f.write("==PROF== No kernels were profiled.\n")
            out = io.StringIO()
            stdout, sys.stdout = sys.stdout, out
            try:
                rc = ncu_source.main([path])
            finally:
                sys.stdout = stdout
        self.assertEqual(rc, 1)


if __name__ == "__main__":
    unittest.main()
