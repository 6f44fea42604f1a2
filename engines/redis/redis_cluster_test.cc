// RedisBloomFilter and RedisClient on a three-node Redis Cluster the test
// starts itself: segments spread over the nodes, slots as the servers compute
// them, MOVED and ASK redirections during a slot migration, and a node
// killed and restarted.

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engines/redis/hash_slot.h"
#include "engines/redis/redis_bloom.h"
#include "engines/redis/redis_client.h"
#include "engines/redis/redis_server.h"
#include "filter/testing/filter_test_util.h"
#include "gtest/gtest.h"
#include "inmemory/mutable/mutable_bloom.h"

namespace sstfilter {
namespace {

using test::Keys16;
using test::RedisCluster;

std::vector<absl::string_view> Views(const std::vector<std::string>& keys) {
  return std::vector<absl::string_view>(keys.begin(), keys.end());
}

class RedisClusterTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    absl::StatusOr<std::unique_ptr<RedisCluster>> cluster =
        RedisCluster::Start(3);
    ASSERT_TRUE(cluster.ok()) << cluster.status();
    cluster_ = cluster->release();
  }
  static void TearDownTestSuite() {
    delete cluster_;
    cluster_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(cluster_, nullptr); }

  // Seeded with node 0 only: the client learns the others.
  static RedisOptions Redis() {
    RedisOptions options;
    options.endpoints = {cluster_->node(0).endpoint()};
    options.cluster = true;
    options.command_timeout = absl::Milliseconds(500);
    options.retry_pause = absl::Milliseconds(20);
    return options;
  }

  // The node serving key's slot.
  static int NodeOf(const RedisClient& client, absl::string_view key) {
    const RedisEndpoint endpoint = client.EndpointOf(key);
    for (int i = 0; i < cluster_->size(); ++i) {
      if (cluster_->node(i).port() == endpoint.port) return i;
    }
    return -1;
  }

  static std::string Id(int node) {
    absl::StatusOr<RedisReply> id =
        cluster_->node(node).Command({"CLUSTER", "MYID"});
    return id.ok() ? id->str : "";
  }

  static RedisCluster* cluster_;
};

RedisCluster* RedisClusterTest::cluster_ = nullptr;

// The client's slots are the servers' own (CLUSTER KEYSLOT), hash tags
// included.
TEST_F(RedisClusterTest, SlotsAreTheServersOwn) {
  std::vector<std::string> keys = Keys16(0, 0, 300);
  for (const char* tagged : {"{user1000}.following", "foo{}{bar}",
                             "foo{{bar}}zap", "a{b}c{d}", "}{", "{}"}) {
    keys.push_back(tagged);
  }
  for (const std::string& key : keys) {
    absl::StatusOr<RedisReply> slot =
        cluster_->node(1).Command({"CLUSTER", "KEYSLOT", key});
    ASSERT_TRUE(slot.ok());
    ASSERT_EQ(slot->integer, redis_internal::HashSlot(key)) << key;
  }
}

