// The presence-filtered crash configuration's saved filter, damaged between
// a close and a reopen as a crash or a bad disk would leave it: cut to a
// random length, replaced by a partly written temporary file renamed into
// place, or with one byte changed at a random position. Each reopen must
// notice (the filter is rebuilt from a scan: its first rebuild, as the
// listener reports it, is for kDamaged, and Stats().last_rebuild says
// kDamaged unless a rebuild for the rate followed) and find every key
// through the wrapper, before and once the filter serves (reopen_checks.h). The
// intact file CloseAndSave left is restored without a rebuild: the damage, not
// the reopen, makes the rebuild.
//
// Between reopens the test writes more ops and closes without a save, so
// that each reopen also replays a write-ahead log and reads tables the
// saved file does not list.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "engines/rocksdb/presence/presence_filtered_db.h"
#include "gtest/gtest.h"
#include "table/testing/real_tables.h"
#include "tests/crash/crash_db.h"
#include "tests/crash/rebuild_causes.h"
#include "tests/crash/reopen_checks.h"
#include "tests/crash/workload.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace test {
namespace {

constexpr uint64_t kSeed = 26;
// Ops before the first save: the key space mostly written, several flushes.
constexpr uint64_t kOpsBeforeSave = 4000;
// Ops written after each reopen and never saved.
constexpr uint64_t kOpsPerReopen = 200;
constexpr int kTruncations = 6;
constexpr int kTornRenames = 3;
constexpr int kByteFlips = 10;
constexpr size_t kNeverWrittenKeys = 1000;

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(path);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

bool WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

// How a damage is made from the intact saved bytes.
struct Damage {
  enum Kind { kTruncate, kTornRename, kFlipByte } kind;
  size_t position = 0;  // the length kept, or the byte changed
  uint8_t flip = 0;     // kFlipByte: XORed into the byte; not zero

