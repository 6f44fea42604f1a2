// RedisBloomFilter against a real redis-server the test starts on a free
// loopback port (engines/redis/redis_server.h). The oracle is the in-memory
// MutableBloomFilter of the same options and keys: the Redis filter must
// hold exactly its bytes, and the native reader must read them.

#include "engines/redis/redis_bloom.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "engines/redis/redis_client.h"
#include "engines/redis/redis_server.h"
#include "filter/bloom/bloom.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "inmemory/mutable/mutable_bloom.h"

namespace sstfilter {
namespace {

using test::Key16;
using test::Keys16;
using test::RedisServer;

std::vector<absl::string_view> Views(const std::vector<std::string>& keys) {
  return std::vector<absl::string_view>(keys.begin(), keys.end());
}

class RedisBloomTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    absl::StatusOr<std::unique_ptr<RedisServer>> server =
        RedisServer::Start(test::RedisServerOptions());
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = server->release();
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(server_, nullptr);
    if (!server_->running()) {
      ASSERT_TRUE(server_->Restart().ok());
    }
  }

  static RedisOptions Redis() {
    RedisOptions options;
    options.endpoints = {server_->endpoint()};
    options.command_timeout = absl::Milliseconds(500);
    options.retry_pause = absl::Milliseconds(10);
    return options;
  }

  // A fresh name per test.
  static std::string Name() {
    const testing::TestInfo* info =
        testing::UnitTest::GetInstance()->current_test_info();
    return absl::StrCat("test:", info->name());
  }

  static std::unique_ptr<RedisBloomFilter> MustCreate(
      const FilterOptions& options, uint64_t expected_keys,
      uint64_t segment_bytes = kDefaultRedisSegmentBytes) {
    EXPECT_TRUE(RedisBloomFilter::Drop(Redis(), Name()).ok());
    absl::StatusOr<std::unique_ptr<RedisBloomFilter>> filter =
        RedisBloomFilter::Create(Redis(), Name(), options, expected_keys,
                                 segment_bytes);
    EXPECT_TRUE(filter.ok()) << filter.status();
    return filter.ok() ? *std::move(filter) : nullptr;
  }

  static RedisServer* server_;
};

RedisServer* RedisBloomTest::server_ = nullptr;

