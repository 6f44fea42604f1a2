#include "filter/range/key_coder.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "util/coding.h"

namespace sstfilter {
namespace grafite_internal {
namespace {

// Positions a coder codes at most, past the common prefix: a bound is walked
// through them on every query, and a position whose symbols are all one costs
// no code bits but still a step.
constexpr size_t kMaxPositions = 256;

// A position stores its bytes as a list up to this many, else as a bitmap.
constexpr uint32_t kMaxListedBytes = 32;
constexpr size_t kBitmapBytes = 32;
constexpr uint8_t kEndFlag = 1;

int SymbolAt(absl::string_view suffix, size_t position) {
  return position < suffix.size()
             ? static_cast<int>(static_cast<uint8_t>(suffix[position])) + 1
             : kEndSymbol;
}

void AddSymbol(int symbol, CodedPosition* position) {
  position->symbols[symbol >> 6] |= uint64_t{1} << (symbol & 63);
}

int Popcount64(uint64_t x) {
#ifdef __POPCNT__
  return __builtin_popcountll(x);
#else
  // Without the instruction the builtin is a library call.
  x -= (x >> 1) & 0x5555555555555555ULL;
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
#endif
}

// A walk's code in native 128-bit arithmetic, for coders whose codes fit.
class NarrowAccumulator {
 public:
  void MulAdd(uint64_t radix, uint64_t digit) { code_ = code_ * radix + digit; }
  void Decrement() { --code_; }
  KeyCode Code() const { return KeyCode::Of(code_); }

 private:
  unsigned __int128 code_ = 0;
};

class WideAccumulator {
 public:
  void MulAdd(uint64_t radix, uint64_t digit) { code_.MulAdd(radix, digit); }
  void Decrement() { code_.Decrement(); }
  const KeyCode& Code() const { return code_; }

