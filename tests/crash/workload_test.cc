// The crash tests' checker can fail: a dropped key, a stale value, a
// resurrected delete and a never-written key reported present are each
// caught, and only the ops it is told may be in flight are let through.

#include "tests/crash/workload.h"

#include <map>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace test {
namespace {

constexpr uint64_t kSeed = 7;
constexpr uint64_t kOps = 5000;
constexpr size_t kNeverWritten = 100;

// A database stand-in: the model's state with some keys changed.
Lookup FakeDb(const Model& model,
              std::map<std::string, std::optional<std::string>> changed) {
  return [model, changed](const std::string& key)
             -> absl::StatusOr<std::optional<std::string>> {
    auto it = changed.find(key);
    if (it != changed.end()) return it->second;
    return model.Get(key);
  };
}

Model Written(uint64_t ops) {
  Model model;
  for (uint64_t i = 0; i < ops; ++i) model.Apply(WorkloadOp(kSeed, i));
  return model;
}

// The last op of the first kOps of the given type.
Op LastOf(Op::Type type) {
  for (uint64_t i = kOps; i-- > 0;) {
    Op op = WorkloadOp(kSeed, i);
    if (op.type == type) return op;
  }
  return Op();
}

TEST(WorkloadTest, OpsAreAFunctionOfSeedAndIndex) {
  const Op a = WorkloadOp(kSeed, 123);
  const Op b = WorkloadOp(kSeed, 123);
  EXPECT_EQ(a.key, b.key);
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.value, b.value);
  EXPECT_NE(WorkloadOp(kSeed + 1, 123).value + WorkloadOp(kSeed + 1, 123).key,
            a.value + a.key);
  // Overwrites and deletes both happen, and keys repeat.
  const Model model = Written(kOps);
  EXPECT_GT(model.present(), kKeySpace / 2);
  EXPECT_LT(model.present(), kKeySpace);
}

TEST(WorkloadTest, TheDatabaseItselfPasses) {
  const Model model = Written(kOps);
  EXPECT_EQ(CheckDatabase(model, {}, FakeDb(model, {}), kNeverWritten),
            absl::OkStatus());
}

TEST(WorkloadTest, ADroppedKeyFails) {
  const Model model = Written(kOps);
  const Op put = LastOf(Op::kPut);
  const absl::Status s = CheckDatabase(
      model, {}, FakeDb(model, {{put.key, std::nullopt}}), kNeverWritten);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(put.key), std::string::npos) << s;
}

TEST(WorkloadTest, AStaleValueFails) {
  const Model model = Written(kOps);
  const Op put = LastOf(Op::kPut);
  const Model older = Written(put.index);
  EXPECT_FALSE(CheckDatabase(model, {},
                             FakeDb(model, {{put.key, older.Get(put.key)}}),
                             kNeverWritten)
                   .ok());
}

TEST(WorkloadTest, AResurrectedDeleteFails) {
  const Model model = Written(kOps);
  const Op del = LastOf(Op::kDelete);
  ASSERT_EQ(model.Get(del.key), std::nullopt);
  EXPECT_FALSE(CheckDatabase(model, {},
                             FakeDb(model, {{del.key, std::string("v0:")}}),
                             kNeverWritten)
                   .ok());
}

TEST(WorkloadTest, ANeverWrittenKeyFoundFails) {
  const Model model = Written(kOps);
  const std::string key = NeverWrittenKey(kNeverWritten - 1);
  EXPECT_FALSE(
      CheckDatabase(model, {}, FakeDb(model, {{key, "x"}}), kNeverWritten)
          .ok());
}

TEST(WorkloadTest, AnOpInFlightMayOrMayNotBeThere) {
  const Model model = Written(kOps);
  const Op next = WorkloadOp(kSeed, kOps);
  Model applied = model;
  applied.Apply(next);
  EXPECT_EQ(CheckDatabase(model, {next}, FakeDb(model, {}), kNeverWritten),
            absl::OkStatus());
  EXPECT_EQ(CheckDatabase(model, {next}, FakeDb(applied, {}), kNeverWritten),
            absl::OkStatus());
  // Without it among the maybes, the applied one fails unless it changed
  // nothing (a delete of an absent key).
  if (model.Get(next.key) != applied.Get(next.key)) {
    EXPECT_FALSE(
        CheckDatabase(model, {}, FakeDb(applied, {}), kNeverWritten).ok());
  }
  // ResolveMaybe takes the database's side.
  Model resolved = model;
  ASSERT_EQ(ResolveMaybe({next}, FakeDb(applied, {}), &resolved),
            absl::OkStatus());
  EXPECT_EQ(resolved.Get(next.key), applied.Get(next.key));
}

}  // namespace
}  // namespace test
}  // namespace sstfilter