// Keys added one by one and in pipelines, to Redis and to the in-memory
// filter of the same options: the same Add results, every key found, the
// same answer for every absent key, and Export() byte for byte Freeze().
TEST_F(RedisBloomTest, HoldsExactlyTheInMemoryFiltersBytes) {
  for (const uint64_t segment_bytes :
       {uint64_t{64}, uint64_t{1024}, kDefaultRedisSegmentBytes}) {
    SCOPED_TRACE(segment_bytes);
    const FilterOptions options = FilterOptions::Fpp(0.01);
    const uint64_t n = 3000;
    std::unique_ptr<RedisBloomFilter> redis =
        MustCreate(options, n, segment_bytes);
    ASSERT_NE(redis, nullptr);
    absl::StatusOr<MutableBloomFilter> memory =
        MutableBloomFilter::Create(options, n);
    ASSERT_TRUE(memory.ok());
    EXPECT_EQ(redis->NumProbes(), memory->NumProbes());
    EXPECT_EQ(redis->MemoryBytes(), memory->MemoryBytes());
    EXPECT_EQ(redis->NumSegments(),
              (memory->MemoryBytes() + segment_bytes - 1) / segment_bytes);

    const std::vector<std::string> keys = Keys16(0, 0, n);
    // The first half one by one, the rest batched; a repeated key says false.
    for (uint64_t i = 0; i < n / 2; ++i) {
      absl::StatusOr<bool> added = redis->Add(keys[i]);
      ASSERT_TRUE(added.ok()) << added.status();
      ASSERT_EQ(*added, memory->Add(keys[i])) << i;
    }
    std::vector<absl::string_view> rest(keys.begin() + n / 2, keys.end());
    std::unique_ptr<bool[]> added(new bool[rest.size()]);
    ASSERT_TRUE(redis->Add(rest, added.get()).ok());
    for (size_t i = 0; i < rest.size(); ++i) {
      ASSERT_EQ(added[i], memory->Add(rest[i])) << i;
    }
    absl::StatusOr<bool> again = redis->Add(keys[0]);
    ASSERT_TRUE(again.ok());
    EXPECT_FALSE(*again);
    EXPECT_FALSE(memory->Add(keys[0]));

    // Present and absent keys, single and batched.
    const std::vector<std::string> absent = Keys16(1, 0, 20000);
    for (uint64_t i = 0; i < 500; ++i) {
      absl::StatusOr<bool> present = redis->MayContain(keys[i]);
      ASSERT_TRUE(present.ok()) << present.status();
      ASSERT_TRUE(*present) << i;
      absl::StatusOr<bool> other = redis->MayContain(absent[i]);
      ASSERT_TRUE(other.ok());
      ASSERT_EQ(*other, memory->MayContain(absent[i])) << i;
    }
    std::unique_ptr<bool[]> results(new bool[absent.size()]);
    ASSERT_TRUE(redis->MayContain(Views(keys), results.get()).ok());
    for (uint64_t i = 0; i < n; ++i) ASSERT_TRUE(results[i]) << i;
    ASSERT_TRUE(redis->MayContain(Views(absent), results.get()).ok());
    uint64_t false_positives = 0;
    for (size_t i = 0; i < absent.size(); ++i) {
      ASSERT_EQ(results[i], memory->MayContain(absent[i])) << i;
      false_positives += results[i];
    }
    EXPECT_LT(false_positives, absent.size() / 20);  // a 1% filter

    absl::StatusOr<std::string> exported = redis->Export();
    ASSERT_TRUE(exported.ok()) << exported.status();
    EXPECT_EQ(*exported, memory->Freeze());
    EXPECT_STREQ(redis->ExportFormatName(), memory->FrozenFormatName());

    absl::StatusOr<uint64_t> count = redis->ApproximateCount();
    ASSERT_TRUE(count.ok()) << count.status();
    EXPECT_EQ(*count, memory->ApproximateCount());
    absl::StatusOr<double> fpp = redis->ExpectedFpp();
    ASSERT_TRUE(fpp.ok()) << fpp.status();
    EXPECT_DOUBLE_EQ(*fpp, memory->ExpectedFpp());
  }
}

// Export() is a native filter: NewBloomFilterPolicy's reader answers every
// key as MayContain does, in both format versions.
TEST_F(RedisBloomTest, ExportReadsUnderTheNativePolicy) {
  for (const bool self_checksum : {true, false}) {
    SCOPED_TRACE(self_checksum);
    FilterOptions options = FilterOptions::BitsPerKey(10);
    options.self_checksum = self_checksum;
    std::unique_ptr<RedisBloomFilter> redis = MustCreate(options, 1000, 640);
    ASSERT_NE(redis, nullptr);
    const std::vector<std::string> keys = Keys16(2, 0, 1000);
    ASSERT_TRUE(redis->Add(Views(keys)).ok());
    absl::StatusOr<std::string> exported = redis->Export();
    ASSERT_TRUE(exported.ok());
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
        NewBloomFilterPolicy(options);
    ASSERT_TRUE(policy.ok());
    EXPECT_STREQ((*policy)->Format().Name(), redis->ExportFormatName());
    std::unique_ptr<FilterReader> reader = (*policy)->NewReader(*exported);
    EXPECT_TRUE(reader->Corruption().ok());
    const std::vector<std::string> absent = Keys16(3, 0, 5000);
    std::unique_ptr<bool[]> results(new bool[absent.size()]);
    ASSERT_TRUE(redis->MayContain(Views(absent), results.get()).ok());
    for (size_t i = 0; i < absent.size(); ++i) {
      ASSERT_EQ(reader->MayMatch(absent[i]), results[i]) << i;
    }
    for (const std::string& key : keys) ASSERT_TRUE(reader->MayMatch(key));
  }
}

