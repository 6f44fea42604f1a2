// sstfilter's release version, for programs that depend on it: compare it at
// compile time to require a release, or print it with a program's own.
//
//   #if SSTFILTER_VERSION_MAJOR != 1
//   #error "this program is written against sstfilter 1.x"
//   #endif
//
// Versions follow semantic versioning, with the compatibility promise of
// README.md ("Compatibility"); CHANGELOG.md lists every release's changes.

#ifndef SSTFILTER_UTIL_VERSION_H_
#define SSTFILTER_UTIL_VERSION_H_

#define SSTFILTER_VERSION_MAJOR 1
#define SSTFILTER_VERSION_MINOR 6
#define SSTFILTER_VERSION_PATCH 0

namespace sstfilter {

// "MAJOR.MINOR.PATCH", the macros above as a string.
inline constexpr char kVersionString[] = "1.6.0";

}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_VERSION_H_
