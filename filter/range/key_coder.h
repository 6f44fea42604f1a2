// How a table's keyed range filter (keyed_grafite.h) turns keys into 128-bit
// codes: the table's common key prefix is dropped, and each position after it
// is coded by rank among the symbols the table's keys hold there. README.md
// ("Keys as they are") defines the code and proves it keeps order.
//
// Internal header: include filter/range/range_filter.h instead.

#ifndef SSTFILTER_FILTER_RANGE_KEY_CODER_H_
#define SSTFILTER_FILTER_RANGE_KEY_CODER_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "filter/range/wide_code.h"

namespace sstfilter {
namespace grafite_internal {

// A key's code: one mixed-radix digit per coded position.
using KeyCode = WideCode;

// A key's symbol at a position: 0 where the key has ended, else byte + 1.
constexpr int kEndSymbol = 0;
constexpr int kNumSymbols = 257;

// The symbols a table's keys hold at one position.
struct CodedPosition {
  std::array<uint64_t, 5> symbols{};  // bit s: symbol s occurs (257 bits)
  uint64_t radix = 0;                 // how many symbols occur
  std::array<uint16_t, 5> rank{};     // symbols in the words before each

  // Sets radix and rank from symbols.
  void Count();

  bool Has(int symbol) const {
    return (symbols[symbol >> 6] >> (symbol & 63)) & 1;
  }
  // How many occurring symbols are below symbol.
  uint64_t CountBelow(int symbol) const;
};

// Where a string falls among a table's keys, in codes.
struct CodeBounds {
  // The smallest code of a table key >= the string; nullopt: none is.
  std::optional<KeyCode> low;
  // The largest code of a table key <= the string (or < it, for an exclusive
  // bound); nullopt: none is.
  std::optional<KeyCode> high;
  // Whether the string may be a table key: it has the common prefix and
  // every symbol it has at a coded position occurs there.
  bool may_be_key = false;
};

class KeyCoder {
 public:
  // The coder of these keys (any order, repeats allowed).
  static KeyCoder ForKeys(const std::vector<absl::string_view>& keys);
  // The coder AppendTo wrote; nullopt for bytes no writer gives.
  static std::optional<KeyCoder> Parse(absl::string_view bytes);
  void AppendTo(std::string* dst) const;

  // A table key's code; any other string's code keeps order: a <= b implies
  // Code(a) <= Code(b), and keys differing at a coded position differ in code.
  KeyCode Code(absl::string_view key) const;
  // For a range bound: lower bounds use low, upper bounds high.
  CodeBounds Bounds(absl::string_view bound, bool exclusive_high) const;

  const std::string& prefix() const { return prefix_; }
  size_t num_positions() const { return positions_.size(); }
  // The largest code: the product of the radices, less one.
  const KeyCode& max_code() const { return max_code_; }

 private:
  enum class Walk { kExact, kTruncated, kBelowSubtree, kAboveSubtree };
  struct Walked {
    KeyCode code;
    Walk kind;
  };
  // Requires bound to start with prefix_.
  Walked WalkSuffix(absl::string_view suffix) const;
  // WalkSuffix in the arithmetic of Accumulator (key_coder.cc).
  template <typename Accumulator>
  Walked WalkWith(absl::string_view suffix) const;
  // Sets max_code_ from the radices.
  void SetMaxCode();

  std::string prefix_;
  std::vector<CodedPosition> positions_;
  KeyCode max_code_;
  // Whether every code fits 128 bits, so walks need no wide arithmetic.
  bool narrow_ = true;
};

}  // namespace grafite_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_RANGE_KEY_CODER_H_