  std::string Describe() const {
    switch (kind) {
      case kTruncate:
        return "cut to " + std::to_string(position) + " bytes";
      case kTornRename:
        return "a temporary file of " + std::to_string(position) +
               " bytes renamed into place";
      case kFlipByte:
        return "byte " + std::to_string(position) + " XOR " +
               std::to_string(flip);
    }
    return "";
  }
};

// Puts damage of intact in place of the saved file at path.
void Inflict(const Damage& damage, const std::string& intact,
             const std::string& path) {
  switch (damage.kind) {
    case Damage::kTruncate:
      ASSERT_TRUE(WriteFile(path, intact));
      std::filesystem::resize_file(path, damage.position);
      return;
    case Damage::kTornRename: {
      const std::string temporary = path + ".torn";
      ASSERT_TRUE(WriteFile(temporary, intact.substr(0, damage.position)));
      std::filesystem::rename(temporary, path);
      return;
    }
    case Damage::kFlipByte: {
      std::string bytes = intact;
      bytes[damage.position] = static_cast<char>(
          static_cast<uint8_t>(bytes[damage.position]) ^ damage.flip);
      ASSERT_TRUE(WriteFile(path, bytes));
      return;
    }
  }
}

// The damages of one run: random lengths and positions, and the first and
// last byte among the flips.
std::vector<Damage> Damages(size_t size, Random* rng) {
  std::vector<Damage> damages;
  for (int i = 0; i < kTruncations; ++i) {
    damages.push_back({Damage::kTruncate, rng->Uniform(size)});
  }
  for (int i = 0; i < kTornRenames; ++i) {
    damages.push_back({Damage::kTornRename, rng->Uniform(size)});
  }
  for (int i = 0; i < kByteFlips; ++i) {
    const size_t position = i == 0 ? 0 : i == 1 ? size - 1 : rng->Uniform(size);
    damages.push_back({Damage::kFlipByte, position,
                       static_cast<uint8_t>(rng->Range(1, 255))});
  }
  return damages;
}

// Writes n ops from *next_op on through db, without sync (nothing here
// crashes), into *model.
void WriteOps(CrashDb* db, uint64_t n, uint64_t* next_op, Model* model) {
  for (uint64_t i = 0; i < n; ++i) {
    const Op op = WorkloadOp(kSeed, (*next_op)++);
    ASSERT_EQ(db->Apply(op, /*sync=*/false), absl::OkStatus());
    model->Apply(op);
  }
}

PresenceRebuildReason LastRebuild(CrashDb* db) {
  PresenceFilteredDB* presence = db->presence_filtered_db();
  return presence->Stats(presence->DefaultColumnFamily()).last_rebuild;
}

std::string Name(PresenceRebuildReason reason) {
  return PresenceRebuildReasonName(reason);
}

TEST(PresenceSaveDamageTest, ADamagedSaveIsRebuiltAndEveryKeyFound) {
  absl::StatusOr<CrashConfig> config = ParseCrashConfig("rocksdb_presence");
  ASSERT_TRUE(config.ok()) << config.status();
  TempDir dir;
  const std::string saved_path = PresenceFilterFileName(dir.path());
  Random rng(kSeed);
  Model model;
  uint64_t next_op = 0;
  {
    absl::StatusOr<std::unique_ptr<CrashDb>> db =
        CrashDb::Open(*config, dir.path());
    ASSERT_TRUE(db.ok()) << db.status();
    ASSERT_NE((*db)->presence_filtered_db(), nullptr);
    WriteOps(db->get(), kOpsBeforeSave, &next_op, &model);
    ASSERT_EQ((*db)->Close(), absl::OkStatus());
  }
  absl::StatusOr<std::string> intact = ReadFile(saved_path);
  ASSERT_TRUE(intact.ok()) << intact.status();
  ASSERT_FALSE(intact->empty());

  // Intact, the file restores without a rebuild; a rebuild for the rate
  // may follow (a filter saved with its rebuild pending).
  {
    RebuildCauses rebuilds;
    absl::StatusOr<std::unique_ptr<CrashDb>> db =
        CrashDb::Open(*config, dir.path(), {}, &rebuilds);
    ASSERT_TRUE(db.ok()) << db.status();
    ASSERT_EQ(CheckReopened(db->get(), model, {}, kNeverWrittenKeys),
              absl::OkStatus());
    for (const std::string& cause : rebuilds.causes()) {
      EXPECT_EQ(cause, Name(PresenceRebuildReason::kRateAboveTarget))
          << "the intact saved file was not restored";
    }
    WriteOps(db->get(), kOpsPerReopen, &next_op, &model);
  }

  const std::vector<Damage> damages = Damages(intact->size(), &rng);
  int rebuilt = 0;
  for (const Damage& damage : damages) {
    SCOPED_TRACE(::testing::Message()
                 << "seed " << kSeed << ", saved file of " << intact->size()
                 << " bytes " << damage.Describe());
    Inflict(damage, *intact, saved_path);
    if (::testing::Test::HasFatalFailure()) return;
    RebuildCauses rebuilds;
    absl::StatusOr<std::unique_ptr<CrashDb>> db =
        CrashDb::Open(*config, dir.path(), {}, &rebuilds);
    ASSERT_TRUE(db.ok()) << db.status();
    ASSERT_EQ(CheckReopened(db->get(), model, {}, kNeverWrittenKeys),
              absl::OkStatus());
    // The first rebuild is for the damage; Stats names it, or one for the
    // rate that began after it (read in this order, the causes include any
    // rebuild Stats names).
    const PresenceRebuildReason last = LastRebuild(db->get());
    const std::vector<std::string> causes = rebuilds.causes();
    const bool rebuilt_for_damage =
        !causes.empty() && causes[0] == Name(PresenceRebuildReason::kDamaged);
    EXPECT_TRUE(rebuilt_for_damage)
        << "first rebuild: "
        << (causes.empty() ? std::string("none") : causes[0]);
    EXPECT_TRUE(
        last == PresenceRebuildReason::kDamaged ||
        (last == PresenceRebuildReason::kRateAboveTarget && causes.size() > 1))
        << "Stats().last_rebuild: " << Name(last);
    if (rebuilt_for_damage) ++rebuilt;
    WriteOps(db->get(), kOpsPerReopen, &next_op, &model);
  }
  std::printf(
      "%d of %zu damaged saves of a %zu-byte file were rebuilt; %zu keys "
      "present, every one found\n",
      rebuilt, damages.size(), intact->size(), model.present());
}

}  // namespace
}  // namespace test
}  // namespace sstfilter
