// A Bloom filter kept in Redis, shared by every process and machine that can
// reach the server (a crawler's "seen URL" set, a cache-penetration guard):
// the native filter's body in segments, so an add is one atomic command and
// a query one read of one 64-byte block. Layout, commands, consistency and
// sizing: README.md.
//
//   absl::StatusOr<std::unique_ptr<sstfilter::RedisBloomFilter>> seen =
//       sstfilter::RedisBloomFilter::Create(redis, "crawler:seen",
//           sstfilter::FilterOptions::Fpp(0.01), /*expected_keys=*/10000000);
//   absl::StatusOr<bool> maybe = (*seen)->MayContain("https://example.com/");

#ifndef SSTFILTER_ENGINES_REDIS_REDIS_BLOOM_H_
#define SSTFILTER_ENGINES_REDIS_REDIS_BLOOM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engines/redis/redis_bloom_meta.h"
#include "engines/redis/redis_client.h"
#include "filter/bloom/bloom_format.h"
#include "filter/filter_policy.h"

namespace sstfilter {

class MutableBloomFilter;

// Segments of at most 8 MiB less 4 KiB: a size Redis copies and a cluster
// moves without stalling, within the allocator's 8 MiB size class with
// Redis's string header (README.md, "Layout in Redis").
constexpr uint64_t kDefaultRedisSegmentBytes = (uint64_t{8} << 20) - 4096;

// A key whose Add has returned is seen by every later MayContain of any
// client while the server keeps its data (reads go to masters). Failures
// are errors, never answers: UnavailableError when Redis cannot be reached
// (after RedisClient's retries), DataLossError naming the Redis key for a
// missing or malformed segment or description; a query never answers false
// because of either. Export() equals MutableBloomFilter::Freeze() of a
// filter of the same options given the same keys.
// Thread safety: one connection per server, used by one thread at a time;
// open one per thread.
class RedisBloomFilter {
 public:
  // Creates an empty filter named `name` for expected_keys keys, sized as
  // MutableBloomFilter::Create sizes it, in segments of at most
  // segment_bytes (a multiple of 64 in [64, 256 MB]). InvalidArgumentError
  // naming the value for invalid options; AlreadyExistsError when `name` or
  // one of its segments exists (a failed Create may leave segments behind:
  // Drop removes them); UnavailableError when Redis cannot be reached.
  static absl::StatusOr<std::unique_ptr<RedisBloomFilter>> Create(
      const RedisOptions& redis, absl::string_view name,
      const FilterOptions& options, uint64_t expected_keys,
      uint64_t segment_bytes = kDefaultRedisSegmentBytes);

  // Opens an existing filter. NotFoundError when `name` does not exist;
  // DataLossError when its description does not parse or a segment is
  // missing or has the wrong type or length.
  static absl::StatusOr<std::unique_ptr<RedisBloomFilter>> Open(
      const RedisOptions& redis, absl::string_view name);

  // Publishes a native filter (either version, kLocalBloomName or
  // kCheckedLocalBloomName: a table's filter, MutableBloomFilter::Freeze())
  // as a new filter `name`, which then answers every key as the native
  // filter's reader does.
  // DataLossError for bytes that are not a well-formed native filter (or a
  // version-2 filter whose CRC32C does not match); InvalidArgumentError for
  // the native filter of no keys, which has no body to publish (Create one);
  // otherwise as Create.
  static absl::StatusOr<std::unique_ptr<RedisBloomFilter>> Publish(
      const RedisOptions& redis, absl::string_view name,
      absl::string_view native_filter,
      uint64_t segment_bytes = kDefaultRedisSegmentBytes);

  // Publishes an in-memory filter: a snapshot of its bits (concurrent adds
  // are seen or not, key by key), with its sizing and format version.
  static absl::StatusOr<std::unique_ptr<RedisBloomFilter>> Publish(
      const RedisOptions& redis, absl::string_view name,
      const MutableBloomFilter& filter,
      uint64_t segment_bytes = kDefaultRedisSegmentBytes);

  // Deletes `name` and its segments, whatever state they are in (without a
  // readable description: "name:0", "name:1", ... up to the first 256 in a
  // row that do not exist). OK when none exists.
  static absl::Status Drop(const RedisOptions& redis, absl::string_view name);

  // Adds key. True iff this call set a bit that was clear (Guava's put); a
  // retried Add whose first reply was lost may say false for a key it added.
  absl::StatusOr<bool> Add(absl::string_view key);

