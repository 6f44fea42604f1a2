// The checked-out source tree, for tests that check the tree itself (its
// layers, its public headers) rather than code linked into them.
//
// A test names one file of the tree in its `data`; Bazel's runfiles link to
// that file in the source tree, and the tree's root is found from it. Such
// tests read files Bazel does not track as their inputs, so they carry the
// tag "external" and are never taken from the cache.

#ifndef SSTFILTER_TESTS_LAYOUT_SOURCE_TREE_H_
#define SSTFILTER_TESTS_LAYOUT_SOURCE_TREE_H_

#include <filesystem>
#include <string>
#include <vector>

namespace sstfilter::layout {

// The root of the source tree: the folder holding WORKSPACE, found from the
// runfile `marker` (a path relative to the root, e.g. "docs/development.md").
// Fails the calling test (and returns an empty path) when it cannot be found.
std::filesystem::path SourceRoot(const std::string& marker);

// The whole file as a string ("" when it cannot be read).
std::string ReadFile(const std::filesystem::path& path);

// Files below root, as paths relative to it, sorted, whose names satisfy
// `wanted`. Skips .git, bazel-* output links and the folders listed in
// .bazelignore (separate workspaces and Bazel's offline stand-ins).
std::vector<std::string> SourceFiles(const std::filesystem::path& root,
                                     bool (*wanted)(const std::string& name));

}  // namespace sstfilter::layout

#endif  // SSTFILTER_TESTS_LAYOUT_SOURCE_TREE_H_
