// RedisBloomFilter: the native body in Redis segments (see redis_bloom.h).

#include "engines/redis/redis_bloom.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "filter/internal/checked_filter.h"
#include "inmemory/mutable/fill_estimates.h"
#include "inmemory/mutable/mutable_bloom.h"
#include "inmemory/mutable/mutable_layout.h"

namespace sstfilter {
namespace {

using bloom::kBlockBits;
using bloom::kBlockBytes;
using redis_internal::DecodeMeta;
using redis_internal::EncodeMeta;
using redis_internal::kMaxSegmentBytes;
using redis_internal::RedisBloomMeta;

// Keys per pipeline of a batched call, and bytes per GETRANGE of an export:
// enough to hide the round trip, little enough to bound the buffers.
constexpr size_t kPipelineKeys = 1024;
constexpr uint64_t kReadChunkBytes = uint64_t{1} << 20;  // whole blocks
constexpr size_t kPipelineChunks = 16;

// Sets the key's bits in its segment with one BITFIELD, after checking that
// the segment has the length the filter's description gives: a segment that
// was deleted, replaced or resized is an error, never recreated by the
// write. ARGV[1] is the length, ARGV[2..] BITFIELD's arguments (SET u1
// offset 1, once per probe; built by the client, so the script does no
// table work). Returns 1 if a bit was clear.
constexpr char kAddScript[] = R"lua(
local length = redis.call('STRLEN', KEYS[1])
if length ~= tonumber(ARGV[1]) then
  return redis.error_reply('SSTFILTER_SEGMENT holds ' .. length ..
                           ' bytes, expected ' .. ARGV[1])
end
local old = redis.call('BITFIELD', KEYS[1], unpack(ARGV, 2))
for i = 1, #old do
  if old[i] == 0 then return 1 end
end
return 0
)lua";

// Creates a zeroed segment of ARGV[1] bytes unless the key exists.
constexpr char kCreateSegmentScript[] = R"lua(
if redis.call('EXISTS', KEYS[1]) == 1 then
  return redis.error_reply('SSTFILTER_EXISTS')
end
redis.call('SETRANGE', KEYS[1], tonumber(ARGV[1]) - 1, '\0')
return 1
)lua";

absl::Status ValidateSegmentBytes(uint64_t segment_bytes) {
  if (segment_bytes < kBlockBytes || segment_bytes > kMaxSegmentBytes ||
      segment_bytes % kBlockBytes != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("RedisBloomFilter: segment_bytes ", segment_bytes,
                     " is not a multiple of ", kBlockBytes, " in [",
                     kBlockBytes, ", ", kMaxSegmentBytes, "]"));
  }
  return absl::OkStatus();
}

absl::Status ValidateName(absl::string_view name) {
  if (name.empty()) {
    return absl::InvalidArgumentError("RedisBloomFilter: the name is empty");
  }
  return absl::OkStatus();
}

// Bit b of a block (bit b % 8 of byte b / 8, least significant first) as
// the bit offset BITFIELD and SETBIT take, which count from the most
// significant bit of each byte.
uint64_t RedisBitOffset(uint64_t block_offset, uint32_t bit) {
  return (block_offset + bit / 8) * 8 + (7 - bit % 8);
}

// An error reply about a Redis key as a status: the data at the key is not
// what the filter wrote (DataLoss), the server is out of memory, or another
// error the server gave.
absl::Status ReplyStatus(absl::string_view what, const RedisReply& reply) {
  if (absl::StrContains(reply.str, "WRONGTYPE") ||
      absl::StrContains(reply.str, "SSTFILTER_SEGMENT")) {
    return absl::DataLossError(absl::StrCat(what, ": ", reply.str));
  }
  if (absl::StartsWith(reply.str, "OOM")) {
    return absl::ResourceExhaustedError(absl::StrCat(what, ": ", reply.str));
  }
  return absl::InternalError(absl::StrCat(what, ": ", reply.str));
}

}  // namespace