 private:
  KeyCode code_;
};

}  // namespace

void CodedPosition::Count() {
  uint64_t total = 0;
  for (size_t word = 0; word < symbols.size(); ++word) {
    rank[word] = static_cast<uint16_t>(total);
    total += static_cast<uint64_t>(Popcount64(symbols[word]));
  }
  radix = total;
}

uint64_t CodedPosition::CountBelow(int symbol) const {
  const int word = symbol >> 6;
  const uint64_t below = (uint64_t{1} << (symbol & 63)) - 1;
  return rank[word] + static_cast<uint64_t>(Popcount64(symbols[word] & below));
}

KeyCoder KeyCoder::ForKeys(const std::vector<absl::string_view>& keys) {
  KeyCoder coder;
  if (keys.empty()) return coder;
  const auto [min_key, max_key] = std::minmax_element(keys.begin(), keys.end());
  size_t common = 0;
  while (common < min_key->size() && common < max_key->size() &&
         (*min_key)[common] == (*max_key)[common]) {
    ++common;
  }
  coder.prefix_ = std::string(min_key->substr(0, common));
  size_t longest = 0;
  for (absl::string_view key : keys) longest = std::max(longest, key.size());
  const size_t last_position = longest - common;  // every key has ended here

  for (size_t j = 0; j <= last_position && j < kMaxPositions; ++j) {
    CodedPosition position;
    for (absl::string_view key : keys) {
      AddSymbol(SymbolAt(key.substr(common), j), &position);
    }
    position.Count();
    coder.positions_.push_back(position);
  }
  coder.SetMaxCode();
  return coder;
}

void KeyCoder::SetMaxCode() {
  // Every digit at its largest.
  max_code_ = KeyCode();
  for (const CodedPosition& position : positions_) {
    max_code_.MulAdd(position.radix, position.radix - 1);
  }
  narrow_ = max_code_.NumLimbs60() <= 2 ||
            (max_code_.NumLimbs60() == 3 && max_code_.Limb60(2) < 256);
}

void KeyCoder::AppendTo(std::string* dst) const {
  PutVarint32(dst, static_cast<uint32_t>(prefix_.size()));
  dst->append(prefix_);
  PutVarint32(dst, static_cast<uint32_t>(positions_.size()));
  for (const CodedPosition& position : positions_) {
    const bool has_end = position.Has(kEndSymbol);
    dst->push_back(static_cast<char>(has_end ? kEndFlag : 0));
    const uint32_t num_bytes =
        static_cast<uint32_t>(position.radix - (has_end ? 1 : 0));
    PutVarint32(dst, num_bytes);
    if (num_bytes <= kMaxListedBytes) {
      for (int byte = 0; byte < 256; ++byte) {
        if (position.Has(byte + 1)) dst->push_back(static_cast<char>(byte));
      }
      continue;
    }
    char bitmap[kBitmapBytes] = {};
    for (int byte = 0; byte < 256; ++byte) {
      if (position.Has(byte + 1)) bitmap[byte >> 3] |= 1 << (byte & 7);
    }
    dst->append(bitmap, kBitmapBytes);
  }
}

std::optional<KeyCoder> KeyCoder::Parse(absl::string_view bytes) {
  KeyCoder coder;
  uint32_t prefix_size = 0;
  if (!GetVarint32(&bytes, &prefix_size) || prefix_size > bytes.size()) {
    return std::nullopt;
  }
  coder.prefix_ = std::string(bytes.substr(0, prefix_size));
  bytes.remove_prefix(prefix_size);
  uint32_t num_positions = 0;
  if (!GetVarint32(&bytes, &num_positions) || num_positions > kMaxPositions) {
    return std::nullopt;
  }
  for (uint32_t j = 0; j < num_positions; ++j) {
    CodedPosition position;
    uint32_t num_bytes = 0;
    if (bytes.empty() || static_cast<uint8_t>(bytes[0]) > kEndFlag) {
      return std::nullopt;
    }
    if (bytes[0] == kEndFlag) AddSymbol(kEndSymbol, &position);
    bytes.remove_prefix(1);
    if (!GetVarint32(&bytes, &num_bytes) || num_bytes > 256) {
      return std::nullopt;
    }
    if (num_bytes <= kMaxListedBytes) {
      if (bytes.size() < num_bytes) return std::nullopt;
      for (uint32_t i = 0; i < num_bytes; ++i) {
        const int byte = static_cast<uint8_t>(bytes[i]);
        if (i > 0 && byte <= static_cast<uint8_t>(bytes[i - 1])) {
          return std::nullopt;  // listed ascending, once each
        }
        AddSymbol(byte + 1, &position);
      }
      bytes.remove_prefix(num_bytes);
    } else {
      if (bytes.size() < kBitmapBytes) return std::nullopt;
      // Byte b is symbol b + 1: the bitmap's words, shifted up by one bit.
      uint64_t carry = 0;
      for (size_t word = 0; word < 4; ++word) {
        const uint64_t bits = DecodeFixed64(bytes.data() + 8 * word);
        position.symbols[word] |= (bits << 1) | carry;
        carry = bits >> 63;
      }
      position.symbols[4] |= carry;
      bytes.remove_prefix(kBitmapBytes);
    }
    position.Count();
    if (position.radix == 0 ||
        position.radix != num_bytes + (position.Has(kEndSymbol) ? 1 : 0)) {
      return std::nullopt;
    }
    coder.positions_.push_back(position);
  }
  if (!bytes.empty()) return std::nullopt;
  coder.SetMaxCode();
  return coder;
}

template <typename Accumulator>
KeyCoder::Walked KeyCoder::WalkWith(absl::string_view suffix) const {
  Accumulator code;
  for (size_t j = 0; j < positions_.size(); ++j) {
    const CodedPosition& position = positions_[j];
    const int symbol = SymbolAt(suffix, j);
    const uint64_t below = position.CountBelow(symbol);
    code.MulAdd(position.radix, below);
    if (position.Has(symbol)) continue;
    // No table key has this symbol here: the string sorts after every key
    // whose digit here is below - 1 and before every key whose digit is
    // below. With every later digit 0, code is the first code of digit below.
    for (size_t k = j + 1; k < positions_.size(); ++k) {
      code.MulAdd(positions_[k].radix, 0);
    }
    if (below == 0) return {code.Code(), Walk::kBelowSubtree};
    code.Decrement();  // the last code of digit below - 1
    return {code.Code(), Walk::kAboveSubtree};
  }
  return {code.Code(),
          suffix.size() < positions_.size() ? Walk::kExact : Walk::kTruncated};
}

KeyCoder::Walked KeyCoder::WalkSuffix(absl::string_view suffix) const {
  return narrow_ ? WalkWith<NarrowAccumulator>(suffix)
                 : WalkWith<WideAccumulator>(suffix);
}

KeyCode KeyCoder::Code(absl::string_view key) const {
  if (!absl::StartsWith(key, prefix_)) {
    return key < absl::string_view(prefix_) ? KeyCode() : max_code_;
  }
  return WalkSuffix(key.substr(prefix_.size())).code;
}

CodeBounds KeyCoder::Bounds(absl::string_view bound,
                            bool exclusive_high) const {
  CodeBounds bounds;
  if (!absl::StartsWith(bound, prefix_)) {
    // Every key starts with the prefix: the bound is below or above them all.
    if (bound < absl::string_view(prefix_)) {
      bounds.low = KeyCode();
    } else {
      bounds.high = max_code_;
    }
    return bounds;
  }
  const Walked walked = WalkSuffix(bound.substr(prefix_.size()));
  const KeyCode& code = walked.code;
  std::optional<KeyCode> before;
  if (!code.IsZero()) {
    before = code;
    before->Decrement();
  }
  switch (walked.kind) {
    case Walk::kExact:
      // Every key below the bound differs from it at a coded position.
      bounds.low = code;
      bounds.high = exclusive_high ? before : std::optional<KeyCode>(code);
      bounds.may_be_key = true;
      break;
    case Walk::kTruncated:
      bounds.low = code;
      bounds.high = code;
      bounds.may_be_key = true;
      break;
    case Walk::kBelowSubtree:
      bounds.low = code;
      bounds.high = before;
      break;
    case Walk::kAboveSubtree:
      if (code < max_code_) {
        bounds.low = code;
        bounds.low->Increment();
      }
      bounds.high = code;
      break;
  }
  return bounds;
}

}  // namespace grafite_internal
}  // namespace sstfilter
