#ifndef SSTFILTER_TESTS_TESTING_FACTORY_SCAN_H_
#define SSTFILTER_TESTS_TESTING_FACTORY_SCAN_H_

#include <set>
#include <string>

#include "absl/strings/string_view.h"

namespace sstfilter {
namespace test {

// Finds the policy factories a C++ header declares: the functions that hand
// their caller an sstfilter policy, so that a guard can demand each be
// registered with the contract suite.
//
// A declaration is a factory when its return type, however it is spelled,
// owns an sstfilter::FilterPolicy: the type (unqualified, sstfilter::, or
// ::sstfilter::) or an alias of it (`using` or `typedef`, also of an alias)
// inside std::unique_ptr, std::shared_ptr or absl::StatusOr; leading or
// trailing (`auto F(...) -> T`); with any parameters, defaulted or not, over
// any number of lines. Comments are ignored. A policy of another namespace
// (leveldb::FilterPolicy, rocksdb::FilterPolicy) is not sstfilter's, and a
// raw pointer or reference to a policy is a view (an accessor), not a factory.
//
// The scan reads one header's text; it does not follow #include. Aliases of
// other headers are found when `known_aliases` names them.
std::set<std::string> DeclaredPolicyFactories(
    absl::string_view header_text,
    const std::set<std::string>& known_aliases = {});

// The aliases of an owned policy type that `header_text` declares, for
// DeclaredPolicyFactories of the headers that include it.
std::set<std::string> DeclaredPolicyAliases(
    absl::string_view header_text,
    const std::set<std::string>& known_aliases = {});

}  // namespace test
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_TESTING_FACTORY_SCAN_H_
