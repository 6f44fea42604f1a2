#include "tests/testing/factory_scan.h"

#include <set>
#include <string>

#include "gtest/gtest.h"

namespace sstfilter {
namespace test {
namespace {

using Names = std::set<std::string>;

TEST(FactoryScanTest, FindsEverySpellingOfAnOwnedPolicy) {
  EXPECT_EQ(DeclaredPolicyFactories(R"(
namespace sstfilter {
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewPlain(
    const FilterOptions& options);
absl::StatusOr<std::unique_ptr<const sstfilter::FilterPolicy>> NewQualified(
    FilterOptions options);
absl::StatusOr<std::unique_ptr<const ::sstfilter::FilterPolicy>>
NewGloballyQualified(FilterOptions options = FilterOptions::Fpp(0.01),
                     int seed = 3);
std::unique_ptr<FilterPolicy> NewBare();
std::shared_ptr<const FilterPolicy> NewShared(int);
[[nodiscard]] inline absl::StatusOr<std::unique_ptr<const FilterPolicy>>
    NewInline(const FilterOptions& options) { return Make(options); }
auto NewTrailing(const FilterOptions& options)
    -> absl::StatusOr<std::unique_ptr<const FilterPolicy>>;
template <typename Options>
std::unique_ptr<const FilterPolicy> NewTemplate(const Options& options);
ABSL_MUST_USE_RESULT extern std::unique_ptr<const FilterPolicy> NewMacro();
}  // namespace sstfilter
)"),
            (Names{"NewBare", "NewGloballyQualified", "NewInline", "NewMacro",
                   "NewPlain", "NewQualified", "NewShared", "NewTemplate",
                   "NewTrailing"}));
}

TEST(FactoryScanTest, FindsFactoriesDeclaredThroughAliases) {
  EXPECT_EQ(DeclaredPolicyFactories(R"(
using PolicyOr = absl::StatusOr<std::unique_ptr<const FilterPolicy>>;
typedef std::unique_ptr<const sstfilter::FilterPolicy> PolicyPtr;
using PolicyPtrOr = absl::StatusOr<PolicyPtr>;
using Policy = sstfilter::FilterPolicy;
PolicyOr NewThroughAlias(const FilterOptions& options);
PolicyPtr NewThroughTypedef();
PolicyPtrOr NewThroughAliasOfAlias();
std::unique_ptr<const Policy> NewOfPolicyAlias();
)"),
            (Names{"NewOfPolicyAlias", "NewThroughAlias",
                   "NewThroughAliasOfAlias", "NewThroughTypedef"}));
}

TEST(FactoryScanTest, FindsFactoriesThroughAnotherHeadersAlias) {
  const Names aliases = DeclaredPolicyAliases(
      "using PolicyOr = absl::StatusOr<std::unique_ptr<const FilterPolicy>>;");
  EXPECT_EQ(aliases, Names{"PolicyOr"});
  EXPECT_EQ(DeclaredPolicyFactories("PolicyOr NewElsewhere(int n);", aliases),
            Names{"NewElsewhere"});
  EXPECT_EQ(DeclaredPolicyFactories("PolicyOr NewElsewhere(int n);"), Names{});
}

// A factory is a free function at namespace scope that returns an owned
// policy: not a view of one, not a function pointer to a factory, not another
// namespace's policy, not a member function, and not text in a comment,
// string or macro.
TEST(FactoryScanTest, IgnoresWhatIsNotAFactory) {
  EXPECT_EQ(DeclaredPolicyFactories(R"(
#include "filter/filter_policy.h"
#define MAKE(x) absl::StatusOr<std::unique_ptr<const FilterPolicy>> x()
// absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewInAComment();
/* std::unique_ptr<const FilterPolicy> NewInABlockComment(); */
const FilterPolicy& policy() const;
const FilterPolicy* PolicyView();
const leveldb::FilterPolicy* NewLevelDbView();
std::unique_ptr<const rocksdb::FilterPolicy> NewOfRocksDb();
std::unique_ptr<FilterPolicyOptions> NewOptions();
std::unique_ptr<FilterBuilder> NewBuilder(const FilterOptions& options);
absl::StatusOr<std::unique_ptr<const FilterPolicy>> (*factory)(int);
std::function<absl::StatusOr<std::unique_ptr<const FilterPolicy>>(int)> f;
static const auto* const registered = Register(&NewPlain);
SSTFILTER_REGISTER_POLICY_FACTORY(NewPlain);
const char* kText = "std::unique_ptr<FilterPolicy> NewInAString(";
inline int Use() { return NewPlain(options).ok(); }
using FactoryPointer =
    absl::StatusOr<std::unique_ptr<const FilterPolicy>> (*)(int);
FactoryPointer FindFactory(absl::string_view name);
std::vector<std::unique_ptr<const FilterPolicy>> ManyPolicies();
class Spec {
 public:
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> Name(
      absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy) const;
  static std::unique_ptr<const FilterPolicy> Create();
};
inline int Wrap() {
  struct Local { std::unique_ptr<const FilterPolicy> Inner(); };
  return 0;
}
)"),
            Names{});
}

}  // namespace
}  // namespace test
}  // namespace sstfilter