// A table's filter built by the native policy (its last block wide) and a
// MutableBloomFilter, published: every answer is the native reader's, and
// the body reads back unchanged.
TEST_F(RedisBloomTest, PublishesNativeAndInMemoryFilters) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewBloomFilterPolicy(FilterOptions::BitsPerKey(9.5));
  ASSERT_TRUE(policy.ok());
  const std::vector<std::string> keys = Keys16(4, 0, 777);
  const std::string table_filter = test::BuildFilter(**policy, keys);
  ASSERT_TRUE(RedisBloomFilter::Drop(Redis(), Name()).ok());
  absl::StatusOr<std::unique_ptr<RedisBloomFilter>> published =
      RedisBloomFilter::Publish(Redis(), Name(), table_filter, 128);
  ASSERT_TRUE(published.ok()) << published.status();
  std::unique_ptr<FilterReader> reader = (*policy)->NewReader(table_filter);
  const std::vector<std::string> absent = Keys16(5, 0, 5000);
  std::unique_ptr<bool[]> results(new bool[absent.size()]);
  ASSERT_TRUE((*published)->MayContain(Views(absent), results.get()).ok());
  for (size_t i = 0; i < absent.size(); ++i) {
    ASSERT_EQ(reader->MayMatch(absent[i]), results[i]) << i;
  }
  ASSERT_TRUE((*published)->MayContain(Views(keys), results.get()).ok());
  for (size_t i = 0; i < keys.size(); ++i) ASSERT_TRUE(results[i]) << i;
  absl::StatusOr<std::string> exported = (*published)->Export();
  ASSERT_TRUE(exported.ok());
  const size_t body = (*published)->MemoryBytes();
  EXPECT_EQ(exported->substr(0, body), table_filter.substr(0, body));
  // Adds to a published filter land in the wide last block too.
  ASSERT_TRUE((*published)->Add(Views(absent)).ok());
  ASSERT_TRUE((*published)->MayContain(Views(absent), results.get()).ok());
  for (size_t i = 0; i < absent.size(); ++i) ASSERT_TRUE(results[i]) << i;

  // A MutableBloomFilter, half full, then more keys added in Redis.
  absl::StatusOr<MutableBloomFilter> memory =
      MutableBloomFilter::Create(FilterOptions::Fpp(0.02), 2000);
  ASSERT_TRUE(memory.ok());
  for (const std::string& key : keys) memory->Add(key);
  const std::string other = Name() + ":memory";
  ASSERT_TRUE(RedisBloomFilter::Drop(Redis(), other).ok());
  absl::StatusOr<std::unique_ptr<RedisBloomFilter>> from_memory =
      RedisBloomFilter::Publish(Redis(), other, *memory, 256);
  ASSERT_TRUE(from_memory.ok()) << from_memory.status();
  EXPECT_EQ((*from_memory)->ExpectedKeys(), memory->ExpectedKeys());
  EXPECT_EQ(*(*from_memory)->Export(), memory->Freeze());
  const std::vector<std::string> more = Keys16(6, 0, 1000);
  ASSERT_TRUE((*from_memory)->Add(Views(more)).ok());
  for (const std::string& key : more) memory->Add(key);
  EXPECT_EQ(*(*from_memory)->Export(), memory->Freeze());

  // An empty in-memory filter publishes its shape; the empty native filter
  // has none to publish.
  absl::StatusOr<MutableBloomFilter> empty =
      MutableBloomFilter::Create(FilterOptions::Fpp(0.01), 100);
  ASSERT_TRUE(RedisBloomFilter::Drop(Redis(), other).ok());
  absl::StatusOr<std::unique_ptr<RedisBloomFilter>> from_empty =
      RedisBloomFilter::Publish(Redis(), other, *empty);
  ASSERT_TRUE(from_empty.ok()) << from_empty.status();
  EXPECT_EQ((*from_empty)->MemoryBytes(), empty->MemoryBytes());
  EXPECT_EQ(*(*from_empty)->Export(), empty->Freeze());
  EXPECT_TRUE(absl::IsInvalidArgument(
      RedisBloomFilter::Publish(Redis(), Name() + ":e", empty->Freeze())
          .status()));
  // Damaged native bytes are refused.
  std::string damaged = table_filter;
  damaged[10] ^= 1;  // under the CRC32C of format version 2
  EXPECT_TRUE(absl::IsDataLoss(
      RedisBloomFilter::Publish(Redis(), Name() + ":d", damaged).status()));
  EXPECT_TRUE(absl::IsDataLoss(
      RedisBloomFilter::Publish(Redis(), Name() + ":d", "garbage!").status()));
  ASSERT_TRUE(RedisBloomFilter::Drop(Redis(), other).ok());
}

