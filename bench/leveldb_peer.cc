#include "bench/leveldb_peer.h"

#include <climits>
#include <cmath>

#include "absl/strings/str_format.h"
#include "bench/fpp_math.h"
#include "leveldb/db.h"
#include "util/bloom_math.h"

namespace sstfilter {
namespace bench {

absl::StatusOr<std::unique_ptr<LevelDbPeer>> LevelDbPeer::Create(
    const FilterOptions& options) {
  absl::Status valid = ValidateFilterOptions(options);
  if (!valid.ok()) return valid;
  const double bits = PeerBitsPerKey(options);
  const long rounded = std::lround(bits);
  if (rounded < 1) {
    return absl::InvalidArgumentError(
        absl::StrFormat("leveldb: %g bits/key rounds to %d", bits, rounded));
  }
  return std::unique_ptr<LevelDbPeer>(
      new LevelDbPeer(static_cast<int>(rounded)));
}

LevelDbPeer::LevelDbPeer(int bits_per_key)
    : bits_per_key_(bits_per_key),
      policy_(leveldb::NewBloomFilterPolicy(bits_per_key)) {}

absl::Status LevelDbPeer::Builder::Finish(BuiltFilter* out) {
  // LevelDB sizes the filter as int(n) * int(bits_per_key) in int arithmetic.
  const size_t n = starts_.size();
  if (n > static_cast<size_t>(INT_MAX) / static_cast<size_t>(bits_per_key_)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "leveldb: %d keys at %d bits/key overflow LevelDB's int filter size", n,
        bits_per_key_));
  }
  std::vector<leveldb::Slice> slices;
  slices.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const size_t end = i + 1 < n ? starts_[i + 1] : keys_.size();
    slices.emplace_back(keys_.data() + starts_[i], end - starts_[i]);
  }
  policy_->CreateFilter(slices.data(), static_cast<int>(n), &out->storage);
  out->bytes = out->storage;
  keys_.clear();
  starts_.clear();
  return absl::OkStatus();
}

double LevelDbPeer::Reader::ExpectedFpp(size_t num_keys) const {
  if (filter_.size() < 2 || num_keys == 0) return 0.0;
  const int k = static_cast<unsigned char>(filter_[filter_.size() - 1]);
  const double bits_per_key =
      (filter_.size() - 1) * 8.0 / static_cast<double>(num_keys);
  return WithHash32Collisions(StandardBloomFpp(bits_per_key, k), num_keys);
}

std::string LevelDbPeer::Details() const {
  return absl::StrFormat("%s bits/key=%d", policy_->Name(), bits_per_key_);
}

std::string LevelDbPeer::Version() {
  return absl::StrFormat("%d.%d", leveldb::kMajorVersion,
                         leveldb::kMinorVersion);
}

}  // namespace bench
}  // namespace sstfilter
