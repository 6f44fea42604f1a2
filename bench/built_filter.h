// The bytes of one filter as an implementation's builder returned them, whoever
// owns them: sstfilter and LevelDB append to a std::string, RocksDB hands back
// a buffer.

#ifndef SSTFILTER_BENCH_BUILT_FILTER_H_
#define SSTFILTER_BENCH_BUILT_FILTER_H_

#include <memory>
#include <string>

#include "absl/strings/string_view.h"

namespace sstfilter {
namespace bench {

struct BuiltFilter {
  std::string storage;  // used by builders that append to a string
  std::unique_ptr<const char[]>
      external;             // used by builders that return a buffer
  absl::string_view bytes;  // the filter, trailer included
};

// Largest batch a batched query passes at once: RocksDB's MultiGet batch size.
constexpr int kBatchSize = 32;  // keys

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_BUILT_FILTER_H_
