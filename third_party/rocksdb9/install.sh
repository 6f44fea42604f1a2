#!/usr/bin/env bash
# Builds RocksDB 9.7.4 once per machine and installs it under a machine-level prefix,
# for `bazel ... --config=rocksdb9`. Called by `./setup.sh --rocksdb9`.
#
# The source is RocksDB's complete tree as the npm package @nxtedition/rocksdb@12.2.12
# ships it (deps/rocksdb/rocksdb/, patched only in logging/env_logger.h). The package
# leaves out cmake/modules/, so the ReadVersion module beside this script is added.
# Built: the static library only, Release, position-independent (Bazel links PIE test
# binaries), with RTTI (sstfilter's classes derive from RocksDB's) and Snappy from
# Debian's libsnappy-dev (RocksDB's default compression, as Debian's 7.8.3 has it, so
# that both releases store the same tables), without gflags, liburing, tests or tools.
#
# Installed under $SSTFILTER_ROCKSDB9_PREFIX (default /opt/sstfilter/rocksdb-9.7.4):
#   include/rocksdb/...   the public headers
#   lib/librocksdb.a
#   internal/table/block_based/filter_policy_internal.h   the filter classes' declaration,
#                         for reference: sstfilter declares the same layout itself
#   STAMP                 version and package hash; written last, so a complete prefix
#                         is one with a matching STAMP, and then nothing is done.
set -euo pipefail

readonly version=9.7.4
readonly package=@nxtedition/rocksdb@12.2.12
# The registry's integrity hash of that package (npm view @nxtedition/rocksdb@12.2.12 dist.integrity).
readonly integrity=sha512-Y2FIp8O5F0F7MwFuAON9tAzhOIbPdZUj4O2sI/ddtxLlp9H9La/kaKGQRdEMl4oy3GFe5UmNZIQmI5dp9jWRqw==
readonly prefix=${SSTFILTER_ROCKSDB9_PREFIX:-/opt/sstfilter/rocksdb-$version}
# Names the build's options too, so that a prefix built another way is rebuilt.
readonly stamp="rocksdb $version with snappy from $package $integrity"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

say() { echo "setup.sh --rocksdb9: $*"; }

if [ -f "$prefix/STAMP" ] && [ "$(cat "$prefix/STAMP")" = "$stamp" ]; then
  say "RocksDB $version present in $prefix"
  exit 0
fi

for tool in npm node cmake make c++; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    say "needs $tool; run ./setup.sh --rocksdb9 as root so that it can install it" >&2
    exit 1
  fi
done

start=$(date +%s)
work=$(mktemp -d "${TMPDIR:-/tmp}/sstfilter-rocksdb9.XXXXXX")
trap 'rm -rf "$work"' EXIT

say "downloading $package from the npm registry"
(cd "$work" && npm pack --silent "$package" >/dev/null)
tarball=$(ls "$work"/*.tgz)
actual=$(node -e 'const c = require("crypto"), fs = require("fs");
  console.log("sha512-" + c.createHash("sha512").update(fs.readFileSync(process.argv[1])).digest("base64"))' "$tarball")
if [ "$actual" != "$integrity" ]; then
  say "$package has integrity $actual, expected $integrity; refusing to build it" >&2
  exit 1
fi
tar -xzf "$tarball" -C "$work"
source_dir="$work/package/deps/rocksdb/rocksdb"
grep -q "#define ROCKSDB_MAJOR 9" "$source_dir/include/rocksdb/version.h"
mkdir -p "$source_dir/cmake/modules"
cp "$here/cmake/ReadVersion.cmake" "$source_dir/cmake/modules/"

say "configuring (cmake)"
build_dir="$work/build"
cmake -S "$source_dir" -B "$build_dir" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
  -DUSE_RTTI=ON \
  -DPORTABLE=1 \
  -DFAIL_ON_WARNINGS=OFF \
  -DROCKSDB_BUILD_SHARED=OFF \
  -DWITH_GFLAGS=OFF -DWITH_LIBURING=OFF \
  -DWITH_SNAPPY=ON -DWITH_LZ4=OFF -DWITH_ZLIB=OFF -DWITH_ZSTD=OFF -DWITH_BZ2=OFF \
  -DWITH_TESTS=OFF -DWITH_TOOLS=OFF -DWITH_CORE_TOOLS=OFF -DWITH_TRACE_TOOLS=OFF \
  -DWITH_BENCHMARK_TOOLS=OFF -DWITH_ALL_TESTS=OFF \
  >"$work/cmake.log" 2>&1 || { cat "$work/cmake.log" >&2; exit 1; }

jobs=$(nproc)
say "building librocksdb.a with $jobs jobs (about 8 minutes on 2 cores)"
if ! cmake --build "$build_dir" --target rocksdb -- -j"$jobs" >"$work/build.log" 2>&1; then
  tail -50 "$work/build.log" >&2
  exit 1
fi

say "installing into $prefix"
sudo=""
if ! mkdir -p "$prefix" 2>/dev/null || [ ! -w "$prefix" ]; then
  sudo=sudo
  $sudo mkdir -p "$prefix"
fi
$sudo rm -rf "$prefix/include" "$prefix/lib" "$prefix/internal" "$prefix/STAMP"
$sudo mkdir -p "$prefix/lib" "$prefix/internal/table/block_based"
$sudo cp -R "$source_dir/include" "$prefix/include"
$sudo cp "$build_dir/librocksdb.a" "$prefix/lib/"
$sudo cp "$source_dir/table/block_based/filter_policy_internal.h" \
  "$prefix/internal/table/block_based/"
echo "$stamp" | $sudo tee "$prefix/STAMP" >/dev/null
say "RocksDB $version installed in $prefix in $(($(date +%s) - start)) s"
