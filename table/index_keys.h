// Index keys as the table layouts compare them. A LevelDB database's tables
// index internal keys (the user key, then an 8-byte sequence and type tag);
// tables written directly with leveldb::TableBuilder index user keys. A
// table reader is asked about user keys and must find the same index entry
// LevelDB's own Table::InternalGet would.

#ifndef SSTFILTER_TABLE_INDEX_KEYS_H_
#define SSTFILTER_TABLE_INDEX_KEYS_H_

#include <cstddef>

#include "absl/strings/string_view.h"

namespace sstfilter {

// How index keys relate to user keys, for the per-2 KB layout's index and a
// partition index that no properties describe.
enum class IndexKeys {
  kInternal,  // user key + 8-byte tag: the tables of a LevelDB database
  kUser,      // user keys: tables written directly by leveldb::TableBuilder
};

constexpr size_t kInternalKeyTagBytes = 8;  // sequence << 8 | type, fixed64

// Orders an internal index key against a user key by its user-key part:
// internal keys are ordered by user key first, so the first entry whose
// user-key part is >= user_key names the block that would hold it.
// REQUIRES: index_key holds at least the tag.
int CompareInternalToUser(absl::string_view index_key,
                          absl::string_view user_key);

// Whether key ends in a tag of one of LevelDB's value types (deletion 0,
// value 1).
bool IsInternalKey(absl::string_view key);

// Whether a separator of a partition index is at or after key: the partition
// whose separator is the first such holds key.
bool SeparatorAtOrAfter(absl::string_view separator, absl::string_view key,
                        IndexKeys index_keys);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_INDEX_KEYS_H_