RedisBloomFilter::RedisBloomFilter(std::unique_ptr<RedisClient> client,
                                   std::string name, const RedisBloomMeta& meta)
    : client_(std::move(client)),
      name_(std::move(name)),
      meta_(meta),
      layout_(bloom::MakeBodyLayout(meta.body_bytes)),
      num_segments_((layout_.num_blocks + meta.blocks_per_segment - 1) /
                    meta.blocks_per_segment) {
  add_script_ = client_->RegisterScript(kAddScript);
}

std::string RedisBloomFilter::SegmentKey(uint64_t i) const {
  return absl::StrCat(name_, ":", i);
}

uint64_t RedisBloomFilter::SegmentStart(uint64_t segment) const {
  return segment * meta_.blocks_per_segment * kBlockBytes;
}

uint64_t RedisBloomFilter::SegmentBytes(uint64_t segment) const {
  // The last segment runs to the end of the body, its wide last block
  // included.
  const uint64_t end = segment + 1 == num_segments_ ? layout_.body_bytes
                                                    : SegmentStart(segment + 1);
  return end - SegmentStart(segment);
}

absl::Status RedisBloomFilter::SegmentError(uint64_t segment,
                                            absl::string_view what) const {
  return absl::DataLossError(absl::StrCat("RedisBloomFilter ", name_,
                                          ": segment ", SegmentKey(segment),
                                          " ", what));
}

absl::StatusOr<std::unique_ptr<RedisBloomFilter>> RedisBloomFilter::CreateWith(
    const RedisOptions& redis, absl::string_view name,
    const RedisBloomMeta& meta, absl::string_view body) {
  absl::StatusOr<std::unique_ptr<RedisClient>> client =
      RedisClient::Connect(redis);
  if (!client.ok()) return client.status();
  const int create_script = (*client)->RegisterScript(kCreateSegmentScript);
  std::unique_ptr<RedisBloomFilter> filter(
      new RedisBloomFilter(*std::move(client), std::string(name), meta));
  RedisClient& c = *filter->client_;
  const std::string what = absl::StrCat("RedisBloomFilter ", name);

  absl::StatusOr<RedisReply> exists =
      c.Execute(RedisCommand{{"EXISTS", std::string(name)}});
  if (!exists.ok()) return exists.status();
  if (exists->type == RedisReply::Type::kInteger && exists->integer != 0) {
    return absl::AlreadyExistsError(absl::StrCat(what, " already exists"));
  }
  // Segments first, the description last: a filter is visible to Open only
  // once all of it is there.
  std::vector<RedisCommand> commands;
  std::vector<RedisReply> replies;
  for (uint64_t s = 0; s < filter->num_segments_; ++s) {
    commands.push_back(c.Script(create_script, filter->SegmentKey(s),
                                {absl::StrCat(filter->SegmentBytes(s))}));
  }
  if (absl::Status status = c.Execute(commands, &replies); !status.ok()) {
    return status;
  }
  for (uint64_t s = 0; s < filter->num_segments_; ++s) {
    if (!replies[s].IsError()) continue;
    if (absl::StrContains(replies[s].str, "SSTFILTER_EXISTS")) {
      return absl::AlreadyExistsError(
          absl::StrCat(what, ": segment ", filter->SegmentKey(s),
                       " already exists (Drop removes a failed Create's)"));
    }
    return ReplyStatus(
        absl::StrCat(what, ": creating segment ", filter->SegmentKey(s)),
        replies[s]);
  }
  // A published body: SETRANGE in chunks, a few chunks per pipeline.
  if (!body.empty()) {
    commands.clear();
    for (uint64_t s = 0; s < filter->num_segments_; ++s) {
      const uint64_t start = filter->SegmentStart(s);
      const uint64_t bytes = filter->SegmentBytes(s);
      for (uint64_t at = 0; at < bytes; at += kReadChunkBytes) {
        const uint64_t n = std::min(kReadChunkBytes, bytes - at);
        commands.push_back(
            RedisCommand{{"SETRANGE", filter->SegmentKey(s), absl::StrCat(at),
                          std::string(body.substr(start + at, n))}});
        if (commands.size() == kPipelineChunks) {
          if (absl::Status st = c.Execute(commands, &replies); !st.ok()) {
            return st;
          }
          for (const RedisReply& r : replies) {
            if (r.IsError()) return ReplyStatus(what, r);
          }
          commands.clear();
        }
      }
    }
    if (absl::Status st = c.Execute(commands, &replies); !st.ok()) return st;
    for (const RedisReply& r : replies) {
      if (r.IsError()) return ReplyStatus(what, r);
    }
  }
  absl::StatusOr<RedisReply> set = c.Execute(
      RedisCommand{{"SET", std::string(name), EncodeMeta(meta), "NX"}});
  if (!set.ok()) return set.status();
  if (set->type == RedisReply::Type::kNil) {
    return absl::AlreadyExistsError(absl::StrCat(what, " already exists"));
  }
  if (set->IsError()) return ReplyStatus(what, *set);
  return filter;
}

