// A RocksDB merge operator for tests: each operand is appended to the value,
// after a ',', so that a lookup shows every operand in order.
//
//   options.merge_operator = std::make_shared<test::AppendOperator>();
//   model[key] = test::AppendOperator::Appended(&model[key], "x");

#ifndef SSTFILTER_TABLE_TESTING_APPEND_OPERATOR_H_
#define SSTFILTER_TABLE_TESTING_APPEND_OPERATOR_H_

#include <string>

#include "rocksdb/merge_operator.h"
#include "rocksdb/slice.h"

namespace sstfilter {
namespace test {

class AppendOperator final : public rocksdb::AssociativeMergeOperator {
 public:
  // The value after operand is merged into value (nullptr: the key has none).
  static std::string Appended(const std::string* value,
                              const std::string& operand) {
    return value == nullptr ? operand : *value + "," + operand;
  }

  bool Merge(const rocksdb::Slice& /*key*/, const rocksdb::Slice* existing,
             const rocksdb::Slice& operand, std::string* new_value,
             rocksdb::Logger* /*logger*/) const override {
    if (existing == nullptr) {
      *new_value = operand.ToString();
    } else {
      const std::string value = existing->ToString();
      *new_value = Appended(&value, operand.ToString());
    }
    return true;
  }
  const char* Name() const override { return "AppendOperator"; }
};

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_TESTING_APPEND_OPERATOR_H_
