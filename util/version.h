// sstfilter's release version, for programs that depend on it: compare it at
// compile time to require a release, or print it with a program's own.
//
//   #if SSTFILTER_VERSION_MAJOR != 2
//   #error "this program is written against sstfilter 2.x"
//   #endif
//
// Versions follow semantic versioning, with the compatibility promise of
// README.md ("Compatibility"); CHANGELOG.md lists every release's changes.

#ifndef SSTFILTER_UTIL_VERSION_H_
#define SSTFILTER_UTIL_VERSION_H_

#define SSTFILTER_VERSION_MAJOR 2
#define SSTFILTER_VERSION_MINOR 0
#define SSTFILTER_VERSION_PATCH 0

namespace sstfilter {

// "MAJOR.MINOR.PATCH", the macros above as a string; while a release is being
// made, followed by "-" and the pre-release's name (semantic versioning's
// pre-release, which may change anything its CHANGELOG entry lists).
inline constexpr char kVersionString[] = "2.0.0-alpha.1";

}  // namespace sstfilter

#endif  // SSTFILTER_UTIL_VERSION_H_
