// A Bloom filter with no key limit whose false-positive rate over all keys
// stays within the configured bound however many keys arrive: a scalable
// Bloom filter (Almeida et al., as RedisBloom's BF.RESERVE builds them), which
// adds a layer where a filter sized for n keys would pass its rate.
// inmemory/mutable/README.md has the design.
//
//   sstfilter::ScalableBloomOptions options;
//   options.fpp = 0.01;  // over all keys, however many
//   auto filter = sstfilter::ScalableBloomFilter::Create(options);
//   absl::StatusOr<bool> added = (*filter)->Add("apple");  // error: no memory

#ifndef SSTFILTER_INMEMORY_MUTABLE_SCALABLE_BLOOM_H_
#define SSTFILTER_INMEMORY_MUTABLE_SCALABLE_BLOOM_H_

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "inmemory/mutable/mutable_bloom.h"

namespace sstfilter {

struct ScalableBloomOptions {
  // Bound on the false-positive rate over all keys, in (0, 1).
  double fpp = 0.01;
  // Keys the first layer holds before a second is made; at least 1.
  uint64_t initial_keys = 0;
  // Each layer holds growth times the keys of the one before; at least 1
  // (RedisBloom's EXPANSION, whose default is also 2). 2 or 4 keep the number
  // of layers, which every query of an absent key visits, logarithmic.
  double growth = 2.0;
  // Each layer's rate is tightening times the one before's; in (0, 1)
  // (Almeida et al.'s r; RedisBloom fixes it at 0.5). Closer to 1 spends less
  // memory on later layers and more on the first.
  double tightening = 0.5;
};

// At most this many layers: with the defaults, initial_keys * (2^64 - 1) keys.
constexpr size_t kMaxScalableLayers = 64;

// Layers are MutableBloomFilters on the native layout; layer i holds up to
// initial_keys * growth^i keys at rate p (1 - r) r^i / 1.05, r the
// tightening ratio, so the rates sum to less than p, and a key matches if any
// layer does. Add first asks every layer, so repeated keys never fill a
// layer. Scalable filters cannot be frozen into one native filter.
//
// Thread safety: every method may run concurrently with every other, on any
// threads, except creation and destruction. Add takes no lock while the
// newest layer has room, and a layer never holds more than its capacity;
// making a layer takes a mutex. A query sees every key whose Add happened
// before it.
//
// Save() gives bytes from which Restore() makes the same filter again
// (RedisBloom's SCANDUMP and LOADCHUNK, in one piece).
class ScalableBloomFilter {
 public:
  // InvalidArgumentError naming the value for an fpp outside (0, 1),
  // initial_keys == 0, growth < 1 or not finite, tightening outside (0, 1),
  // or a first layer MutableBloomFilter::Create refuses (an fpp whose first
  // layer's rate p (1 - r) / 1.05 is below what 100 bits/key reach).
  static absl::StatusOr<std::unique_ptr<ScalableBloomFilter>> Create(
      const ScalableBloomOptions& options);

  ~ScalableBloomFilter();
  ScalableBloomFilter(const ScalableBloomFilter&) = delete;
  ScalableBloomFilter& operator=(const ScalableBloomFilter&) = delete;

  // Adds key unless a layer already matches it. Returns true iff key was
  // added (no layer matched it and the newest layer's bits changed), false if
  // it was matched already. ResourceExhaustedError when a new layer was needed
  // and could not be made (its rate below what 100 bits/key reach, more than
  // kMaxScalableLayers layers, or no memory): the key is not added, and every
  // later Add of a new key fails the same way; queries still work.
  absl::StatusOr<bool> Add(absl::string_view key);

  // Returns false only if key was certainly not added.
  bool MayContain(absl::string_view key) const;

  // results[i] = MayContain(keys[i]), each key hashed once and the blocks of a
  // group of keys prefetched layer by layer.
  // REQUIRES: results points to keys.size() writable bools.
  void MayContain(absl::Span<const absl::string_view> keys,
                  bool* results) const;

