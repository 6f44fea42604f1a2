#include "table/filter_keys.h"

#include "absl/strings/str_cat.h"
#include "table/meta_blocks.h"

namespace sstfilter {

absl::Status ValidateFilterBlockOptions(const FilterBlockOptions& options) {
  if (options.keys != FilterKeys::kWholeKeys &&
      options.prefix_extractor == nullptr) {
    return absl::InvalidArgumentError(
        "FilterBlockOptions: keys = prefixes needs a prefix_extractor, got "
        "null");
  }
  return absl::OkStatus();
}

std::vector<std::pair<std::string, std::string>> FilterKeysProperties(
    const FilterBlockOptions& options) {
  const bool prefixes = options.keys != FilterKeys::kWholeKeys;
  return {
      {kPrefixExtractorNameProperty,
       prefixes ? options.prefix_extractor->Name() : kNoPrefixExtractorName},
      {kWholeKeyFilteringProperty,
       options.keys == FilterKeys::kPrefixes ? "0" : "1"},
  };
}

FilterKeyAdder::FilterKeyAdder(const FilterBlockOptions& options)
    // Options that ask for prefixes without an extractor (which
    // ValidateFilterBlockOptions refuses) get whole keys, never nothing.
    : whole_keys_(options.keys != FilterKeys::kPrefixes ||
                  options.prefix_extractor == nullptr),
      extractor_(options.keys == FilterKeys::kWholeKeys
                     ? nullptr
                     : options.prefix_extractor) {}

void FilterKeyAdder::Add(absl::string_view user_key, FilterBuilder* builder) {
  if (whole_keys_ && !(have_last_key_ && last_key_ == user_key)) {
    builder->AddKey(user_key);
    last_key_.assign(user_key.data(), user_key.size());
    have_last_key_ = true;
  }
  if (extractor_ == nullptr || !extractor_->InDomain(user_key)) return;
  const absl::string_view prefix = extractor_->Transform(user_key);
  if (have_last_prefix_ && last_prefix_ == prefix) return;
  builder->AddKey(prefix);
  last_prefix_.assign(prefix.data(), prefix.size());
  have_last_prefix_ = true;
}

void FilterKeyAdder::AddPrefixOfNext(absl::string_view next_key,
                                     FilterBuilder* builder) {
  if (extractor_ == nullptr || !extractor_->InDomain(next_key)) return;
  const absl::string_view prefix = extractor_->Transform(next_key);
  if (have_last_prefix_ && last_prefix_ == prefix) return;
  builder->AddKey(prefix);
}

void FilterKeyAdder::Reset() {
  have_last_key_ = false;
  have_last_prefix_ = false;
}

}  // namespace sstfilter