TEST_F(RedisBloomTest, CreateOpenAndDrop) {
  std::unique_ptr<RedisBloomFilter> created =
      MustCreate(FilterOptions::Fpp(0.01), 5000, 1024);
  ASSERT_NE(created, nullptr);
  ASSERT_TRUE(created->Add("apple").ok());
  EXPECT_TRUE(absl::IsAlreadyExists(
      RedisBloomFilter::Create(Redis(), Name(), FilterOptions::Fpp(0.01), 10)
          .status()));
  absl::StatusOr<std::unique_ptr<RedisBloomFilter>> opened =
      RedisBloomFilter::Open(Redis(), Name());
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_EQ((*opened)->NumProbes(), created->NumProbes());
  EXPECT_EQ((*opened)->MemoryBytes(), created->MemoryBytes());
  EXPECT_EQ((*opened)->NumSegments(), created->NumSegments());
  EXPECT_EQ((*opened)->ExpectedKeys(), 5000u);
  EXPECT_EQ((*opened)->BitsPerKey(), created->BitsPerKey());
  EXPECT_TRUE(*(*opened)->MayContain("apple"));
  ASSERT_TRUE(RedisBloomFilter::Drop(Redis(), Name()).ok());
  EXPECT_TRUE(
      absl::IsNotFound(RedisBloomFilter::Open(Redis(), Name()).status()));
  absl::StatusOr<RedisReply> left = server_->Command({"KEYS", Name() + "*"});
  ASSERT_TRUE(left.ok());
  EXPECT_TRUE(left->elements.empty()) << "Drop left keys behind";
  // Segments left by a failed Create block the next one, until Drop.
  ASSERT_TRUE(server_->Command({"SET", Name() + ":0", "x"}).ok());
  ASSERT_TRUE(server_->Command({"SET", Name() + ":1", "x"}).ok());
  EXPECT_TRUE(absl::IsAlreadyExists(
      RedisBloomFilter::Create(Redis(), Name(), FilterOptions::Fpp(0.01), 10)
          .status()));
  ASSERT_TRUE(RedisBloomFilter::Drop(Redis(), Name()).ok());
  left = server_->Command({"KEYS", Name() + "*"});
  ASSERT_TRUE(left.ok());
  EXPECT_TRUE(left->elements.empty()) << "Drop left keys behind";
  // A damaged description: Drop still removes everything.
  ASSERT_NE(MustCreate(FilterOptions::Fpp(0.01), 100000, 1024), nullptr);
  ASSERT_TRUE(server_->Command({"SET", Name(), "damaged"}).ok());
  ASSERT_TRUE(RedisBloomFilter::Drop(Redis(), Name()).ok());
  left = server_->Command({"KEYS", Name() + "*"});
  ASSERT_TRUE(left.ok());
  EXPECT_TRUE(left->elements.empty()) << "Drop left keys behind";
}