absl::StatusOr<std::unique_ptr<RedisBloomFilter>> RedisBloomFilter::Create(
    const RedisOptions& redis, absl::string_view name,
    const FilterOptions& options, uint64_t expected_keys,
    uint64_t segment_bytes) {
  if (absl::Status status = ValidateName(name); !status.ok()) return status;
  if (absl::Status status = ValidateSegmentBytes(segment_bytes); !status.ok()) {
    return status;
  }
  absl::StatusOr<mutable_internal::MutableShape> shape =
      mutable_internal::ShapeFor(options, expected_keys,
                                 redis_internal::kMaxBodyBytes, "kMaxBodyBytes",
                                 "RedisBloomFilter");
  if (!shape.ok()) return shape.status();
  RedisBloomMeta meta;
  meta.body_bytes = shape->num_blocks * kBlockBytes;
  meta.blocks_per_segment = segment_bytes / kBlockBytes;
  meta.expected_keys = expected_keys;
  meta.bits_per_key = shape->bits_per_key;
  meta.num_probes = shape->num_probes;
  meta.self_checksum = options.self_checksum.value_or(true);
  return CreateWith(redis, name, meta, "");
}

absl::StatusOr<std::unique_ptr<RedisBloomFilter>> RedisBloomFilter::Publish(
    const RedisOptions& redis, absl::string_view name,
    absl::string_view native_filter, uint64_t segment_bytes) {
  if (absl::Status status = ValidateName(name); !status.ok()) return status;
  if (absl::Status status = ValidateSegmentBytes(segment_bytes); !status.ok()) {
    return status;
  }
  RedisBloomMeta meta;
  meta.blocks_per_segment = segment_bytes / kBlockBytes;
  absl::string_view inner = native_filter;
  const filter_internal::CheckedParts parts =
      filter_internal::SplitCheckedFilter(native_filter);
  meta.self_checksum = parts.well_formed;
  if (parts.well_formed) {
    if (absl::Status status =
            filter_internal::VerifyCheckedFilter(native_filter);
        !status.ok()) {
      return status;
    }
    inner = parts.inner;
  }
  const bloom::ParsedFilter parsed = bloom::ParseFilter(inner);
  if (parsed.verdict == bloom::Verdict::kMatchNothing) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RedisBloomFilter ", name,
        ": the native filter of no keys has no body to publish; Create one"));
  }
  if (parsed.verdict != bloom::Verdict::kProbe) {
    return absl::DataLossError(
        absl::StrCat("RedisBloomFilter ", name, ": the ", native_filter.size(),
                     " bytes given are not a well-formed native filter"));
  }
  meta.body_bytes = parsed.layout.body_bytes;
  meta.num_probes = parsed.num_probes;
  meta.expected_keys = std::max<uint64_t>(1, parsed.num_keys);
  meta.bits_per_key = std::min<double>(
      bloom::kMaxStoredBitsPerKey,
      static_cast<double>(parsed.layout.body_bits) / meta.expected_keys);
  return CreateWith(redis, name, meta,
                    absl::string_view(parsed.body, meta.body_bytes));
}

