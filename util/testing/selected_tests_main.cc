// A gtest main for targets that select their tests with --gtest_filter: it
// fails when the filter selects none, so that a renamed test cannot leave the
// target passing without running anything.

#include <cstdio>

#include "gtest/gtest.h"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  const int result = RUN_ALL_TESTS();
  if (testing::UnitTest::GetInstance()->test_to_run_count() == 0) {
    std::fprintf(stderr, "--gtest_filter=%s selects no test\n",
                 testing::GTEST_FLAG(filter).c_str());
    return 1;
  }
  return result;
}