TEST_F(RedisBloomTest, InvalidArgumentsNameTheValue) {
  struct Case {
    absl::Status status;
    const char* message;
  };
  RedisOptions no_endpoint;
  RedisOptions zero_attempts = Redis();
  zero_attempts.max_attempts = 0;
  RedisOptions bad_port = Redis();
  bad_port.endpoints[0].port = 70000;
  RedisOptions zero_timeout = Redis();
  zero_timeout.command_timeout = absl::ZeroDuration();
  const Case cases[] = {
      {RedisBloomFilter::Create(Redis(), Name(), FilterOptions::Fpp(0.01), 10,
                                100)
           .status(),
       "segment_bytes 100"},
      {RedisBloomFilter::Create(Redis(), Name(), FilterOptions::Fpp(0.01), 0)
           .status(),
       "expected_keys must be at least 1"},
      {RedisBloomFilter::Create(Redis(), Name(), FilterOptions::Fpp(2), 10)
           .status(),
       "2"},
      {RedisBloomFilter::Create(Redis(), "", FilterOptions::Fpp(0.01), 10)
           .status(),
       "name is empty"},
      {RedisBloomFilter::Open(no_endpoint, Name()).status(), "no endpoint"},
      {RedisBloomFilter::Open(zero_attempts, Name()).status(),
       "max_attempts 0"},
      {RedisBloomFilter::Open(bad_port, Name()).status(), "port 70000"},
      {RedisBloomFilter::Open(zero_timeout, Name()).status(),
       "command_timeout 0"},
  };
  for (const Case& c : cases) {
    EXPECT_TRUE(absl::IsInvalidArgument(c.status)) << c.status;
    EXPECT_NE(c.status.message().find(c.message), std::string::npos)
        << c.status;
  }
}

// A server that wants a password, and a database other than 0: the right
// password and database work; a wrong or missing password ends the call
// with UnauthenticatedError at once, without retries.
TEST_F(RedisBloomTest, PasswordsAndDatabases) {
  test::RedisServerOptions locked;
  locked.password = "s3cret";
  absl::StatusOr<std::unique_ptr<RedisServer>> server =
      RedisServer::Start(locked);
  ASSERT_TRUE(server.ok()) << server.status();
  RedisOptions redis = Redis();
  redis.endpoints = {(*server)->endpoint()};
  redis.password = "s3cret";
  redis.database = 3;
  absl::StatusOr<std::unique_ptr<RedisBloomFilter>> filter =
      RedisBloomFilter::Create(redis, "locked", FilterOptions::Fpp(0.01), 100);
  ASSERT_TRUE(filter.ok()) << filter.status();
  ASSERT_TRUE((*filter)->Add("apple").ok());
  EXPECT_TRUE(*(*filter)->MayContain("apple"));
  // Database 0 has no such filter.
  RedisOptions other_database = redis;
  other_database.database = 0;
  EXPECT_TRUE(absl::IsNotFound(
      RedisBloomFilter::Open(other_database, "locked").status()));
  RedisOptions wrong = redis;
  wrong.password = "guess";
  const absl::Status refused = RedisBloomFilter::Open(wrong, "locked").status();
  EXPECT_TRUE(absl::IsUnauthenticated(refused)) << refused;
  RedisOptions none = redis;
  none.password.clear();
  none.database = 0;
  const absl::Status no_auth = RedisBloomFilter::Open(none, "locked").status();
  EXPECT_TRUE(absl::IsUnauthenticated(no_auth)) << no_auth;
  RedisOptions user_only = redis;
  user_only.username = "reader";
  user_only.password.clear();
  EXPECT_TRUE(absl::IsInvalidArgument(
      RedisBloomFilter::Open(user_only, "locked").status()));
  RedisOptions clustered_db = redis;
  clustered_db.cluster = true;
  EXPECT_TRUE(absl::IsInvalidArgument(
      RedisBloomFilter::Open(clustered_db, "locked").status()));
}

