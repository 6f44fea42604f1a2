#include "engines/rocksdb/presence/progress_lines.h"

#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "rocksdb/env.h"

namespace sstfilter {
namespace presence_internal {

ProgressFn ProgressTo(const PresenceFilterOptions& options, rocksdb::DB* db) {
  return [progress = options.progress, db](const std::string& line) {
    if (progress) {
      progress(line);
      return;
    }
    std::shared_ptr<rocksdb::Logger> log = db->GetDBOptions().info_log;
    if (log != nullptr) {
      rocksdb::Log(rocksdb::InfoLogLevel::INFO_LEVEL, log, "%s", line.c_str());
    }
  };
}

std::string Describe(const ColumnFamilyFilter& filter) {
  return absl::StrCat("presence filter of column family '", filter.name(), "'");
}

ProgressLines::ProgressLines(ProgressFn emit, std::string prefix)
    : emit_(std::move(emit)),
      prefix_(std::move(prefix)),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void ProgressLines::Keys(uint64_t keys) {
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < kProgressInterval) return;
  last_ = now;
  emit_(absl::StrCat(prefix_, ": ", keys, " keys read in ", SecondsSinceStart(),
                     " s"));
}

double ProgressLines::SecondsSinceStart() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start_)
      .count();
}

}  // namespace presence_internal
}  // namespace sstfilter
