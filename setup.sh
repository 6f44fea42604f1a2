#!/usr/bin/env bash
# Installs the Debian packages that sstfilter's build, tests and benchmark need.
# Idempotent: when everything is present it prints one line and changes nothing.
#
#   ./setup.sh             Debian 12's packages (RocksDB 7.8.3 among them)
#   ./setup.sh --rocksdb9  also builds RocksDB 9.7.4 once per machine for
#                          --config=rocksdb9 (third_party/rocksdb9/install.sh)
set -euo pipefail

rocksdb9=false
for arg in "$@"; do
  case "$arg" in
    --rocksdb9) rocksdb9=true ;;
    *) echo "setup.sh: unknown argument $arg (known: --rocksdb9)" >&2; exit 2 ;;
  esac
done

packages=(
  bazel-bootstrap      # Bazel 4.2.3, the build
  g++                  # the default toolchain
  pkg-config           # resolves Abseil's link flags for third_party/
  libabsl-dev          # Abseil
  libgtest-dev         # GoogleTest
  libgmock-dev         # GoogleMock
  libbenchmark-dev     # Google Benchmark
  libxxhash-dev        # XXH3-64, the native filter's hash
  libleveldb-dev       # LevelDB 1.23: peer in tests and benchmark
  librocksdb-dev       # RocksDB 7.8.3: peer in tests and benchmark
  libsnappy-dev        # Snappy: LevelDB compresses its tables' index and metaindex blocks
  nlohmann-json3-dev   # JSON output of the command-line tools
  clang                # fuzz targets (--config=fuzz)
  libclang-rt-14-dev   # libFuzzer and sanitizer runtimes for clang
  lld                  # the linker --config=fuzz uses
  gnuplot-nox          # filter_bench --plot
  libhiredis-dev       # hiredis: the Redis client of engines/redis
  redis-server         # Redis 7.0: the tests of engines/redis start their own servers
  ccache               # .ci/run's CMake build keeps its objects between runs
)
# The CMake build (cmake -S . -B build): CMake 3.25 and make. A machine may have them from
# elsewhere: a command on the PATH is enough.
for tool in cmake make; do
  command -v "$tool" >/dev/null 2>&1 || packages+=("$tool")
done
if $rocksdb9; then
  # npm fetches RocksDB 9.7.4's source from the npm registry (cmake configures it, make
  # builds it). A machine may have npm from elsewhere (with a nodejs that conflicts with
  # Debian's npm package): a command on the PATH is enough.
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi

# Runs the RocksDB 9.7.4 step when asked; it skips itself on a machine that has the build.
finish() {
  if $rocksdb9; then
    "$(dirname "${BASH_SOURCE[0]}")/third_party/rocksdb9/install.sh"
  fi
}

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup.sh: all ${#packages[@]} packages present"
  finish
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
  else
    echo "setup.sh: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get update -q >"$log" 2>&1; then
  echo "setup.sh: apt-get update failed; its output:" >&2
  cat "$log" >&2
  exit 1
fi
if ! $sudo apt-get install -y -q "${missing[@]}" >"$log" 2>&1; then
  echo "setup.sh: apt-get install failed for: ${missing[*]}; its output:" >&2
  cat "$log" >&2
  exit 1
fi
echo "setup.sh: installed ${#missing[@]} package(s): ${missing[*]}"
finish
