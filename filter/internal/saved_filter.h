// The envelope of a saved in-memory filter (MutableBloomFilter::Save,
// ScalableBloomFilter::Save, CountingBloomFilter::Save): a header that says
// what the bytes are and how many there are, the kind's own fields, and a
// CRC32C of everything before it. inmemory/mutable/README.md draws the
// envelope and inmemory/counting/README.md the counting filter's fields.
// Restore checks the size, magic, version, kind and total, then the CRC; a
// kind then validates its fields whether or not the CRC matched (a CRC can
// be forged).
//
// Internal to the filter families.

#ifndef SSTFILTER_FILTER_INTERNAL_SAVED_FILTER_H_
#define SSTFILTER_FILTER_INTERNAL_SAVED_FILTER_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace sstfilter {
namespace filter_internal {

// What a saved filter holds: the byte after the version.
enum class SavedKind : uint8_t {
  kMutableBloom = 1,
  kScalableBloom = 2,
  kCountingBloom = 3,
};

// The only version so far. A later layout gets a new version, and Restore
// reads every version it knows.
constexpr uint8_t kSavedFormatVersion = 1;
constexpr char kSavedMagic[] = "SFSV";    // the first four bytes
constexpr size_t kSavedHeaderBytes = 16;  // magic to total bytes
constexpr size_t kSavedCrcBytes = 4;      // the masked CRC32C, last
constexpr size_t kSavedTotalOffset = 8;   // where the total bytes sit
constexpr size_t kSavedMinBytes = kSavedHeaderBytes + kSavedCrcBytes;

// "MutableBloomFilter", "ScalableBloomFilter", "CountingBloomFilter".
const char* SavedClassName(SavedKind kind);

// DataLossError "saved <class of kind>: <what>".
absl::Status SavedDataLoss(SavedKind kind, absl::string_view what);

// Appends the header of a saved filter of kind, its total left at 0 for
// FinishSaved to fill in. REQUIRES: dst is empty.
void StartSaved(SavedKind kind, std::string* dst);

// Sets the total bytes and appends the CRC: the saved filter is complete. (On
// the bytes of a saved filter without their CRC, seals them again: for tests
// and fuzzers that reach the checks behind the CRC.)
// REQUIRES: dst holds at least kSavedHeaderBytes bytes.
void FinishSaved(std::string* dst);

// The fields of a saved filter of kind (the bytes between the header and the
// CRC), or a DataLossError naming the first check that failed.
absl::StatusOr<absl::string_view> OpenSaved(SavedKind kind,
                                            absl::string_view saved);

void PutSavedDouble(std::string* dst, double value);

class SavedFieldReader;

// OK when in has read every field; a DataLossError counting the bytes left
// otherwise.
absl::Status SavedFieldsEnd(SavedKind kind, const SavedFieldReader& in);

// Reads the fixed-width fields of a kind in order. A read past the end gives
// zeros and makes overran() true, so a parser may read a whole fixed record
// and check once; nothing is ever read outside the fields.
class SavedFieldReader {
 public:
  explicit SavedFieldReader(absl::string_view fields) : rest_(fields) {}

  uint8_t Byte();
  uint64_t Fixed64();
  double Double();
  // The next n bytes, or an empty view (and overran()) when fewer are left.
  absl::string_view Bytes(uint64_t n);
  // n bytes that must all be zero: false if any is not.
  bool Zeros(size_t n);

  size_t left() const { return rest_.size(); }
  bool overran() const { return overran_; }

 private:
  absl::string_view rest_;
  bool overran_ = false;
};

}  // namespace filter_internal
}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_INTERNAL_SAVED_FILTER_H_
