// A test and self-check wrapper around any adapter of measure.h's shape: it
// answers "no" for the first key its builders were given (an added key), so a
// harness that checks every added key must report a false negative. Used by
// harness_test.cc and by filter_bench --inject_false_negative.

#ifndef SSTFILTER_BENCH_DROP_ONE_KEY_PEER_H_
#define SSTFILTER_BENCH_DROP_ONE_KEY_PEER_H_

#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "bench/built_filter.h"

namespace sstfilter {
namespace bench {

template <typename Inner>
class DropOneKeyPeer {
 public:
  static constexpr bool kHasBatch = Inner::kHasBatch;

  explicit DropOneKeyPeer(std::unique_ptr<Inner> inner)
      : inner_(std::move(inner)), dropped_(std::make_shared<std::string>()) {}

  class Builder {
   public:
    Builder(std::unique_ptr<typename Inner::Builder> inner,
            std::shared_ptr<std::string> dropped)
        : inner_(std::move(inner)), dropped_(std::move(dropped)) {}
    void Add(absl::string_view key) {
      if (dropped_->empty()) dropped_->assign(key.data(), key.size());
      inner_->Add(key);
    }
    absl::Status Finish(BuiltFilter* out) { return inner_->Finish(out); }

   private:
    std::unique_ptr<typename Inner::Builder> inner_;
    std::shared_ptr<std::string> dropped_;
  };

  class Reader {
   public:
    Reader(typename Inner::Reader inner, std::shared_ptr<std::string> dropped)
        : inner_(std::move(inner)), dropped_(std::move(dropped)) {}
    bool MayMatch(absl::string_view key) const {
      return key != *dropped_ && inner_.MayMatch(key);
    }
    void MayMatchBatch(const absl::string_view* keys, int n,
                       bool* results) const {
      inner_.MayMatchBatch(keys, n, results);
      for (int i = 0; i < n; ++i)
        results[i] = results[i] && keys[i] != *dropped_;
    }
    double ExpectedFpp(size_t num_keys) const {
      return inner_.ExpectedFpp(num_keys);
    }

   private:
    typename Inner::Reader inner_;
    std::shared_ptr<std::string> dropped_;
  };

  std::unique_ptr<Builder> NewBuilder() const {
    return std::make_unique<Builder>(inner_->NewBuilder(), dropped_);
  }
  Reader NewReader(absl::string_view filter) const {
    return Reader(inner_->NewReader(filter), dropped_);
  }
  absl::Status CheckKind(absl::string_view filter) const {
    return inner_->CheckKind(filter);
  }
  double ConfiguredBitsPerKey() const { return inner_->ConfiguredBitsPerKey(); }
  std::string Details() const {
    return inner_->Details() + " (drops one added key)";
  }

 private:
  std::unique_ptr<Inner> inner_;
  std::shared_ptr<std::string> dropped_;
};

}  // namespace bench
}  // namespace sstfilter

#endif  // SSTFILTER_BENCH_DROP_ONE_KEY_PEER_H_
