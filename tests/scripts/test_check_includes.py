"""Host tests of scripts/check_includes.py, on small fake header trees: a clean tree passes, and each kind of
violation fails at the right file and line."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "check_includes.py")
sys.path.insert(0, os.path.dirname(SCRIPT))
import check_includes  # noqa: E402

# One header per layer, each including the one below; comments and strings that mention what is forbidden.
CLEAN = {
    "config.cuh": "#pragma once\n#if defined(__CUDACC__)\n#  define STRATA_DEVICE __device__\n#else\n"
                  "#  define STRATA_DEVICE\n#endif\n#define STRATA_KERNEL_ATTRIBUTES __global__\n",
    "nvtx.cuh": "#pragma once\n#include <strata/config.cuh>\n",
    "util/ptx.cuh": "#pragma once\n#include <strata/config.cuh>\n#include <strata/backend/error.hpp>\n"
                    "STRATA_DEVICE inline int lane_id();\n",
    "backend/error.hpp": "#pragma once\n#include <system_error>\n",
    "backend/memory_pool.hpp": "#pragma once\n#include <strata/backend/error.hpp>\n#include <strata/config.cuh>\n"
                               "#include <strata/nvtx.cuh>\n"
                               "// `kernel` is any __global__ function; STRATA_DEVICE is not used here\n"
                               "/* kernel<<<grid, block>>>() */ const char* what = \"__device__ <<<\";\n",
    "thread/thread_reduce.cuh": "#pragma once\n#include <strata/util/ptx.cuh>\n",
    "warp/warp_reduce.cuh": "#pragma once\n#include <strata/thread/thread_reduce.cuh>\n"
                            "#include <strata/warp/specializations/warp_reduce_shfl.cuh>\n",
    "warp/specializations/warp_reduce_shfl.cuh": "#pragma once\n#include <strata/warp/warp_types.cuh>\n",
    "warp/warp_types.cuh": "#pragma once\n#include <strata/config.cuh>\n",
    "block/block_reduce.cuh": "#pragma once\n#include <strata/warp/warp_reduce.cuh>\n"
                              "// #include <strata/execution/reduce.cuh>\n"
                              "/*\n#include <strata/agent/agent_reduce.cuh>\n*/\n",
    "agent/agent_reduce.cuh": "#pragma once\n#include <strata/block/block_reduce.cuh>\n",
    "device/dispatch/tuning/tuning_reduce.cuh": "#pragma once\n#include <strata/agent/agent_reduce.cuh>\n",
    "device/dispatch/dispatch_reduce.cuh": "#pragma once\n#include <strata/device/dispatch/tuning/tuning_reduce.cuh>\n",
    "device/device_reduce.cuh": "#pragma once\n#include <strata/device/dispatch/dispatch_reduce.cuh>\n"
                                "#include <strata/nvtx.cuh>\n",
    "execution/reduce.cuh": "#pragma once\n#include <strata/device/device_reduce.cuh>\n#include <thrust/reduce.h>\n",
    "strata.cuh": "#pragma once\n#include <strata/execution/reduce.cuh>\n#include <strata/block/block_reduce.cuh>\n"
                  "#include <thrust/device_vector.h>\n",
}


class CheckIncludesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = os.path.join(self.tmp.name, "include", "strata")

    def tearDown(self):
        self.tmp.cleanup()

    def check(self, changes=None, layers=check_includes.LAYERS):
        """Errors of the clean tree with `changes` ({path: text}) written over it, as printed lines."""
        for rel, text in dict(CLEAN, **(changes or {})).items():
            path = os.path.join(self.root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        return ["%s:%d: error [%s]: %s" % e for e in check_includes.check(self.root, layers).errors]

    def assertOneError(self, errors, rel, line, rule, *words):
        self.assertEqual(len(errors), 1, errors)
        self.assertTrue(errors[0].startswith("%s:%d: error [%s]: " % (os.path.join(self.root, rel), line, rule)),
                        errors[0])
        for w in words:
            self.assertIn(w, errors[0])

    def test_a_clean_tree_passes(self):
        self.assertEqual(self.check(), [])
        result = check_includes.check(self.root)
        self.assertEqual(result.files, len(CLEAN))
        self.assertEqual(result.edges, 20)

    def test_an_upward_include_fails(self):
        errors = self.check({"block/block_reduce.cuh": "#pragma once\n#include <strata/warp/warp_reduce.cuh>\n\n"
                                                       "#include <strata/agent/agent_reduce.cuh>\n"})
        # block -> agent -> block is also a cycle; the upward edge is the one named at block_reduce.cuh:4.
        up = [e for e in errors if "[up]" in e]
        self.assertOneError(up, "block/block_reduce.cuh", 4, "up", "#include <strata/agent/agent_reduce.cuh>",
                            "block (rank 3)", "agent (rank 4)")

    def test_an_upward_include_of_a_base_header_fails(self):
        errors = self.check({"util/ptx.cuh": CLEAN["util/ptx.cuh"] + "#include <strata/thread/thread_reduce.cuh>\n"})
        cycle = [e for e in errors if "[cycle]" in e]
        self.assertEqual(len(cycle), 1, errors)
        self.assertOneError([e for e in errors if "[up]" in e], "util/ptx.cuh", 5, "up", "thread (rank 1)")

    def test_a_sideways_include_fails(self):
        errors = self.check({"block/detail/helper.cuh": "#pragma once\n#include <strata/config.cuh>\n",
                             "block/block_reduce.cuh": "#pragma once\n#include <strata/warp/warp_reduce.cuh>\n"
                                                       "#include <strata/block/detail/helper.cuh>\n"})
        self.assertOneError(errors, "block/block_reduce.cuh", 3, "sideways",
                            "#include <strata/block/detail/helper.cuh>", "block/ and block/detail/")

    def test_a_sideways_include_between_layers_of_one_rank_fails(self):
        layers = check_includes.LAYERS + (check_includes.layer(1, "iterator", "iterator/"),)
        errors = self.check({"iterator/counting.cuh": "#pragma once\n#include <strata/thread/thread_reduce.cuh>\n"},
                            layers)
        self.assertOneError(errors, "iterator/counting.cuh", 2, "sideways", "iterator and thread are both at rank 1")

    def test_a_cycle_fails_and_names_its_files(self):
        errors = self.check({"warp/warp_types.cuh": "#pragma once\n#include <strata/config.cuh>\n"
                                                    "#include <strata/warp/warp_reduce.cuh>\n"})
        self.assertOneError(errors, "warp/specializations/warp_reduce_shfl.cuh", 2, "cycle",
                            "warp/specializations/warp_reduce_shfl.cuh -> warp/warp_types.cuh -> "
                            "warp/warp_reduce.cuh -> warp/specializations/warp_reduce_shfl.cuh")

    def test_a_header_that_includes_itself_is_a_cycle(self):
        errors = self.check({"thread/thread_reduce.cuh": "#pragma once\n#include <strata/util/ptx.cuh>\n"
                                                         "#include \"thread_reduce.cuh\"\n"})
        self.assertOneError(errors, "thread/thread_reduce.cuh", 3, "cycle",
                            "thread/thread_reduce.cuh -> thread/thread_reduce.cuh")

    def test_thrust_outside_execution_fails(self):
        errors = self.check({"device/device_reduce.cuh": CLEAN["device/device_reduce.cuh"]
                             + "#include <thrust/execution_policy.h>\n"})
        self.assertOneError(errors, "device/device_reduce.cuh", 4, "thrust",
                            "#include <thrust/execution_policy.h>", "not to device")

    def test_thrust_iterators_below_execution_fail(self):
        # Not even Thrust's fancy iterators: the device layer and everything below it know nothing of Thrust.
        for rel in ("device/device_reduce.cuh", "block/block_reduce.cuh"):
            errors = self.check({rel: CLEAN[rel] + "#include <thrust/iterator/counting_iterator.h>\n"})
            self.assertEqual(len(errors), 1, errors)
            self.assertIn("%s:%d: error [thrust]" % (rel, CLEAN[rel].count("\n") + 1), errors[0])

    def test_device_code_in_a_backend_header_fails(self):
        errors = self.check({"backend/memory_pool.hpp": CLEAN["backend/memory_pool.hpp"]
                             + "\n__global__ void probe() {}\n"})
        self.assertOneError(errors, "backend/memory_pool.hpp", 8, "host-only", "__global__")
        # A macro of the tree that expands to device code is device code too.
        errors = self.check({"backend/memory_pool.hpp": "#pragma once\n#include <strata/config.cuh>\n"
                                                        "STRATA_KERNEL_ATTRIBUTES\nvoid probe() {}\n"})
        self.assertOneError(errors, "backend/memory_pool.hpp", 3, "host-only", "STRATA_KERNEL_ATTRIBUTES")

    def test_a_backend_header_includes_only_host_safe_headers(self):
        errors = self.check({"backend/memory_pool.hpp": "#pragma once\n#include <strata/util/ptx.cuh>\n"})
        self.assertOneError(errors, "backend/memory_pool.hpp", 2, "host-only", "#include <strata/util/ptx.cuh>",
                            "util/ptx.cuh is not host-safe", "util/ptx.cuh:4: STRATA_DEVICE")
        errors = self.check({"backend/memory_pool.hpp": "#pragma once\n#include <strata/thread/thread_reduce.cuh>\n"})
        self.assertOneError([e for e in errors if "[up]" in e], "backend/memory_pool.hpp", 2, "up",
                            "backend (rank -1) includes thread (rank 1)")

    def test_a_missing_strata_header_fails(self):
        errors = self.check({"agent/agent_reduce.cuh": CLEAN["agent/agent_reduce.cuh"]
                             + "#include <strata/block/block_load.cuh>\n"})
        self.assertOneError(errors, "agent/agent_reduce.cuh", 3, "missing", "#include <strata/block/block_load.cuh>")

    def test_the_longest_matching_member_places_a_header(self):
        for layers in (check_includes.LAYERS, tuple(reversed(check_includes.LAYERS))):
            self.assertEqual([check_includes.layer_of(rel, layers).name for rel in
                              ("device/dispatch/tuning/tuning_reduce.cuh", "device/dispatch/dispatch_reduce.cuh",
                               "device/device_reduce.cuh", "config.cuh", "strata.cuh")],
                             ["tuning", "dispatch", "device", "base", "umbrella"])

    def test_a_header_in_no_layer_fails(self):
        errors = self.check({"iterator/counting.cuh": "#pragma once\n"})
        self.assertOneError(errors, "iterator/counting.cuh", 1, "unlisted", "LAYERS")

    def test_the_command_prints_errors_and_a_summary_and_exits_1(self):
        self.check({"warp/warp_reduce.cuh": CLEAN["warp/warp_reduce.cuh"]
                    + "#include <strata/block/block_reduce.cuh>\n"})
        run = subprocess.run([sys.executable, SCRIPT, self.root], stdout=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(run.returncode, 1)
        lines = run.stdout.splitlines()
        self.assertIn(os.path.join(self.root, "warp/warp_reduce.cuh") + ":4: error [up]: '#include "
                      "<strata/block/block_reduce.cuh>': warp (rank 2) includes block (rank 3), a higher layer", lines)
        self.assertEqual(lines[-1], "check_includes: %d files, 21 edges, 2 errors" % len(CLEAN))  # up, and a cycle

    def test_the_command_exits_0_on_a_clean_tree(self):
        self.check()
        run = subprocess.run([sys.executable, SCRIPT, self.root], stdout=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(run.returncode, 0)
        self.assertEqual(run.stdout, "check_includes: %d files, 20 edges, 0 errors\n" % len(CLEAN))


if __name__ == "__main__":
    unittest.main()