// Bad data at a key: a segment of the wrong type, truncated, extended or
// deleted, and a description that does not parse. Every call that touches
// it is a DataLossError naming the Redis key; never a "no", and an add never
// recreates a segment.
TEST_F(RedisBloomTest, BadDataAtTheKeyIsAnError) {
  std::unique_ptr<RedisBloomFilter> filter =
      MustCreate(FilterOptions::Fpp(0.01), 2000, 1024);
  ASSERT_NE(filter, nullptr);
  const std::vector<std::string> keys = Keys16(7, 0, 2000);
  ASSERT_TRUE(filter->Add(Views(keys)).ok());
  const std::string segment = filter->SegmentKey(0);
  absl::StatusOr<RedisReply> saved = server_->Command({"GET", segment});
  ASSERT_TRUE(saved.ok());
  const std::vector<std::vector<std::string>> damages = {
      {"DEL", segment},
      {"SET", segment, "short"},
      {"APPEND", segment, "longer"},
  };
  std::unique_ptr<bool[]> results(new bool[keys.size()]);
  for (const auto& damage : damages) {
    SCOPED_TRACE(damage[0]);
    ASSERT_TRUE(server_->Command(damage).ok());
    // Opening checks every segment's length.
    absl::Status opened = RedisBloomFilter::Open(Redis(), Name()).status();
    EXPECT_TRUE(absl::IsDataLoss(opened)) << opened;
    EXPECT_NE(opened.message().find(segment), std::string::npos) << opened;
    // Adds to segment 0 fail and leave it as it is.
    const absl::Status batch = filter->Add(Views(keys));
    EXPECT_TRUE(absl::IsDataLoss(batch)) << batch;
    EXPECT_NE(batch.message().find(segment), std::string::npos) << batch;
    absl::StatusOr<RedisReply> after = server_->Command({"STRLEN", segment});
    ASSERT_TRUE(after.ok());
    EXPECT_NE(after->integer, 1024) << "an add rewrote the segment";
    // Queries answer true or fail; an answer of false would be a lost key.
    const absl::Status query = filter->MayContain(Views(keys), results.get());
    if (damage[0] != "APPEND") {
      EXPECT_TRUE(absl::IsDataLoss(query)) << query;
    } else {
      // Longer: every block is still where it was, and answers.
      ASSERT_TRUE(query.ok()) << query;
      for (size_t i = 0; i < keys.size(); ++i) ASSERT_TRUE(results[i]);
    }
    EXPECT_TRUE(absl::IsDataLoss(filter->ApproximateCount().status()));
    EXPECT_TRUE(absl::IsDataLoss(filter->Export().status()));
    ASSERT_TRUE(server_->Command({"SET", segment, saved->str}).ok());
  }
  // The wrong type.
  ASSERT_TRUE(server_->Command({"DEL", segment}).ok());
  ASSERT_TRUE(server_->Command({"LPUSH", segment, "x"}).ok());
  for (const std::string& key : keys) {
    absl::StatusOr<bool> added = filter->Add(key);
    absl::StatusOr<bool> found = filter->MayContain(key);
    ASSERT_TRUE(found.ok() || absl::IsDataLoss(found.status()))
        << found.status();
    if (found.ok()) {
      ASSERT_TRUE(*found);
    }
    ASSERT_TRUE(added.ok() || absl::IsDataLoss(added.status()))
        << added.status();
  }
  EXPECT_TRUE(absl::IsDataLoss(filter->Add(Views(keys))));
  EXPECT_TRUE(
      absl::IsDataLoss(RedisBloomFilter::Open(Redis(), Name()).status()));
  ASSERT_TRUE(server_->Command({"DEL", segment}).ok());
  ASSERT_TRUE(server_->Command({"SET", segment, saved->str}).ok());
  ASSERT_TRUE(filter->MayContain(Views(keys), results.get()).ok());
  for (size_t i = 0; i < keys.size(); ++i) ASSERT_TRUE(results[i]);
  // A description that is not ours, or of the wrong type.
  ASSERT_TRUE(server_->Command({"SET", Name(), "not a filter"}).ok());
  absl::Status opened = RedisBloomFilter::Open(Redis(), Name()).status();
  EXPECT_TRUE(absl::IsDataLoss(opened)) << opened;
  EXPECT_NE(opened.message().find("46"), std::string::npos) << opened;
  ASSERT_TRUE(server_->Command({"DEL", Name()}).ok());
  ASSERT_TRUE(server_->Command({"HSET", Name(), "a", "b"}).ok());
  EXPECT_TRUE(
      absl::IsDataLoss(RedisBloomFilter::Open(Redis(), Name()).status()));
  ASSERT_TRUE(server_->Command({"DEL", Name()}).ok());
}

