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