absl::StatusOr<std::unique_ptr<RedisBloomFilter>> RedisBloomFilter::Publish(
    const RedisOptions& redis, absl::string_view name,
    const MutableBloomFilter& filter, uint64_t segment_bytes) {
  if (absl::Status status = ValidateName(name); !status.ok()) return status;
  if (absl::Status status = ValidateSegmentBytes(segment_bytes); !status.ok()) {
    return status;
  }
  RedisBloomMeta meta;
  meta.body_bytes = filter.MemoryBytes();
  meta.blocks_per_segment = segment_bytes / kBlockBytes;
  meta.expected_keys = filter.ExpectedKeys();
  meta.bits_per_key = filter.BitsPerKey();
  meta.num_probes = filter.NumProbes();
  meta.self_checksum = absl::string_view(filter.FrozenFormatName()) ==
                       bloom::kCheckedLocalBloomName;
  const std::string frozen = filter.Freeze();
  absl::string_view body;  // empty: no bit set, the segments stay zero
  if (frozen.size() > meta.body_bytes) {
    body = absl::string_view(frozen).substr(0, meta.body_bytes);
  }
  return CreateWith(redis, name, meta, body);
}

absl::StatusOr<std::unique_ptr<RedisBloomFilter>> RedisBloomFilter::Open(
    const RedisOptions& redis, absl::string_view name) {
  if (absl::Status status = ValidateName(name); !status.ok()) return status;
  absl::StatusOr<std::unique_ptr<RedisClient>> client =
      RedisClient::Connect(redis);
  if (!client.ok()) return client.status();
  const std::string what = absl::StrCat("RedisBloomFilter ", name);
  absl::StatusOr<RedisReply> got =
      (*client)->Execute(RedisCommand{{"GET", std::string(name)}});
  if (!got.ok()) return got.status();
  if (got->type == RedisReply::Type::kNil) {
    return absl::NotFoundError(absl::StrCat(what, " does not exist"));
  }
  if (got->IsError()) {
    return absl::DataLossError(absl::StrCat(what, ": ", got->str));
  }
  absl::StatusOr<RedisBloomMeta> meta = DecodeMeta(got->str);
  if (!meta.ok()) {
    return absl::DataLossError(
        absl::StrCat(what, ": ", meta.status().message()));
  }
  std::unique_ptr<RedisBloomFilter> filter(
      new RedisBloomFilter(*std::move(client), std::string(name), *meta));
  if (absl::Status status = filter->CheckSegments(); !status.ok()) {
    return status;
  }
  return filter;
}

absl::Status RedisBloomFilter::CheckSegments() {
  std::vector<RedisCommand> commands;
  for (uint64_t s = 0; s < num_segments_; ++s) {
    commands.push_back(RedisCommand{{"STRLEN", SegmentKey(s)}});
  }
  std::vector<RedisReply> replies;
  if (absl::Status status = client_->Execute(commands, &replies);
      !status.ok()) {
    return status;
  }
  for (uint64_t s = 0; s < num_segments_; ++s) {
    if (replies[s].IsError()) return SegmentError(s, replies[s].str);
    if (replies[s].type != RedisReply::Type::kInteger ||
        static_cast<uint64_t>(replies[s].integer) != SegmentBytes(s)) {
      return SegmentError(
          s, absl::StrCat("holds ", replies[s].integer, " bytes, expected ",
                          SegmentBytes(s),
                          replies[s].integer == 0 ? " (missing)" : ""));
    }
  }
  return absl::OkStatus();
}

