#include "tests/crash/synced_files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace sstfilter {
namespace test {
namespace {

// dir in one spelling: "a//b/" and "a/b" are the same directory.
std::string NormalDirectory(const std::string& dir) {
  std::filesystem::path p = std::filesystem::path(dir).lexically_normal();
  if (!p.has_filename()) p = p.parent_path();
  return p;
}

std::string DirectoryOf(const std::string& path) {
  return NormalDirectory(std::filesystem::path(path).parent_path());
}

}  // namespace

void SyncedFiles::LosePowerAt(StrikePoint point, int64_t n,
                              const std::string& watched_name) {
  {
    absl::MutexLock lock(&mu_);
    watched_name_ = watched_name;
    watched_renames_.clear();
  }
  lost_at_strike_point_.store(false);
  strike_point_.store(point);
  strikes_left_.store(n);
}

bool SyncedFiles::Watched(const std::string& path) const {
  return !watched_name_.empty() &&
         absl::StartsWith(std::filesystem::path(path).filename().string(),
                          watched_name_);
}

bool SyncedFiles::StrikesAt(StrikePoint point) {
  if (strike_point_.load() != point || strikes_left_.load() <= 0 ||
      strikes_left_.fetch_sub(1) != 1) {
    return false;
  }
  lost_at_strike_point_.store(true);
  LosePower();
  return true;
}

bool SyncedFiles::PowerForAppend(const std::string& path) {
  if (!powered()) return false;
  if (absl::EndsWith(path, ".ldb") || absl::EndsWith(path, ".sst")) {
    return !StrikesAt(StrikePoint::kTableAppend);
  }
  bool watched;
  {
    absl::MutexLock lock(&mu_);
    watched = Watched(path);
  }
  return !(watched && StrikesAt(StrikePoint::kSavedFileWrite));
}

bool SyncedFiles::PowerForSync(const std::string& path) {
  if (!powered()) return false;
  bool watched;
  {
    absl::MutexLock lock(&mu_);
    watched = Watched(path);
  }
  return !(watched && StrikesAt(StrikePoint::kSavedFileWrite));
}

bool SyncedFiles::PowerForRename(const std::string& to) {
  if (!powered()) return false;
  bool watched;
  {
    absl::MutexLock lock(&mu_);
    watched = Watched(to);
  }
  return !(watched && StrikesAt(StrikePoint::kSavedFileRename));
}

bool SyncedFiles::PowerForDirectorySync(const std::string& dir) {
  if (!powered()) return false;
  bool after_watched_rename;
  {
    absl::MutexLock lock(&mu_);
    auto it = watched_renames_.find(NormalDirectory(dir));
    after_watched_rename = it != watched_renames_.end() &&
                           it->second == std::this_thread::get_id();
  }
  return !(after_watched_rename &&
           StrikesAt(StrikePoint::kSavedFileDirectorySync));
}

void SyncedFiles::Opened(const std::string& path, bool existed, uint64_t size) {
  absl::MutexLock lock(&mu_);
  files_[path] = File{size, size, existed};
}

void SyncedFiles::Appended(const std::string& path, uint64_t bytes) {
  absl::MutexLock lock(&mu_);
  auto it = files_.find(path);
  if (it != files_.end()) it->second.size += bytes;
}

void SyncedFiles::Truncated(const std::string& path, uint64_t size) {
  absl::MutexLock lock(&mu_);
  auto it = files_.find(path);
  if (it == files_.end()) return;
  it->second.size = size;
  // The cut is not durable until a sync, but bytes past the new end are
  // gone either way.
  it->second.synced = std::min(it->second.synced, size);
}

uint64_t SyncedFiles::Size(const std::string& path) const {
  absl::MutexLock lock(&mu_);
  auto it = files_.find(path);
  return it == files_.end() ? 0 : it->second.size;
}

void SyncedFiles::Synced(const std::string& path, uint64_t length) {
  absl::MutexLock lock(&mu_);
  auto it = files_.find(path);
  if (it == files_.end()) return;
  it->second.synced = std::max(it->second.synced, length);
  it->second.name_durable = true;
}

void SyncedFiles::DirectorySynced(const std::string& dir) {
  const std::string normal = NormalDirectory(dir);
  absl::MutexLock lock(&mu_);
  watched_renames_.erase(normal);
  for (auto& [path, file] : files_) {
    if (DirectoryOf(path) == normal) file.name_durable = true;
  }
}

void SyncedFiles::Renamed(const std::string& from, const std::string& to) {
  absl::MutexLock lock(&mu_);
  if (Watched(to))
    watched_renames_[DirectoryOf(to)] = std::this_thread::get_id();
  auto it = files_.find(from);
  if (it == files_.end()) {
    // An untracked file takes the name: it is as durable as it was.
    files_.erase(to);
    return;
  }
  File file = it->second;
  files_.erase(it);
  // The rename itself is durable; the name it now has is durable exactly
  // when the file's old one was.
  files_[to] = file;
}

void SyncedFiles::Removed(const std::string& path) {
  absl::MutexLock lock(&mu_);
  files_.erase(path);
}

absl::StatusOr<SyncedFiles::Dropped> SyncedFiles::DropUnsynced() {
  absl::MutexLock lock(&mu_);
  Dropped dropped;
  for (const auto& [path, file] : files_) {
    std::error_code error;
    if (!file.name_durable) {
      if (std::filesystem::remove(path, error)) ++dropped.files_removed;
      if (error) {
        return absl::InternalError(
            absl::StrCat("remove ", path, ": ", error.message()));
      }
      continue;
    }
    const uint64_t size = std::filesystem::file_size(path, error);
    if (error) {
      return absl::InternalError(
          absl::StrCat("file_size ", path, ": ", error.message()));
    }
    if (size > file.synced) {
      std::filesystem::resize_file(path, file.synced, error);
      if (error) {
        return absl::InternalError(
            absl::StrCat("resize_file ", path, ": ", error.message()));
      }
      ++dropped.files_cut;
      dropped.bytes_cut += size - file.synced;
    }
  }
  files_.clear();
  watched_renames_.clear();
  strikes_left_.store(0);
  lost_.store(false);
  return dropped;
}

}  // namespace test
}  // namespace sstfilter
