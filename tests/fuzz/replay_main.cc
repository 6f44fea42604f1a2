// The main() of a fuzz target built without libFuzzer (the default gcc build):
// replays the corpus so that `bazel test //...` runs every checked-in input
// through the target's LLVMFuzzerTestOneInput under the ordinary toolchain and
// --config=asan.
//
// Usage: <target> PATH...         replays each file, and each file in each
// directory
//        <target> --write_corpus=DIR
//                                 writes the target's generated seeds into DIR
//                                 (see tests/fuzz/README.md)
// Exits non-zero when no input was found, so a misplaced corpus cannot pass
// silently. An input that violates a check aborts inside
// LLVMFuzzerTestOneInput, as under libFuzzer.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "tests/fuzz/fuzz_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;

constexpr char kWriteCorpusFlag[] = "--write_corpus=";

bool ReadFile(const fs::path& path, std::string* contents) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  contents->assign(std::istreambuf_iterator<char>(in),
                   std::istreambuf_iterator<char>());
  return !in.bad();
}

// Runs one input from a heap buffer of exactly its size, as libFuzzer does, so
// that a read one past the end is an AddressSanitizer report and not a read of
// a NUL.
void RunOne(const std::string& contents) {
  std::unique_ptr<uint8_t[]> copy(new uint8_t[contents.size()]);
  if (!contents.empty())
    std::memcpy(copy.get(), contents.data(), contents.size());
  LLVMFuzzerTestOneInput(copy.get(), contents.size());
}

int WriteCorpus(const fs::path& dir) {
  const sstfilter::fuzz::SeedGenerator generator =
      sstfilter::fuzz::RegisteredSeedGenerator();
  if (generator == nullptr) {
    std::fprintf(stderr, "this target registers no seed generator\n");
    return 1;
  }
  std::error_code error;
  fs::create_directories(dir, error);
  int written = 0;
  for (const sstfilter::fuzz::Seed& seed : generator()) {
    const fs::path path = dir / seed.name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(seed.bytes.data(),
              static_cast<std::streamsize>(seed.bytes.size()));
    if (!out) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      return 1;
    }
    ++written;
  }
  std::printf("wrote %d seeds to %s\n", written, dir.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind(kWriteCorpusFlag, 0) == 0) {
      return WriteCorpus(arg.substr(std::strlen(kWriteCorpusFlag)));
    }
    std::error_code error;
    if (fs::is_directory(arg, error)) {
      for (const fs::directory_entry& entry :
           fs::recursive_directory_iterator(arg, error)) {
        if (!entry.is_directory()) files.push_back(entry.path());
      }
    } else if (fs::exists(arg, error)) {
      files.push_back(arg);
    } else {
      std::fprintf(stderr, "no such file or directory: %s\n", arg.c_str());
      return 1;
    }
  }
  if (files.empty()) {
    std::fprintf(
        stderr,
        "no corpus inputs given; usage: %s PATH... | --write_corpus=DIR\n",
        argv[0]);
    return 1;
  }
  for (const fs::path& file : files) {
    std::string contents;
    if (!ReadFile(file, &contents)) {
      std::fprintf(stderr, "cannot read %s\n", file.c_str());
      return 1;
    }
    std::printf("replaying %s (%zu bytes)\n", file.c_str(), contents.size());
    std::fflush(stdout);
    RunOne(contents);
  }
  std::printf("replayed %zu inputs\n", files.size());
  return 0;
}
