#include "table/block_builder.h"

#include <algorithm>

#include "util/coding.h"

namespace sstfilter {

void BlockBuilder::Add(absl::string_view key, absl::string_view value) {
  size_t shared = 0;
  if (entries_ % restart_interval_ == 0) {
    restarts_.push_back(static_cast<uint32_t>(buffer_.size()));
  } else {
    const size_t limit = std::min(last_key_.size(), key.size());
    while (shared < limit && last_key_[shared] == key[shared]) ++shared;
  }
  PutVarint32(&buffer_, static_cast<uint32_t>(shared));
  PutVarint32(&buffer_, static_cast<uint32_t>(key.size() - shared));
  PutVarint32(&buffer_, static_cast<uint32_t>(value.size()));
  buffer_.append(key.data() + shared, key.size() - shared);
  buffer_.append(value.data(), value.size());
  last_key_.assign(key.data(), key.size());
  ++entries_;
}

std::string BlockBuilder::Finish() {
  // An empty block still has one restart point, as LevelDB writes it.
  if (restarts_.empty()) restarts_.push_back(0);
  for (uint32_t restart : restarts_) PutFixed32(&buffer_, restart);
  PutFixed32(&buffer_, static_cast<uint32_t>(restarts_.size()));
  return std::move(buffer_);
}

}  // namespace sstfilter
