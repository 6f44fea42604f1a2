#include "table/block.h"

#include <algorithm>

#include "util/coding.h"

namespace sstfilter {
namespace {

constexpr size_t kRestartBytes = 4;  // fixed32 per restart, and the count

struct EntryHeader {
  uint32_t shared = 0;
  uint32_t non_shared = 0;
  uint32_t value_length = 0;
  const char* key_delta = nullptr;  // non_shared key bytes, then the value
};

// Decodes the header at p and checks that the key delta and value lie before
// limit.
bool DecodeEntryHeader(const char* p, const char* limit, EntryHeader* out) {
  p = GetVarint32Ptr(p, limit, &out->shared);
  if (p == nullptr) return false;
  p = GetVarint32Ptr(p, limit, &out->non_shared);
  if (p == nullptr) return false;
  p = GetVarint32Ptr(p, limit, &out->value_length);
  if (p == nullptr) return false;
  const uint64_t need = uint64_t{out->non_shared} + out->value_length;
  if (need > static_cast<uint64_t>(limit - p)) return false;
  out->key_delta = p;
  return true;
}

}  // namespace

int BytewiseCompare(absl::string_view a, absl::string_view b) {
  return a.compare(b);
}

absl::StatusOr<Block> Block::Parse(absl::string_view contents) {
  if (contents.size() < kRestartBytes) {
    return absl::DataLossError("block too short for its restart count");
  }
  const uint32_t n = DecodeFixed32(contents.data() + contents.size() - 4);
  const uint64_t max_restarts = (contents.size() - kRestartBytes) / 4;
  if (n > max_restarts) {
    return absl::DataLossError("block's restart array is larger than it");
  }
  const size_t restarts_at = contents.size() - kRestartBytes * (1 + size_t{n});
  return Block(contents.substr(0, restarts_at), contents.data() + restarts_at,
               n);
}

uint32_t Block::RestartOffset(uint32_t i) const {
  return DecodeFixed32(restarts_ + kRestartBytes * size_t{i});
}

void BlockIterator::Corrupt(absl::string_view why) {
  valid_ = false;
  status_ = absl::DataLossError(why);
}

bool BlockIterator::ParseEntryAt(uint32_t offset) {
  const absl::string_view entries = block_.entries();
  if (offset >= entries.size()) {
    valid_ = false;  // the end, not an error
    return false;
  }
  EntryHeader h;
  if (!DecodeEntryHeader(entries.data() + offset,
                         entries.data() + entries.size(), &h) ||
      h.shared > key_.size()) {
    Corrupt("malformed block entry");
    return false;
  }
  key_.resize(h.shared);
  key_.append(h.key_delta, h.non_shared);
  value_ = absl::string_view(h.key_delta + h.non_shared, h.value_length);
  next_offset_ =
      static_cast<uint32_t>(value_.data() + value_.size() - entries.data());
  valid_ = true;
  return true;
}

bool BlockIterator::RestartKey(uint32_t i, absl::string_view* key) {
  const absl::string_view entries = block_.entries();
  const uint32_t offset = block_.RestartOffset(i);
  EntryHeader h;
  if (offset >= entries.size() ||
      !DecodeEntryHeader(entries.data() + offset,
                         entries.data() + entries.size(), &h) ||
      h.shared != 0) {
    Corrupt("malformed restart point");
    return false;
  }
  *key = absl::string_view(h.key_delta, h.non_shared);
  return true;
}

void BlockIterator::SeekToFirst() {
  key_.clear();
  status_ = absl::OkStatus();
  ParseEntryAt(0);
}

void BlockIterator::Seek(absl::string_view target, KeyCompare compare) {
  key_.clear();
  status_ = absl::OkStatus();
  valid_ = false;
  if (block_.num_restarts() == 0) {
    ParseEntryAt(0);  // no restarts: entries (if any) scanned from the start
  } else {
    // The last restart whose key is < target; the scan starts there.
    uint32_t left = 0;
    uint32_t right = block_.num_restarts() - 1;
    while (left < right) {
      const uint32_t mid = left + (right - left + 1) / 2;
      absl::string_view mid_key;
      if (!RestartKey(mid, &mid_key)) return;
      if (compare(mid_key, target) < 0) {
        left = mid;
      } else {
        right = mid - 1;
      }
    }
    ParseEntryAt(block_.RestartOffset(left));
  }
  while (valid_ && compare(key_, target) < 0) Next();
}

void BlockIterator::Next() {
  if (!valid_) return;
  ParseEntryAt(next_offset_);
}

}  // namespace sstfilter