// A filter of many small segments lives on every node, and holds exactly the
// in-memory filter's bytes.
TEST_F(RedisClusterTest, SegmentsSpreadOverTheNodes) {
  const std::string name = "spread";
  ASSERT_TRUE(RedisBloomFilter::Drop(Redis(), name).ok());
  const FilterOptions options = FilterOptions::Fpp(0.01);
  absl::StatusOr<std::unique_ptr<RedisBloomFilter>> filter =
      RedisBloomFilter::Create(Redis(), name, options, 20000, 1024);
  ASSERT_TRUE(filter.ok()) << filter.status();
  absl::StatusOr<std::unique_ptr<RedisClient>> client =
      RedisClient::Connect(Redis());
  ASSERT_TRUE(client.ok());
  std::set<int> nodes;
  for (uint64_t s = 0; s < (*filter)->NumSegments(); ++s) {
    nodes.insert(NodeOf(**client, (*filter)->SegmentKey(s)));
  }
  EXPECT_EQ(nodes.size(), 3u);

  absl::StatusOr<MutableBloomFilter> memory =
      MutableBloomFilter::Create(options, 20000);
  ASSERT_TRUE(memory.ok());
  const std::vector<std::string> keys = Keys16(1, 0, 20000);
  std::unique_ptr<bool[]> added(new bool[keys.size()]);
  ASSERT_TRUE((*filter)->Add(Views(keys), added.get()).ok());
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_EQ(added[i], memory->Add(keys[i])) << i;
  }
  std::unique_ptr<bool[]> results(new bool[keys.size()]);
  ASSERT_TRUE((*filter)->MayContain(Views(keys), results.get()).ok());
  for (size_t i = 0; i < keys.size(); ++i) ASSERT_TRUE(results[i]) << i;
  const std::vector<std::string> absent = Keys16(2, 0, 20000);
  ASSERT_TRUE((*filter)->MayContain(Views(absent), results.get()).ok());
  for (size_t i = 0; i < absent.size(); ++i) {
    ASSERT_EQ(results[i], memory->MayContain(absent[i])) << i;
  }
  absl::StatusOr<std::string> exported = (*filter)->Export();
  ASSERT_TRUE(exported.ok()) << exported.status();
  EXPECT_EQ(*exported, memory->Freeze());
  absl::StatusOr<uint64_t> count = (*filter)->ApproximateCount();
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(*count, memory->ApproximateCount());
  ASSERT_TRUE(RedisBloomFilter::Drop(Redis(), name).ok());
}

// A slot moves from one node to another while a filter is open, its slot
// map stale: during the migration the old owner answers ASK for the moved
// segment, afterwards MOVED; every add and query still lands.
TEST_F(RedisClusterTest, FollowsRedirectionsDuringASlotMigration) {
  const std::string name = "migrating";
  ASSERT_TRUE(RedisBloomFilter::Drop(Redis(), name).ok());
  absl::StatusOr<std::unique_ptr<RedisBloomFilter>> filter =
      RedisBloomFilter::Create(Redis(), name, FilterOptions::Fpp(0.01), 3000,
                               1024);
  ASSERT_TRUE(filter.ok()) << filter.status();
  const std::vector<std::string> keys = Keys16(3, 0, 3000);
  ASSERT_TRUE((*filter)->Add(Views(keys)).ok());

  absl::StatusOr<std::unique_ptr<RedisClient>> client =
      RedisClient::Connect(Redis());
  ASSERT_TRUE(client.ok());
  const std::string segment = (*filter)->SegmentKey(0);
  const int slot = redis_internal::HashSlot(segment);
  const int from = NodeOf(**client, segment);
  const int to = (from + 1) % cluster_->size();
  const std::string slot_text = absl::StrCat(slot);
  // The migration protocol of the cluster specification.
  ASSERT_TRUE(
      cluster_->node(to)
          .Command({"CLUSTER", "SETSLOT", slot_text, "IMPORTING", Id(from)})
          .ok());
  ASSERT_TRUE(
      cluster_->node(from)
          .Command({"CLUSTER", "SETSLOT", slot_text, "MIGRATING", Id(to)})
          .ok());
  absl::StatusOr<RedisReply> migrated = cluster_->node(from).Command(
      {"MIGRATE", "127.0.0.1", absl::StrCat(cluster_->node(to).port()), "", "0",
       "5000", "KEYS", segment});
  ASSERT_TRUE(migrated.ok());
  ASSERT_FALSE(migrated->IsError()) << migrated->str;
  // Mid-migration: the segment answers through ASK.
  std::unique_ptr<bool[]> results(new bool[keys.size()]);
  ASSERT_TRUE((*filter)->MayContain(Views(keys), results.get()).ok());
  for (size_t i = 0; i < keys.size(); ++i) ASSERT_TRUE(results[i]) << i;
  const std::vector<std::string> more = Keys16(4, 0, 1000);
  ASSERT_TRUE((*filter)->Add(Views(more)).ok());
  EXPECT_GT((*filter)->client_stats().asked, 0u);
  EXPECT_EQ((*filter)->client_stats().moved, 0u);
  // Done: every node learns the new owner; the filter's map is stale.
  for (int i = 0; i < cluster_->size(); ++i) {
    ASSERT_TRUE(cluster_->node(i)
                    .Command({"CLUSTER", "SETSLOT", slot_text, "NODE", Id(to)})
                    .ok());
  }
  ASSERT_TRUE((*filter)->MayContain(Views(keys), results.get()).ok());
  for (size_t i = 0; i < keys.size(); ++i) ASSERT_TRUE(results[i]) << i;
  ASSERT_TRUE((*filter)->MayContain(Views(more), results.get()).ok());
  for (size_t i = 0; i < more.size(); ++i) ASSERT_TRUE(results[i]) << i;
  EXPECT_GT((*filter)->client_stats().moved, 0u);
  absl::StatusOr<RedisReply> there =
      cluster_->node(to).Command({"CLUSTER", "COUNTKEYSINSLOT", slot_text});
  ASSERT_TRUE(there.ok());
  EXPECT_EQ(there->integer, 1);
  ASSERT_TRUE(RedisBloomFilter::Drop(Redis(), name).ok());
}

