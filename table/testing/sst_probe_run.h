// Runs the sst_probe binary (table/sst_probe_main.cc) from a test, for tests
// that check what a user of the tool sees.

#ifndef SSTFILTER_TABLE_TESTING_SST_PROBE_RUN_H_
#define SSTFILTER_TABLE_TESTING_SST_PROBE_RUN_H_

#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "table/testing/real_tables.h"

namespace sstfilter {
namespace test {

struct ProbeRun {
  int exit_status = -1;  // -1: it could not be started
  std::string out;
  std::string err;
};

// Runs sst_probe with args, stdout and stderr captured through files in dir.
// REQUIRES: run by bazel test with //table:sst_probe in the test's data.
ProbeRun RunProbe(const TempDir& dir, const std::vector<std::string>& args);

// The lines of text, empty ones dropped.
std::vector<std::string> Lines(const std::string& text);

// One JSON object per line, as sst_probe --format=json prints them.
std::vector<nlohmann::json> JsonLines(const std::string& text);

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_TESTING_SST_PROBE_RUN_H_
