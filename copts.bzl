"""Compiler flags for sstfilter's own code, in one place.

System headers (/usr/include) are compiled as system headers, so their warnings stay quiet
and -Werror applies to our code only.
"""

SSTFILTER_COPTS = [
    "-Wall",
    "-Wextra",
    "-Wshadow",
    "-Werror",
]

# Tests, benchmarks and fuzz targets: the same flags, kept apart so they can diverge.
SSTFILTER_TEST_COPTS = SSTFILTER_COPTS

# The filters' hashing and probing, and their statistical tests: optimised in fastbuild
# too (unoptimised they are about 10x slower, and the tests query hundreds of millions of
# keys). `-c dbg` still gets an unoptimised build.
SSTFILTER_HOT_PATH_COPTS = SSTFILTER_COPTS + select({
    str(Label("//:fastbuild")): ["-O2"],
    "//conditions:default": [],
})

# Tests that add and query millions of keys: optimised in every mode.
SSTFILTER_STATISTICAL_TEST_COPTS = SSTFILTER_TEST_COPTS + ["-O2"]
