// The adapters' public headers compile as C++20: RocksDB 10.7 and later need
// C++20 to include their own headers, so a program that uses them includes
// these under C++20 too. Built with -std=c++20 (BUILD.bazel); it fails to
// compile, not to run, when a header uses what C++20 removed.

#include "engines/rocksdb/rocksdb_adapter.h"
#include "engines/rocksdb/rocksdb_hybrid_policy.h"
#include "engines/rocksdb/rocksdb_per_level_policy.h"
#include "engines/rocksdb/rocksdb_range_filter.h"
#include "filter/rocksdb/rocksdb_filter_bits.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

TEST(Cxx20HeadersTest, CompiledAsCxx20) { EXPECT_GE(__cplusplus, 202002L); }

}  // namespace
}  // namespace sstfilter
