#include "tests/crash/workload.h"

#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "util/testing/random.h"

namespace sstfilter {
namespace test {
namespace {

// Never-written keys are mixed from ids past this one, so they differ from
// every workload key (Mix64 is a bijection).
constexpr uint64_t kNeverWrittenBase = uint64_t{1} << 40;

std::string Describe(const std::optional<std::string>& value) {
  if (!value.has_value()) return "NotFound";
  // The value's head names its op; the filler says nothing more.
  return absl::StrCat("\"", value->substr(0, value->find(':')), "...\"");
}

}  // namespace

std::string WorkloadKey(uint64_t id) {
  return absl::StrFormat("%016x", Mix64(id));
}

std::string NeverWrittenKey(uint64_t j) {
  return absl::StrFormat("%016x", Mix64(kNeverWrittenBase + j));
}

Op WorkloadOp(uint64_t seed, uint64_t i) {
  Random rng(Mix64(seed) ^ Mix64(~i));
  Op op;
  op.index = i;
  op.key = WorkloadKey(rng.Uniform(kKeySpace));
  op.type = rng.OneIn(5) ? Op::kDelete : Op::kPut;
  if (op.type == Op::kPut) {
    op.value = absl::StrCat("v", i, ":");
    op.value.resize(kValueBytes, static_cast<char>('a' + i % 26));
  }
  return op;
}

void Model::Apply(const Op& op) {
  if (op.type == Op::kPut) {
    values_[op.key] = op.value;
  } else {
    values_.erase(op.key);
  }
}

void Model::Set(const std::string& key, std::optional<std::string> value) {
  if (value.has_value()) {
    values_[key] = *std::move(value);
  } else {
    values_.erase(key);
  }
}

std::optional<std::string> Model::Get(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> CheckedKeys(size_t never_written_keys) {
  std::vector<std::string> keys;
  for (uint64_t id = 0; id < kKeySpace; ++id) keys.push_back(WorkloadKey(id));
  for (uint64_t j = 0; j < never_written_keys; ++j) {
    keys.push_back(NeverWrittenKey(j));
  }
  return keys;
}

absl::Status CheckDatabase(const Model& model, absl::Span<const Op> maybe,
                           const Lookup& lookup, size_t never_written_keys) {
  for (uint64_t id = 0; id < kKeySpace; ++id) {
    const std::string key = WorkloadKey(id);
    std::vector<std::optional<std::string>> allowed = {model.Get(key)};
    for (const Op& op : maybe) {
      if (op.key != key) continue;
      allowed.push_back(op.type == Op::kPut
                            ? std::optional<std::string>(op.value)
                            : std::nullopt);
    }
    absl::StatusOr<std::optional<std::string>> got = lookup(key);
    if (!got.ok()) return got.status();
    bool ok = false;
    std::string expected;
    for (const auto& a : allowed) {
      ok = ok || a == *got;
      absl::StrAppend(&expected, expected.empty() ? "" : " or ", Describe(a));
    }
    if (!ok) {
      return absl::InternalError(
          absl::StrFormat("key %s (id %d): found %s, expected %s", key, id,
                          Describe(*got), expected));
    }
  }
  for (uint64_t j = 0; j < never_written_keys; ++j) {
    const std::string key = NeverWrittenKey(j);
    absl::StatusOr<std::optional<std::string>> got = lookup(key);
    if (!got.ok()) return got.status();
    if (got->has_value()) {
      return absl::InternalError(absl::StrFormat(
          "never-written key %s: found %s", key, Describe(*got)));
    }
  }
  return absl::OkStatus();
}

absl::Status ResolveMaybe(absl::Span<const Op> maybe, const Lookup& lookup,
                          Model* model) {
  for (const Op& op : maybe) {
    absl::StatusOr<std::optional<std::string>> got = lookup(op.key);
    if (!got.ok()) return got.status();
    model->Set(op.key, *std::move(got));
  }
  return absl::OkStatus();
}

}  // namespace test
}  // namespace sstfilter
