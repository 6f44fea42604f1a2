// Memory for a table's filters: at a cache line, so a filter's cache-line
// blocks start on cache lines, either on the heap or in a FilterArena
// (filter/filter_arena.h) that the host shares between tables.

#ifndef SSTFILTER_TABLE_FILTER_BYTES_H_
#define SSTFILTER_TABLE_FILTER_BYTES_H_

#include <cstddef>
#include <memory>

#include "filter/filter_arena.h"

namespace sstfilter {

// Frees heap bytes; does nothing for bytes an arena owns.
using FilterBytes = std::unique_ptr<char, void (*)(void*)>;

// n bytes at a 64-byte boundary: in arena when given (which owns them and
// must outlive them), else on the heap. Null when the heap refuses.
FilterBytes AllocateFilterBytes(size_t n, FilterArena* arena);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_FILTER_BYTES_H_