absl::Status RedisBloomFilter::Drop(const RedisOptions& redis,
                                    absl::string_view name) {
  if (absl::Status status = ValidateName(name); !status.ok()) return status;
  absl::StatusOr<std::unique_ptr<RedisClient>> client =
      RedisClient::Connect(redis);
  if (!client.ok()) return client.status();
  absl::StatusOr<RedisReply> got =
      (*client)->Execute(RedisCommand{{"GET", std::string(name)}});
  if (!got.ok()) return got.status();
  std::vector<RedisCommand> commands;
  std::vector<RedisReply> replies;
  const absl::StatusOr<RedisBloomMeta> meta =
      got->type == RedisReply::Type::kString
          ? DecodeMeta(got->str)
          : absl::StatusOr<RedisBloomMeta>(absl::NotFoundError(""));
  if (meta.ok()) {
    const uint64_t blocks = bloom::MakeBodyLayout(meta->body_bytes).num_blocks;
    const uint64_t segments =
        (blocks + meta->blocks_per_segment - 1) / meta->blocks_per_segment;
    for (uint64_t s = 0; s < segments; ++s) {
      commands.push_back(RedisCommand{{"DEL", absl::StrCat(name, ":", s)}});
    }
  } else {
    // No description (a failed Create, or one damaged): segments were made
    // from 0 up, so delete "NAME:0", "NAME:1", ... until a whole batch of
    // them is gone already.
    constexpr uint64_t kProbeBatch = 256;
    for (uint64_t first = 0;; first += kProbeBatch) {
      commands.clear();
      for (uint64_t s = first; s < first + kProbeBatch; ++s) {
        commands.push_back(RedisCommand{{"DEL", absl::StrCat(name, ":", s)}});
      }
      if (absl::Status status = (*client)->Execute(commands, &replies);
          !status.ok()) {
        return status;
      }
      bool any = false;
      for (const RedisReply& reply : replies) {
        any |= reply.type == RedisReply::Type::kInteger && reply.integer > 0;
      }
      if (!any) break;
    }
    commands.clear();
  }
  commands.push_back(RedisCommand{{"DEL", std::string(name)}});
  return (*client)->Execute(commands, &replies);
}

RedisBloomFilter::BlockRef RedisBloomFilter::Locate(
    absl::string_view key) const {
  const uint64_t hash = bloom::KeyHash(key);
  const uint64_t block =
      bloom::BlockIndex(hash, layout_.body_bits, layout_.num_blocks);
  BlockRef ref;
  ref.segment = block / meta_.blocks_per_segment;
  ref.offset = (block % meta_.blocks_per_segment) * kBlockBytes;
  ref.bytes = block + 1 == layout_.num_blocks
                  ? layout_.body_bytes - block * kBlockBytes
                  : kBlockBytes;
  ref.probe_hash = bloom::ProbeHash(hash);
  return ref;
}

RedisCommand RedisBloomFilter::AddCommand(const BlockRef& block) const {
  std::vector<std::string> args;
  args.reserve(1 + 4 * meta_.num_probes);
  args.push_back(absl::StrCat(SegmentBytes(block.segment)));
  for (int i = 0; i < meta_.num_probes; ++i) {
    const uint32_t bit = bloom::ProbeBit(
        block.probe_hash * bloom::kProbeMultipliers[i], block.bytes * 8);
    args.push_back("SET");
    args.push_back("u1");
    args.push_back(absl::StrCat(RedisBitOffset(block.offset, bit)));
    args.push_back("1");
  }
  return client_->Script(add_script_, SegmentKey(block.segment),
                         std::move(args));
}

RedisCommand RedisBloomFilter::ReadCommand(const BlockRef& block) const {
  return RedisCommand{{"GETRANGE", SegmentKey(block.segment),
                       absl::StrCat(block.offset),
                       absl::StrCat(block.offset + block.bytes - 1)}};
}

absl::StatusOr<bool> RedisBloomFilter::AddResult(
    const BlockRef& block, const RedisReply& reply) const {
  if (reply.IsError()) {
    return ReplyStatus(absl::StrCat("RedisBloomFilter ", name_, ": segment ",
                                    SegmentKey(block.segment)),
                       reply);
  }
  if (reply.type != RedisReply::Type::kInteger) {
    return absl::InternalError(absl::StrCat("RedisBloomFilter ", name_,
                                            ": unexpected reply to an add"));
  }
  return reply.integer != 0;
}

