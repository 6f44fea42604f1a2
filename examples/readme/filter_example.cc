// README.md's API example. The code between the START and END markers must
// equal the example block in README.md (//tests:readme_example_test checks).
// It is the file that the consumer projects under examples/ compile.
#include "filter_example.h"

// [START readme_example]
#include <iostream>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "filter/bloom/bloom.h"

// Builds a filter for three keys at false-positive rate fpp, then asks it about
// two keys. Invalid options come back as an error status, never a crash.
absl::Status FilterExample(double fpp, std::ostream& out) {
  absl::StatusOr<std::unique_ptr<const sstfilter::FilterPolicy>> policy =
      sstfilter::NewBloomFilterPolicy(sstfilter::FilterOptions::Fpp(fpp));
  if (!policy.ok()) return policy.status();  // InvalidArgumentError naming fpp

  std::unique_ptr<sstfilter::FilterBuilder> builder = (*policy)->NewBuilder();
  for (const char* key : {"apple", "banana", "cherry"}) builder->AddKey(key);
  std::string filter;  // store these bytes, and (*policy)->Name(), in the table
  builder->Finish(&filter);

  std::unique_ptr<sstfilter::FilterReader> reader =
      (*policy)->NewReader(filter);  // filter must outlive reader
  out << "apple: " << reader->MayMatch("apple") << "\n";  // 1: added keys match
  out << "durian: " << reader->MayMatch("durian") << "\n";  // 0, or 1 w.p. fpp
  return absl::OkStatus();
}
// [END readme_example]
