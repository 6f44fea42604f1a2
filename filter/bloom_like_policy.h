// The Bloom families' own accessor: the number of probes per key, which the
// generic FilterPolicy lacks (a compact filter has no probes). The native,
// LevelDB and RocksDB Bloom policies are BloomLikeFilterPolicy; ask any
// policy with AsBloomLike:
//
//   if (const sstfilter::BloomLikeFilterPolicy* bloom =
//           sstfilter::AsBloomLike(**policy)) {
//     std::cout << "k = " << bloom->NumProbes() << "\n";
//   }

#ifndef SSTFILTER_FILTER_BLOOM_LIKE_POLICY_H_
#define SSTFILTER_FILTER_BLOOM_LIKE_POLICY_H_

#include "filter/filter_policy.h"

namespace sstfilter {

class BloomLikeFilterPolicy : public FilterPolicy {
 public:
  // Probes (hash functions) per key, as the format stores them in each
  // filter's trailer.
  virtual int NumProbes() const = 0;

 protected:
  using FilterPolicy::FilterPolicy;
};

// policy as a Bloom-like policy, or nullptr for a policy of another family.
inline const BloomLikeFilterPolicy* AsBloomLike(const FilterPolicy& policy) {
  return dynamic_cast<const BloomLikeFilterPolicy*>(&policy);
}

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BLOOM_LIKE_POLICY_H_
