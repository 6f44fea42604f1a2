// A program in another workspace that uses sstfilter: builds a filter with the
// native policy and asks it about two keys. Exits 0 when every step worked.

#include <cstdio>
#include <memory>
#include <string>

#include "filter/bloom/bloom.h"

int main() {
  auto policy =
      sstfilter::NewBloomFilterPolicy(sstfilter::FilterOptions::Fpp(0.01));
  if (!policy.ok()) {
    std::fprintf(stderr, "consumer: %s\n", policy.status().ToString().c_str());
    return 1;
  }
  std::string filter;
  auto builder = (*policy)->NewBuilder();
  builder->AddKey("apple");
  builder->Finish(&filter);
  if (!(*policy)->NewReader(filter)->MayMatch("apple")) {
    std::fprintf(stderr, "consumer: an added key did not match\n");
    return 1;
  }
  std::printf("consumer: sstfilter %s: ok\n", (*policy)->Name());
  return 0;
}
