// Verified builds: a finished filter is checked against every key it was built
// from before a table stores it, so that a filter that would answer "no" to
// one of its own keys (a builder's bug, a bit flipped in memory) becomes an
// error the writer sees instead of data lost to every reader (as RocksDB's
// detect_filter_construct_corruption; the RocksDB adapter offers the same).
//
//   sstfilter::VerifiedFilterBuilder builder(**policy);
//   for (const std::string& key : keys) builder.AddKey(key);
//   absl::Status status = builder.Finish(&filter);
//   if (!status.ok()) { /* DataLossError: do not write the table */ }

#ifndef SSTFILTER_FILTER_VERIFIED_BUILD_H_
#define SSTFILTER_FILTER_VERIFIED_BUILD_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "filter/filter_format.h"
#include "filter/filter_policy.h"

namespace sstfilter {

// The keys of one filter, kept so that the finished filter can be checked.
class AddedKeys {
 public:
  void Add(absl::string_view key);
  size_t size() const { return ends_.size(); }
  void Clear();

  // Bytes allocated for the keys kept.
  size_t AllocatedBytes() const;

  // OK when reader matches every key added since the last Clear; otherwise
  // DataLossError naming how many keys it misses and the first one (its
  // index, in hex). Every key is asked, in batches.
  absl::Status CheckEveryKeyMatches(const FilterReader& reader) const;

 private:
  std::string bytes_;         // the keys, one after another
  std::vector<size_t> ends_;  // where each key ends in bytes_
};

// A builder of policy's filters whose Finish checks the filter against every
// key added before handing it back. Not a FilterBuilder: its Finish can fail.
// The call protocol is FilterBuilder's: (AddKey* Finish)*.
// REQUIRES: policy outlives the builder.
//
// Cost: the keys are kept until Finish, their bytes plus 8 bytes per key (an
// offset), in two arrays that grow by doubling (so up to twice that while
// building); then one query of the finished filter per key, in batches
// (filter/hybrid/README.md, "Verified builds", has the figures).
class VerifiedFilterBuilder {
 public:
  explicit VerifiedFilterBuilder(const FilterPolicy& policy);

  void AddKey(absl::string_view key);
  size_t NumAdded() const { return builder_->NumAdded(); }

  // Appends the filter for the keys added since the last Finish to *dst and
  // returns OK when every one of them matches it through the policy's reader.
  // Otherwise leaves *dst as it was and returns DataLossError. Resets either
  // way.
  absl::Status Finish(std::string* dst);

 private:
  const FilterPolicy& policy_;
  const std::unique_ptr<FilterBuilder> builder_;
  AddedKeys keys_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_VERIFIED_BUILD_H_