  // Adds every key, pipelined per server; added[i] (unless null) as Add
  // would return. On an error some keys may have been added: retrying the
  // call is safe. REQUIRES: added is null or points to keys.size() bools.
  absl::Status Add(absl::Span<const absl::string_view> keys,
                   bool* added = nullptr);

  // False only if key was certainly not added. An error when the answer
  // cannot be had.
  absl::StatusOr<bool> MayContain(absl::string_view key);

  // results[i] = MayContain(keys[i]), pipelined per server; on an error
  // results is unspecified. REQUIRES: results points to keys.size() bools.
  absl::Status MayContain(absl::Span<const absl::string_view> keys,
                          bool* results);

  // The native filter these segments hold, once every segment's length is
  // checked: the body as read (segment by segment, in chunks of whole blocks;
  // concurrent adds are seen or not, key by key), then the trailer
  // MutableBloomFilter::Freeze writes (key count estimated from the fill;
  // format version 2 unless self_checksum was false). Read by any
  // NewBloomFilterPolicy reader with every answer the same as MayContain's.
  // Transfers the whole body.
  absl::StatusOr<std::string> Export();

  // Distinct keys added, estimated from the bits set (BITCOUNT of each
  // segment, computed by the servers; as MutableBloomFilter's).
  absl::StatusOr<uint64_t> ApproximateCount();

  // The probability that MayContain answers true for a key never added,
  // from each block's fill (as MutableBloomFilter's). Transfers the body.
  absl::StatusOr<double> ExpectedFpp();

  const std::string& name() const { return name_; }
  int NumProbes() const { return meta_.num_probes; }
  double BitsPerKey() const { return meta_.bits_per_key; }
  uint64_t ExpectedKeys() const { return meta_.expected_keys; }
  uint64_t NumBits() const { return layout_.body_bits; }
  uint64_t MemoryBytes() const { return layout_.body_bytes; }
  uint64_t NumSegments() const { return num_segments_; }
  // The Redis key of segment i.
  std::string SegmentKey(uint64_t i) const;
  // Redirections and retries of this object's connection (RedisClient).
  const RedisClient::Stats& client_stats() const { return client_->stats(); }
  // The name of Export()'s format.
  const char* ExportFormatName() const {
    return meta_.self_checksum ? bloom::kCheckedLocalBloomName
                               : bloom::kLocalBloomName;
  }

 private:
  // Where a key's block lives.
  struct BlockRef {
    uint64_t segment;
    uint64_t offset;  // of the block in its segment, bytes
    uint64_t bytes;   // 64, or more for a published filter's wide last block
    uint32_t probe_hash;
  };

  RedisBloomFilter(std::unique_ptr<RedisClient> client, std::string name,
                   const redis_internal::RedisBloomMeta& meta);

  // Creates the segments (zeroed, or holding body when not empty) and then
  // the description, refusing to overwrite either.
  static absl::StatusOr<std::unique_ptr<RedisBloomFilter>> CreateWith(
      const RedisOptions& redis, absl::string_view name,
      const redis_internal::RedisBloomMeta& meta, absl::string_view body);

  absl::Status CheckSegments();
  BlockRef Locate(absl::string_view key) const;
  uint64_t SegmentBytes(uint64_t segment) const;
  uint64_t SegmentStart(uint64_t segment) const;
  RedisCommand AddCommand(const BlockRef& block) const;
  RedisCommand ReadCommand(const BlockRef& block) const;
  // The answer to reply for block, or DataLoss naming the segment.
  absl::StatusOr<bool> AddResult(const BlockRef& block,
                                 const RedisReply& reply) const;
  absl::StatusOr<bool> ReadResult(const BlockRef& block,
                                  const RedisReply& reply) const;
  // Adds (add) or queries keys, kPipelineKeys per pipeline; out[i] (unless
  // null) is key i's answer.
  absl::Status Pipeline(absl::Span<const absl::string_view> keys, bool add,
                        bool* out);
  // The whole body, read in chunks of whole blocks.
  absl::StatusOr<std::string> ReadBody();
  absl::Status SegmentError(uint64_t segment, absl::string_view what) const;

  std::unique_ptr<RedisClient> client_;
  const std::string name_;
  const redis_internal::RedisBloomMeta meta_;
  const bloom::BodyLayout layout_;
  const uint64_t num_segments_;
  int add_script_ = -1;
};

}  // namespace sstfilter

#endif  // SSTFILTER_ENGINES_REDIS_REDIS_BLOOM_H_
