// Presents any sstfilter FilterPolicy to the harness (see measure.h for the
// adapter shape): builds through FilterBuilder, queries through FilterReader's
// single and batched MayMatch, and takes the expected false-positive rate from
// the reader itself.

#ifndef SSTFILTER_BENCH_SSTFILTER_PEER_H_
#define SSTFILTER_BENCH_SSTFILTER_PEER_H_

#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "bench/built_filter.h"
#include "filter/bloom_like_policy.h"
#include "filter/filter_policy.h"

namespace sstfilter {
namespace bench {

class SstFilterPeer {
 public:
  static constexpr bool kHasBatch = true;

  // A peer over a policy already made (one named by a spec string).
  static std::unique_ptr<SstFilterPeer> ForPolicy(
      std::unique_ptr<const FilterPolicy> policy) {
    return std::unique_ptr<SstFilterPeer>(new SstFilterPeer(std::move(policy)));
  }

  class Builder {
   public:
    explicit Builder(std::unique_ptr<FilterBuilder> builder)
        : builder_(std::move(builder)) {}
    void Add(absl::string_view key) { builder_->AddKey(key); }
    absl::Status Finish(BuiltFilter* out) {
      builder_->Finish(&out->storage);
      out->bytes = out->storage;
      return absl::OkStatus();
    }

   private:
    std::unique_ptr<FilterBuilder> builder_;
  };

  class Reader {
   public:
    explicit Reader(std::unique_ptr<FilterReader> reader)
        : reader_(std::move(reader)) {}
    bool MayMatch(absl::string_view key) const {
      return reader_->MayMatch(key);
    }
    void MayMatchBatch(const absl::string_view* keys, int n,
                       bool* results) const {
      reader_->MayMatch(absl::MakeConstSpan(keys, static_cast<size_t>(n)),
                        results);
    }
    double ExpectedFpp(size_t /*num_keys*/) const {
      return reader_->ExpectedFpp();
    }

   private:
    std::unique_ptr<FilterReader> reader_;
  };

  std::unique_ptr<Builder> NewBuilder() const {
    return std::make_unique<Builder>(policy_->NewBuilder());
  }
  Reader NewReader(absl::string_view filter) const {
    return Reader(policy_->NewReader(filter));
  }
  // Any bytes the policy produced are its own kind.
  absl::Status CheckKind(absl::string_view /*filter*/) const {
    return absl::OkStatus();
  }
  double ConfiguredBitsPerKey() const { return policy_->BitsPerKey(); }
  std::string Details() const {
    const BloomLikeFilterPolicy* bloom = AsBloomLike(*policy_);
    if (bloom == nullptr) return policy_->Name();
    return absl::StrFormat("%s k=%d", policy_->Name(), bloom->NumProbes());
  }

 private:
  explicit SstFilterPeer(std::unique_ptr<const FilterPolicy> policy)
      : policy_(std::move(policy)) {}

  std::unique_ptr<const FilterPolicy> policy_;
};

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_SSTFILTER_PEER_H_