// A node killed mid-run: calls that need it fail with UnavailableError
// (and, once the cluster marks it failed, every call does), never a "no";
// restarted from its append-only file it rejoins, and the same filter object
// finds every key whose Add returned.
TEST_F(RedisClusterTest, NodeKilledAndRestarted) {
  const std::string name = "restart";
  ASSERT_TRUE(RedisBloomFilter::Drop(Redis(), name).ok());
  RedisOptions redis = Redis();
  redis.endpoints = cluster_->endpoints();
  absl::StatusOr<std::unique_ptr<RedisBloomFilter>> filter =
      RedisBloomFilter::Create(redis, name, FilterOptions::Fpp(0.01), 6000,
                               1024);
  ASSERT_TRUE(filter.ok()) << filter.status();
  const std::vector<std::string> keys = Keys16(5, 0, 6000);
  std::vector<absl::string_view> first(keys.begin(), keys.begin() + 3000);
  ASSERT_TRUE((*filter)->Add(first).ok());

  cluster_->node(2).Kill();
  uint64_t unavailable = 0;
  // Each call that fails takes 3 attempts and 60 ms of pauses.
  for (size_t i = 0; i < 60; ++i) {
    absl::StatusOr<bool> found = (*filter)->MayContain(keys[i]);
    if (!found.ok()) {
      ASSERT_TRUE(absl::IsUnavailable(found.status())) << found.status();
      ++unavailable;
    } else {
      ASSERT_TRUE(*found) << i;
    }
  }
  EXPECT_GT(unavailable, 0u);
  EXPECT_GT((*filter)->client_stats().retries, 0u);
  std::unique_ptr<bool[]> results(new bool[keys.size()]);
  EXPECT_TRUE(
      absl::IsUnavailable((*filter)->MayContain(Views(keys), results.get())));

  ASSERT_TRUE(cluster_->node(2).Restart().ok());
  ASSERT_TRUE(cluster_->WaitUntilOk().ok());
  std::vector<absl::string_view> second(keys.begin() + 3000, keys.end());
  ASSERT_TRUE((*filter)->Add(second).ok());
  ASSERT_TRUE((*filter)->MayContain(Views(keys), results.get()).ok());
  for (size_t i = 0; i < keys.size(); ++i) ASSERT_TRUE(results[i]) << i;
  ASSERT_TRUE(RedisBloomFilter::Drop(redis, name).ok());
}

// A cluster client pointed at a server without cluster mode is told so.
TEST_F(RedisClusterTest, ClusterClientOnAStandaloneServer) {
  absl::StatusOr<std::unique_ptr<test::RedisServer>> standalone =
      test::RedisServer::Start(test::RedisServerOptions());
  ASSERT_TRUE(standalone.ok());
  RedisOptions options = Redis();
  options.endpoints = {(*standalone)->endpoint()};
  const absl::Status status = RedisClient::Connect(options).status();
  EXPECT_TRUE(absl::IsFailedPrecondition(status)) << status;
}

}  // namespace
}  // namespace sstfilter
