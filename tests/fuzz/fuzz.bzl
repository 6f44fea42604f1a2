"""sstfilter_fuzz_test: one fuzz target, built two ways from the same sources.

With --config=fuzz (which sets --define=sstfilter_fuzz=libfuzzer) the target links
libFuzzer's main() and is run by hand or by .ci/run. Otherwise it links
//tests/fuzz:replay_main and is an ordinary cc_test that replays its checked-in corpus, so
`bazel test //...` runs every corpus input under gcc (and under --config=asan).

Every target is tagged "fuzz_target"; .ci/run finds the targets to fuzz with
`bazel query 'attr(tags, fuzz_target, //...)'`.
"""

load("//:copts.bzl", "SSTFILTER_TEST_COPTS")

def sstfilter_fuzz_test(name, srcs, deps = [], corpus = None, fuzz_in_ci = True, tags = [], size = "small", **kwargs):
    """A fuzz target that is also a corpus-replay test.

    Args:
      name: target name; by convention ends in "_fuzzer".
      srcs: sources; one of them defines LLVMFuzzerTestOneInput (see fuzz_checks.h).
      deps: libraries the sources use.
      corpus: directory of seed inputs, relative to this package; default "corpus/<name>".
        It must hold at least one file (the replay test fails on an empty corpus).
      fuzz_in_ci: True to tag the target "fuzz_target" (.ci/run fuzzes it and `bazel test`
        replays its corpus); False tags it "manual" instead, for targets that are meant
        to crash, such as planted_roundtrip_fuzzer.
      tags: extra tags.
      size: test size; corpus replay is quick.
      **kwargs: passed to cc_test (size, shard_count, ...).
    """
    corpus_dir = corpus if corpus else "corpus/" + name
    corpus_path = native.package_name() + "/" + corpus_dir
    native.cc_test(
        name = name,
        srcs = srcs,
        copts = SSTFILTER_TEST_COPTS,
        linkopts = select({
            "//tests/fuzz:libfuzzer": ["-fsanitize=fuzzer"],
            "//conditions:default": [],
        }),
        deps = deps + select({
            "//tests/fuzz:libfuzzer": [],
            "//conditions:default": ["//tests/fuzz:replay_main"],
        }),
        data = native.glob([corpus_dir + "/**"]),
        # libFuzzer's main fuzzes forever when given a directory; -runs=0 makes
        # `bazel test --config=fuzz` only execute the corpus, like the replay main.
        args = select({
            "//tests/fuzz:libfuzzer": ["-runs=0"],
            "//conditions:default": [],
        }) + [corpus_path],
        tags = tags + (["fuzz_target"] if fuzz_in_ci else ["manual"]),
        size = size,
        **kwargs
    )
