// redis_bench's tables, printed from the JSON object of its measurements
// (measure.h) or of a saved --json file: its own, one per key count, and
// engines/redis/README.md's shorter one. Rows name sstfilter's filter by its
// spec family and the others as lib: peers.

#ifndef SSTFILTER_ENGINES_REDIS_BENCH_REPORT_H_
#define SSTFILTER_ENGINES_REDIS_BENCH_REPORT_H_

#include <string>

#include "nlohmann/json.hpp"

namespace sstfilter {
namespace bench {

// Markdown: one table per key count, and the ratios of sstfilter to the
// others. A figure missing from out prints as "–".
std::string RedisBenchTable(const nlohmann::json& out);

// engines/redis/README.md's markdown: every key count in one table, the
// figures a user choosing between the implementations needs, and the ratios.
// A figure missing from out prints as "–".
std::string ReadmeTable(const nlohmann::json& out);

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_REDIS_BENCH_REPORT_H_