  // Sum of the layers' ApproximateCount(). Reads every layer.
  uint64_t ApproximateCount() const;

  // 1 - prod(1 - layer i's ExpectedFpp()): the rate of the filter as it is.
  // Reads every layer.
  double ExpectedFpp() const;

  size_t NumLayers() const {
    return num_layers_.load(std::memory_order_acquire);
  }
  // Bytes of the layers' bodies.
  uint64_t MemoryBytes() const;

  struct LayerInfo {
    uint64_t capacity;    // keys it may hold
    uint64_t keys;        // keys added to it (at most capacity)
    double fpp;           // the rate it was sized for, p_i
    double bits_per_key;  // as sized for p_i
    int num_probes;
    uint64_t memory_bytes;  // its body
  };
  std::vector<LayerInfo> Layers() const;

  // The filter as bytes to keep (RedisBloom's SCANDUMP, in one piece): the
  // options, then each layer's key count, shape and words, in an envelope
  // with a CRC32C (inmemory/mutable/README.md, "Saving and restoring"). May run
  // while other threads add: the layers that exist when it starts are saved,
  // each word read once, so a concurrent Add is saved or not, key by key, and
  // every Add that happened before the call is saved in full, counted in its
  // layer's key count. An Add under way may be counted without its bits, or
  // the reverse; either way every layer but the newest is saved full, as
  // Restore requires: a layer is made only after the one before filled.
  //
  // The sticky error of a filter that could not make a layer is not saved:
  // the restored filter tries again when it next needs a layer. For a rate
  // below what 100 bits/key reach or kMaxScalableLayers layers, it fails
  // again the same way; after a lack of memory, it may succeed.
  std::string Save() const;

  // The filter Save wrote (RedisBloom's LOADCHUNK): the same options and
  // layers (Layers(), key counts included), the same answer to every
  // MayContain, and it goes on growing as the saved filter would have: the
  // newest layer takes keys until it holds its capacity. Any bytes give either
  // a filter or a DataLossError naming what is wrong, as for
  // MutableBloomFilter::Restore; each option must be in the range Create
  // requires (Create's further check that the first layer can be sized is
  // not repeated: that layer is in the bytes), 1 to kMaxScalableLayers layers,
  // each of the capacity and size the options give it (its rate is the
  // options'; its bits/key and probe count are those it was made with, within
  // their ranges), every layer but the newest full. Never allocates more than
  // the bodies the bytes hold.
  static absl::StatusOr<std::unique_ptr<ScalableBloomFilter>> Restore(
      absl::string_view saved);

 private:
  struct Layer;
  // Layer i's share of the keys and of the rate, from the options alone.
  struct LayerTarget {
    uint64_t capacity;
    double fpp;
  };

  explicit ScalableBloomFilter(const ScalableBloomOptions& options);

  // InvalidArgumentError naming the first field of options outside its range.
  static absl::Status ValidateOptions(const ScalableBloomOptions& options);
  // InvalidArgumentError when layer index would hold 2^63 keys or more.
  absl::StatusOr<LayerTarget> TargetOf(size_t index) const;
  // A new layer, sized for TargetOf(index).
  absl::StatusOr<std::unique_ptr<Layer>> MakeLayer(size_t index) const;
  // Makes layer `index` unless another thread has; returns the sticky error
  // when it cannot be made.
  absl::Status Grow(size_t index);
  const Layer& layer(size_t i) const {
    return *layers_[i].load(std::memory_order_acquire);
  }

  const ScalableBloomOptions options_;
  std::array<std::atomic<Layer*>, kMaxScalableLayers> layers_;
  std::atomic<size_t> num_layers_{0};
  std::mutex grow_mutex_;
  absl::Status full_;  // guarded by grow_mutex_; set once a layer fails
};

}  // namespace sstfilter

#endif  // SSTFILTER_INMEMORY_MUTABLE_SCALABLE_BLOOM_H_