absl::StatusOr<bool> RedisBloomFilter::ReadResult(
    const BlockRef& block, const RedisReply& reply) const {
  if (reply.IsError()) return SegmentError(block.segment, reply.str);
  if (reply.type != RedisReply::Type::kString ||
      reply.str.size() != block.bytes) {
    // GETRANGE past the end of a string, or of a missing key, is short.
    return SegmentError(block.segment,
                        absl::StrCat("is missing or shorter than ",
                                     block.offset + block.bytes, " bytes"));
  }
  const uint64_t block_bits = block.bytes * 8;
  for (int i = 0; i < meta_.num_probes; ++i) {
    const uint32_t bit = bloom::ProbeBit(
        block.probe_hash * bloom::kProbeMultipliers[i], block_bits);
    if (((static_cast<uint8_t>(reply.str[bit / 8]) >> (bit % 8)) & 1) == 0) {
      return false;
    }
  }
  return true;
}

absl::StatusOr<bool> RedisBloomFilter::Add(absl::string_view key) {
  const BlockRef block = Locate(key);
  absl::StatusOr<RedisReply> reply = client_->Execute(AddCommand(block));
  if (!reply.ok()) return reply.status();
  return AddResult(block, *reply);
}

absl::StatusOr<bool> RedisBloomFilter::MayContain(absl::string_view key) {
  const BlockRef block = Locate(key);
  absl::StatusOr<RedisReply> reply = client_->Execute(ReadCommand(block));
  if (!reply.ok()) return reply.status();
  return ReadResult(block, *reply);
}

absl::Status RedisBloomFilter::Pipeline(
    absl::Span<const absl::string_view> keys, bool add, bool* out) {
  std::vector<BlockRef> blocks;
  std::vector<RedisCommand> commands;
  std::vector<RedisReply> replies;
  for (size_t start = 0; start < keys.size(); start += kPipelineKeys) {
    const size_t n = std::min(kPipelineKeys, keys.size() - start);
    blocks.clear();
    commands.clear();
    for (size_t i = 0; i < n; ++i) {
      blocks.push_back(Locate(keys[start + i]));
      commands.push_back(add ? AddCommand(blocks.back())
                             : ReadCommand(blocks.back()));
    }
    if (absl::Status status = client_->Execute(commands, &replies);
        !status.ok()) {
      return status;
    }
    for (size_t i = 0; i < n; ++i) {
      absl::StatusOr<bool> result = add ? AddResult(blocks[i], replies[i])
                                        : ReadResult(blocks[i], replies[i]);
      if (!result.ok()) return result.status();
      if (out != nullptr) out[start + i] = *result;
    }
  }
  return absl::OkStatus();
}

absl::Status RedisBloomFilter::Add(absl::Span<const absl::string_view> keys,
                                   bool* added) {
  return Pipeline(keys, /*add=*/true, added);
}

absl::Status RedisBloomFilter::MayContain(
    absl::Span<const absl::string_view> keys, bool* results) {
  return Pipeline(keys, /*add=*/false, results);
}

absl::StatusOr<std::string> RedisBloomFilter::ReadBody() {
  // A segment of another length is not this filter's, even where its blocks
  // read back whole.
  if (absl::Status status = CheckSegments(); !status.ok()) return status;
  std::string body;
  body.reserve(layout_.body_bytes + mutable_internal::MaxFrozenTrailerBytes());
  struct Chunk {
    uint64_t segment, at, bytes;
  };
  std::vector<Chunk> chunks;
  std::vector<RedisCommand> commands;
  std::vector<RedisReply> replies;
  auto flush = [&]() -> absl::Status {
    if (absl::Status status = client_->Execute(commands, &replies);
        !status.ok()) {
      return status;
    }
    for (size_t i = 0; i < chunks.size(); ++i) {
      const RedisReply& reply = replies[i];
      if (reply.IsError()) return SegmentError(chunks[i].segment, reply.str);
      if (reply.type != RedisReply::Type::kString ||
          reply.str.size() != chunks[i].bytes) {
        return SegmentError(
            chunks[i].segment,
            absl::StrCat("is missing or shorter than ",
                         chunks[i].at + chunks[i].bytes, " bytes"));
      }
      body.append(reply.str);
    }
    chunks.clear();
    commands.clear();
    return absl::OkStatus();
  };
  for (uint64_t s = 0; s < num_segments_; ++s) {
    const uint64_t bytes = SegmentBytes(s);
    for (uint64_t at = 0; at < bytes; at += kReadChunkBytes) {
      const uint64_t n = std::min(kReadChunkBytes, bytes - at);
      chunks.push_back(Chunk{s, at, n});
      commands.push_back(
          RedisCommand{{"GETRANGE", SegmentKey(s), absl::StrCat(at),
                        absl::StrCat(at + n - 1)}});
      if (commands.size() == kPipelineChunks) {
        if (absl::Status status = flush(); !status.ok()) return status;
      }
    }
  }
  if (absl::Status status = flush(); !status.ok()) return status;
  return body;
}