// Many clients at once: each thread opens its own filter object, adds its
// own keys and publishes how far it got; every thread checks that every key
// another thread's Add has returned for is found.
TEST_F(RedisBloomTest, ManyClientsSeeEveryReturnedAdd) {
  ASSERT_NE(MustCreate(FilterOptions::Fpp(0.01), 40000, 4096), nullptr);
  constexpr int kThreads = 8;
  constexpr uint64_t kKeysPerThread = 2000;
  std::atomic<uint64_t> done[kThreads];
  for (auto& d : done) d.store(0);
  std::atomic<uint64_t> misses{0}, errors{0}, checked{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      absl::StatusOr<std::unique_ptr<RedisBloomFilter>> filter =
          RedisBloomFilter::Open(Redis(), Name());
      if (!filter.ok()) {
        errors.fetch_add(1);
        return;
      }
      for (uint64_t i = 0; i < kKeysPerThread; ++i) {
        if (!(*filter)->Add(Key16(10 + t, i)).ok()) errors.fetch_add(1);
        done[t].store(i + 1, std::memory_order_release);
        // A key another thread has finished adding.
        const int other = (t + 1 + i % (kThreads - 1)) % kThreads;
        const uint64_t upto = done[other].load(std::memory_order_acquire);
        if (upto == 0) continue;
        absl::StatusOr<bool> found =
            (*filter)->MayContain(Key16(10 + other, i % upto));
        if (!found.ok()) {
          errors.fetch_add(1);
        } else {
          checked.fetch_add(1);
          if (!*found) misses.fetch_add(1);
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(errors.load(), 0u);
  EXPECT_EQ(misses.load(), 0u);
  EXPECT_GT(checked.load(), kThreads * kKeysPerThread / 2);
  absl::StatusOr<std::unique_ptr<RedisBloomFilter>> filter =
      RedisBloomFilter::Open(Redis(), Name());
  ASSERT_TRUE(filter.ok());
  for (int t = 0; t < kThreads; ++t) {
    const std::vector<std::string> keys = Keys16(10 + t, 0, kKeysPerThread);
    std::unique_ptr<bool[]> results(new bool[keys.size()]);
    ASSERT_TRUE((*filter)->MayContain(Views(keys), results.get()).ok());
    for (size_t i = 0; i < keys.size(); ++i) ASSERT_TRUE(results[i]);
  }
  absl::StatusOr<uint64_t> count = (*filter)->ApproximateCount();
  ASSERT_TRUE(count.ok());
  EXPECT_NEAR(static_cast<double>(*count), kThreads * kKeysPerThread,
              0.03 * kThreads * kKeysPerThread);
}

// The server killed (SIGKILL) mid-run: every call fails with
// UnavailableError within the retry policy's bound, never a "no"; after a
// restart from its append-only file the same filter object carries on and
// finds every key whose Add returned.
TEST_F(RedisBloomTest, ServerKilledAndRestarted) {
  std::unique_ptr<RedisBloomFilter> filter =
      MustCreate(FilterOptions::Fpp(0.01), 4000, 2048);
  ASSERT_NE(filter, nullptr);
  const std::vector<std::string> keys = Keys16(20, 0, 4000);
  std::vector<absl::string_view> first(keys.begin(), keys.begin() + 2000);
  ASSERT_TRUE(filter->Add(first).ok());

  server_->Kill();
  const absl::Time start = absl::Now();
  absl::StatusOr<bool> found = filter->MayContain(keys[0]);
  EXPECT_TRUE(absl::IsUnavailable(found.status())) << found.status();
  // 3 attempts, pauses of 10 and 20 ms, refused connections: well under 2 s.
  EXPECT_LT(absl::Now() - start, absl::Seconds(2));
  EXPECT_TRUE(absl::IsUnavailable(filter->Add(keys[2000]).status()));
  std::unique_ptr<bool[]> results(new bool[keys.size()]);
  EXPECT_TRUE(
      absl::IsUnavailable(filter->MayContain(Views(keys), results.get())));
  EXPECT_TRUE(absl::IsUnavailable(filter->Export().status()));
  EXPECT_TRUE(
      absl::IsUnavailable(RedisBloomFilter::Open(Redis(), Name()).status()));

  ASSERT_TRUE(server_->Restart().ok());
  std::vector<absl::string_view> second(keys.begin() + 2000, keys.end());
  ASSERT_TRUE(filter->Add(second).ok());
  ASSERT_TRUE(filter->MayContain(Views(keys), results.get()).ok());
  for (size_t i = 0; i < keys.size(); ++i) ASSERT_TRUE(results[i]) << i;
}

// Without persistence a restarted server comes back empty: the segments
// are gone, and queries say so instead of answering "no".
TEST_F(RedisBloomTest, RestartWithoutPersistenceIsDataLossNotNo) {
  test::RedisServerOptions volatile_options;
  volatile_options.persistent = false;
  absl::StatusOr<std::unique_ptr<RedisServer>> server =
      RedisServer::Start(volatile_options);
  ASSERT_TRUE(server.ok()) << server.status();
  RedisOptions redis = Redis();
  redis.endpoints = {(*server)->endpoint()};
  absl::StatusOr<std::unique_ptr<RedisBloomFilter>> filter =
      RedisBloomFilter::Create(redis, "volatile", FilterOptions::Fpp(0.01),
                               1000);
  ASSERT_TRUE(filter.ok()) << filter.status();
  ASSERT_TRUE((*filter)->Add("kept?").ok());
  ASSERT_TRUE((*server)->Restart().ok());
  absl::StatusOr<bool> found = (*filter)->MayContain("kept?");
  EXPECT_TRUE(absl::IsDataLoss(found.status())) << found.status();
  EXPECT_TRUE(absl::IsDataLoss((*filter)->Add("kept?").status()));
  absl::StatusOr<RedisReply> size = (*server)->Command({"DBSIZE"});
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(size->integer, 0) << "an add recreated a segment";
}

// A server that accepts connections but never answers (SIGSTOP): the
// command timeout bounds every call.
TEST_F(RedisBloomTest, HungServerTimesOut) {
  std::unique_ptr<RedisBloomFilter> filter =
      MustCreate(FilterOptions::Fpp(0.01), 100);
  ASSERT_NE(filter, nullptr);
  ASSERT_TRUE(filter->Add("apple").ok());
  ASSERT_EQ(kill(server_->pid(), SIGSTOP), 0);
  const absl::Time start = absl::Now();
  absl::StatusOr<bool> found = filter->MayContain("apple");
  const absl::Duration took = absl::Now() - start;
  ASSERT_EQ(kill(server_->pid(), SIGCONT), 0);
  EXPECT_TRUE(absl::IsUnavailable(found.status())) << found.status();
  // Three attempts of 500 ms each and two pauses.
  EXPECT_LT(took, absl::Seconds(3));
  absl::StatusOr<bool> later = filter->MayContain("apple");
  ASSERT_TRUE(later.ok()) << later.status();
  EXPECT_TRUE(*later);
}

}  // namespace
}  // namespace sstfilter
