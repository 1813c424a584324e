// main() of the strata test executables: GPU tests are built with STRATA_TEST_NEEDS_GPU=1, host tests with 0; the
// Catch2 runner behind it (test_main.cpp) is compiled once for both.
int strata_test_run(int argc, char* argv[], bool needs_gpu);

int main(int argc, char* argv[])
{
  return strata_test_run(argc, argv, STRATA_TEST_NEEDS_GPU != 0);
}