absl::StatusOr<std::string> RedisBloomFilter::Export() {
  absl::StatusOr<std::string> filter = ReadBody();
  if (!filter.ok()) return filter.status();
  uint64_t bits_set = 0;
  for (unsigned char c : *filter) bits_set += __builtin_popcount(c);
  mutable_internal::FinishFrozenFilter(bits_set, layout_.num_blocks,
                                       meta_.num_probes, meta_.self_checksum,
                                       &*filter);
  return filter;
}

absl::StatusOr<uint64_t> RedisBloomFilter::ApproximateCount() {
  // STRLEN beside each BITCOUNT: a missing segment counts 0 bits.
  std::vector<RedisCommand> commands;
  for (uint64_t s = 0; s < num_segments_; ++s) {
    commands.push_back(RedisCommand{{"STRLEN", SegmentKey(s)}});
    commands.push_back(RedisCommand{{"BITCOUNT", SegmentKey(s)}});
  }
  std::vector<RedisReply> replies;
  if (absl::Status status = client_->Execute(commands, &replies);
      !status.ok()) {
    return status;
  }
  uint64_t bits_set = 0;
  for (uint64_t s = 0; s < num_segments_; ++s) {
    const RedisReply& length = replies[2 * s];
    const RedisReply& count = replies[2 * s + 1];
    if (length.IsError()) return SegmentError(s, length.str);
    if (count.IsError()) return SegmentError(s, count.str);
    if (length.type != RedisReply::Type::kInteger ||
        static_cast<uint64_t>(length.integer) != SegmentBytes(s) ||
        count.type != RedisReply::Type::kInteger) {
      return SegmentError(
          s, absl::StrCat("holds ", length.integer, " bytes, expected ",
                          SegmentBytes(s)));
    }
    bits_set += static_cast<uint64_t>(count.integer);
  }
  if (bits_set == 0) return 0;
  return static_cast<uint64_t>(std::llround(mutable_internal::EstimateKeys(
      std::min(bits_set, layout_.num_blocks * kBlockBits), layout_.num_blocks,
      meta_.num_probes)));
}

absl::StatusOr<double> RedisBloomFilter::ExpectedFpp() {
  absl::StatusOr<std::string> body = ReadBody();
  if (!body.ok()) return body.status();
  mutable_internal::FillHistogram fill;
  for (uint64_t b = 0; b < layout_.num_blocks; ++b) {
    const uint64_t start = b * kBlockBytes;
    const uint64_t end =
        b + 1 == layout_.num_blocks ? layout_.body_bytes : start + kBlockBytes;
    uint64_t bits = 0;
    for (uint64_t i = start; i < end; ++i) {
      bits += __builtin_popcount(static_cast<uint8_t>((*body)[i]));
    }
    // A wide last block counts at its share of kBlockBits.
    const uint64_t scaled = bits * kBlockBits / ((end - start) * 8);
    ++fill.blocks[std::min<uint64_t>(scaled, kBlockBits)];
  }
  return mutable_internal::FppFromFill(fill, meta_.num_probes);
}

}  // namespace sstfilter
