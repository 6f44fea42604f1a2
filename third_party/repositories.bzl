"""Declares every external repository sstfilter uses, backed by Debian packages (and,
for --config=rocksdb9, a RocksDB 9.7.4 built once per machine by ./setup.sh --rocksdb9).

Call sstfilter_repositories() from WORKSPACE after the Bazel stand-ins (see WORKSPACE).
"""

load("//third_party:rocksdb_repository.bzl", "rocksdb_repository")
load("//third_party:system_repository.bzl", "system_repository")

def sstfilter_repositories():
    system_repository(
        name = "com_google_absl",
        debian_package = "libabsl-dev",
        required_headers = ["absl/status/status.h"],
        libraries = {
            "absl/base:core_headers": "pkg-config:absl_core_headers",
            "absl/base:base": "pkg-config:absl_base",
            "absl/container:inlined_vector": "pkg-config:absl_inlined_vector",
            "absl/flags:flag": "pkg-config:absl_flags",
            "absl/flags:parse": "pkg-config:absl_flags_parse",
            "absl/flags:usage": "pkg-config:absl_flags_usage",
            "absl/flags:reflection": "pkg-config:absl_flags_reflection",
            "absl/random:random": "pkg-config:absl_random_random",
            "absl/status:status": "pkg-config:absl_status",
            "absl/status:statusor": "pkg-config:absl_statusor",
            "absl/strings:strings": "pkg-config:absl_strings",
            "absl/strings:str_format": "pkg-config:absl_str_format",
            "absl/synchronization:synchronization": "pkg-config:absl_synchronization",
            "absl/time:time": "pkg-config:absl_time",
            "absl/types:span": "pkg-config:absl_span",
            "absl/types:optional": "pkg-config:absl_optional",
        },
    )
    system_repository(
        name = "com_google_googletest",
        debian_package = "libgtest-dev and libgmock-dev",
        required_headers = ["gtest/gtest.h", "gmock/gmock.h"],
        libraries = {
            ":gtest": "-lgtest -pthread",
            ":gtest_main": "-lgtest_main -lgtest -pthread",
            ":gmock": "-lgmock -lgtest -pthread",
            ":gmock_main": "-lgmock_main -lgmock -lgtest -pthread",
        },
    )
    system_repository(
        name = "com_github_google_benchmark",
        debian_package = "libbenchmark-dev",
        required_headers = ["benchmark/benchmark.h"],
        libraries = {
            ":benchmark": "-lbenchmark -pthread",
            ":benchmark_main": "-lbenchmark_main -lbenchmark -pthread",
        },
    )
    system_repository(
        name = "xxhash",
        debian_package = "libxxhash-dev",
        required_headers = ["xxhash.h"],
        libraries = {":xxhash": "-lxxhash"},
    )
    system_repository(
        name = "com_github_nlohmann_json",
        debian_package = "nlohmann-json3-dev",
        required_headers = ["nlohmann/json.hpp"],
        libraries = {":json": ""},  # header-only
    )
    system_repository(
        name = "com_github_google_snappy",
        debian_package = "libsnappy-dev",
        required_headers = ["snappy.h"],
        libraries = {":snappy": "-lsnappy"},
    )
    system_repository(
        name = "com_github_google_leveldb",
        debian_package = "libleveldb-dev",
        required_headers = ["leveldb/filter_policy.h"],
        libraries = {":leveldb": "-lleveldb -pthread"},
    )
    # Debian's 7.8.3, or 9.7.4 under --config=rocksdb9 (rocksdb_repository.bzl).
    rocksdb_repository(name = "com_github_facebook_rocksdb")
    system_repository(
        name = "com_github_redis_hiredis",
        debian_package = "libhiredis-dev",
        required_headers = ["hiredis/hiredis.h"],
        libraries = {":hiredis": "-lhiredis"},
    )
