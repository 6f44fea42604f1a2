#include "filter/range/elias_fano.h"

#include <algorithm>

#include "util/coding.h"

namespace sstfilter {
namespace grafite_internal {
namespace {

uint64_t LowMask(int bits) {
  return bits == 0 ? 0 : (~uint64_t{0} >> (64 - bits));
}

void PutWords(const std::vector<uint64_t>& words, std::string* dst) {
  for (uint64_t word : words) PutFixed64(dst, word);
}

// Position (0..63) of the k-th (0-based) set bit of word.
// REQUIRES: k < popcount(word).
int NthSetBit(uint64_t word, int k) {
  for (int i = 0; i < k; ++i) word &= word - 1;
  return __builtin_ctzll(word);
}

}  // namespace

void AppendEliasFano(const std::vector<uint64_t>& values, uint64_t universe,
                     int low_bits, std::string* dst) {
  const GrafiteShape shape = ShapeOf(universe, values.size(), low_bits);
  std::vector<uint64_t> low(shape.low_words, 0);
  std::vector<uint64_t> high(shape.high_words, 0);
  const uint64_t mask = LowMask(low_bits);
  for (uint64_t i = 0; i < values.size(); ++i) {
    const uint64_t bit = i * low_bits;
    const uint64_t part = values[i] & mask;
    if (low_bits > 0) {
      low[bit / 64] |= part << (bit % 64);
      if (bit % 64 + low_bits > 64)
        low[bit / 64 + 1] |= part >> (64 - bit % 64);
    }
    const uint64_t position = (values[i] >> low_bits) + i;
    high[position / 64] |= uint64_t{1} << (position % 64);
  }
  PutWords(low, dst);
  PutWords(high, dst);
  // Sample s: the ones before zero number s * kSelectSample.
  uint64_t zeros = 0;
  uint64_t ones = 0;
  const uint64_t total_bits = values.size() + shape.num_buckets;
  for (uint64_t position = 0; position < total_bits; ++position) {
    if ((high[position / 64] >> (position % 64)) & 1) {
      ++ones;
      continue;
    }
    if (zeros % kSelectSample == 0) {
      PutFixed32(dst, static_cast<uint32_t>(ones));
    }
    ++zeros;
  }
}

uint64_t EliasFanoView::LowBitsOf(uint64_t index) const {
  const int bits = p_.low_bits;
  if (bits == 0) return 0;
  const uint64_t bit = index * bits;
  const uint64_t word = bit / 64;
  const int shift = static_cast<int>(bit % 64);
  uint64_t value = DecodeFixed64(p_.low + 8 * word) >> shift;
  if (shift + bits > 64) {
    value |= DecodeFixed64(p_.low + 8 * (word + 1)) << (64 - shift);
  }
  return value & LowMask(bits);
}

uint64_t EliasFanoView::HighWord(uint64_t word) const {
  return DecodeFixed64(p_.high + 8 * word);
}

uint64_t EliasFanoView::BucketEnd(uint64_t bucket) const {
  const uint64_t size = 64 * p_.high_words;
  const uint64_t sample = bucket / kSelectSample;
  // Zero number sample * kSelectSample sits after `ones` one bits.
  const uint64_t ones = DecodeFixed32(p_.samples + kSampleBytes * sample);
  uint64_t position = sample * kSelectSample + ones;
  uint64_t skip = bucket % kSelectSample;  // zeros still to pass
  if (position >= size) return size;
  uint64_t word = position / 64;
  uint64_t zeros = ~HighWord(word) & (~uint64_t{0} << (position % 64));
  while (true) {
    const int count = __builtin_popcountll(zeros);
    if (static_cast<uint64_t>(count) > skip) {
      return 64 * word + NthSetBit(zeros, static_cast<int>(skip)) + 1;
    }
    skip -= count;
    if (++word >= p_.high_words) return size;
    zeros = ~HighWord(word);
  }
}

bool EliasFanoView::AnyInRange(uint64_t lo, uint64_t hi) const {
  const uint64_t size = 64 * p_.high_words;
  const uint64_t bucket = lo >> p_.low_bits;
  if (bucket >= p_.num_buckets) return false;
  uint64_t position = bucket == 0 ? 0 : BucketEnd(bucket - 1);
  // Values before this position: one bits, i.e. position minus the bucket's
  // zeros before it.
  if (position < bucket) return true;  // inconsistent bits: may match
  uint64_t index = position - bucket;
  const uint64_t lo_low = lo & LowMask(p_.low_bits);
  // The values of lo's own bucket, in order, until one reaches lo.
  while (position < size && index < p_.num_values &&
         ((HighWord(position / 64) >> (position % 64)) & 1)) {
    if (LowBitsOf(index) >= lo_low) {
      return ((bucket << p_.low_bits) | LowBitsOf(index)) <= hi;
    }
    ++position;
    ++index;
  }
  // Past lo's bucket: the next value, wherever its one bit is, is the
  // successor of lo.
  if (index >= p_.num_values || position >= size) return false;
  uint64_t word = position / 64;
  uint64_t ones = HighWord(word) & (~uint64_t{0} << (position % 64));
  while (ones == 0) {
    if (++word >= p_.high_words) return false;
    ones = HighWord(word);
  }
  const uint64_t next = 64 * word + __builtin_ctzll(ones);
  // index values precede position; the next one has high part next - index.
  if (next < index) return true;  // inconsistent bits: may match
  const uint64_t value = ((next - index) << p_.low_bits) | LowBitsOf(index);
  return value <= hi;
}

}  // namespace grafite_internal
}  // namespace sstfilter
