# The CMake build's rules: one call per Bazel target, with the same name, sources,
# headers and dependencies as the BUILD.bazel file beside it (.ci/build_drift checks
# that the two agree).
#
#   sstfilter_cc_library(NAME n [PUBLIC] [TESTONLY] [HOT_PATH] [OPTIMIZED] [ALWAYSLINK]
#                        SRCS ... HDRS ... DEPS ... DEFINES ...)
#   sstfilter_cc_binary(NAME n [TESTONLY] [HOT_PATH] [OPTIMIZED] SRCS ... DEPS ...)
#   sstfilter_cc_test(NAME n [HOT_PATH] [OPTIMIZED] [MANUAL] [SIZE s] [SHARD_COUNT n]
#                     [CXX_STANDARD v] SRCS ... DEPS ... DATA ... ARGS ... DEFINES ...
#                     LABELS ...)
# SIZE is Bazel's test size (default medium), SHARD_COUNT its shard_count: ctest runs the
# shards as one process, so its timeout is the size's times the shards.
#   sstfilter_sh_test(NAME n SRCS script DATA ... ARGS ... [SIZE s] LABELS ...)
#   sstfilter_fuzz_test(NAME n [MANUAL] SRCS ... DEPS ... [CORPUS dir] [SIZE s])
#
# A library is target sstfilter_<NAME>, exported and aliased as sstfilter::<NAME>; DEPS
# name libraries that way (sstfilter::bloom, absl::strings). Executables are <NAME>.
#
# The calls only record a rule. sstfilter_define_targets(), called once after every
# directory has been read, creates the targets: a rule whose dependency is missing (an
# optional package not found or switched off, or another rule left out for that reason)
# is left out, with its dependents, and the reason is printed.

set(_SSTFILTER_FLAGS PUBLIC TESTONLY HOT_PATH OPTIMIZED ALWAYSLINK MANUAL)
set(_SSTFILTER_VALUES NAME SIZE CXX_STANDARD CORPUS SHARD_COUNT)
set(_SSTFILTER_LISTS SRCS HDRS DEPS DATA ARGS DEFINES LABELS)

# Bazel's test sizes, as timeouts in seconds.
set(_SSTFILTER_TIMEOUT_small 60)
set(_SSTFILTER_TIMEOUT_medium 300)
set(_SSTFILTER_TIMEOUT_large 900)
set(_SSTFILTER_TIMEOUT_enormous 3600)

# The warnings every target of ours compiles with (copts.bzl's SSTFILTER_COPTS).
set(SSTFILTER_COPTS -Wall -Wextra -Wshadow)
if(SSTFILTER_WERROR)
  list(APPEND SSTFILTER_COPTS -Werror)
endif()

# The tree that tests find their data and helper programs in, laid out as Bazel's
# runfiles: $TEST_SRCDIR/$TEST_WORKSPACE/<package>/<file>.
set(SSTFILTER_RUNFILES_DIR "${PROJECT_BINARY_DIR}/runfiles")
set(SSTFILTER_WORKSPACE_NAME sstfilter)

function(_sstfilter_record kind)
  cmake_parse_arguments(PARSE_ARGV 1 arg "${_SSTFILTER_FLAGS}" "${_SSTFILTER_VALUES}"
                        "${_SSTFILTER_LISTS}")
  if(NOT arg_NAME)
    message(FATAL_ERROR "${kind} without NAME in ${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${kind}(${arg_NAME}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(kind STREQUAL "cc_library")
    set(key "sstfilter::${arg_NAME}")
  else()
    set(key "${arg_NAME}")
  endif()
  get_property(known GLOBAL PROPERTY SSTFILTER_RULES)
  if(key IN_LIST known)
    message(FATAL_ERROR "${key} is declared twice")
  endif()
  file(RELATIVE_PATH package "${PROJECT_SOURCE_DIR}" "${CMAKE_CURRENT_SOURCE_DIR}")
  set_property(GLOBAL APPEND PROPERTY SSTFILTER_RULES "${key}")
  set_property(GLOBAL PROPERTY "SSTFILTER_RULE_KIND_${key}" "${kind}")
  set_property(GLOBAL PROPERTY "SSTFILTER_RULE_PACKAGE_${key}" "${package}")
  set_property(GLOBAL PROPERTY "SSTFILTER_RULE_ARGS_${key}" "${ARGV}")
endfunction()

function(sstfilter_cc_library)
  _sstfilter_record(cc_library ${ARGN})
endfunction()
function(sstfilter_cc_binary)
  _sstfilter_record(cc_binary ${ARGN})
endfunction()
function(sstfilter_cc_test)
  _sstfilter_record(cc_test ${ARGN})
endfunction()
function(sstfilter_sh_test)
  _sstfilter_record(sh_test ${ARGN})
endfunction()
function(sstfilter_fuzz_test)
  _sstfilter_record(fuzz_test ${ARGN})
endfunction()

# Reads rule `key`'s arguments into arg_* in the caller's scope, and its kind and
# package into `kind` and `package`.
macro(_sstfilter_load key)
  get_property(kind GLOBAL PROPERTY "SSTFILTER_RULE_KIND_${key}")
  get_property(package GLOBAL PROPERTY "SSTFILTER_RULE_PACKAGE_${key}")
  get_property(_sstfilter_args GLOBAL PROPERTY "SSTFILTER_RULE_ARGS_${key}")
  cmake_parse_arguments(arg "${_SSTFILTER_FLAGS}" "${_SSTFILTER_VALUES}"
                        "${_SSTFILTER_LISTS}" ${_sstfilter_args})
endmacro()

function(_sstfilter_is_test_rule key out)
  _sstfilter_load("${key}")
  if(kind MATCHES "_test$" OR arg_TESTONLY)
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

# Sets SSTFILTER_MISSING_<key> to "" when rule `key` can be built, else to the first
# missing dependency on its path.
function(_sstfilter_resolve key)
  get_property(done GLOBAL PROPERTY "SSTFILTER_RESOLVED_${key}" SET)
  if(done)
    return()
  endif()
  set_property(GLOBAL PROPERTY "SSTFILTER_RESOLVED_${key}" "")
  set(missing "")
  _sstfilter_is_test_rule("${key}" is_test)
  if(is_test AND NOT SSTFILTER_BUILD_TESTS)
    set(missing "SSTFILTER_BUILD_TESTS=OFF")
  endif()
  _sstfilter_load("${key}")
  # A product folder keeps its benchmark in a bench/ of its own.
  if(package MATCHES "(^|/)bench(/|$)" AND NOT SSTFILTER_BUILD_BENCHMARKS)
    set(missing "SSTFILTER_BUILD_BENCHMARKS=OFF")
  endif()
  if(kind STREQUAL "fuzz_test")
    list(APPEND arg_DEPS sstfilter::replay_main)
  endif()
  # A program among the data (a tool a test runs) is needed like a library.
  get_property(rules GLOBAL PROPERTY SSTFILTER_RULES)
  foreach(path IN LISTS arg_DATA)
    get_filename_component(name "${path}" NAME)
    if(name IN_LIST rules)
      get_property(program_package GLOBAL PROPERTY "SSTFILTER_RULE_PACKAGE_${name}")
      if("${program_package}/${name}" STREQUAL "${path}")
        list(APPEND arg_DEPS "${name}")
      endif()
    endif()
  endforeach()
  foreach(dep IN LISTS arg_DEPS)
    if(NOT missing STREQUAL "")
      break()
    endif()
    get_property(rules GLOBAL PROPERTY SSTFILTER_RULES)
    if(dep IN_LIST rules)
      _sstfilter_resolve("${dep}")
      get_property(dep_missing GLOBAL PROPERTY "SSTFILTER_RESOLVED_${dep}")
      if(NOT dep_missing STREQUAL "")
        set(missing "${dep_missing}")
      endif()
    elseif(dep MATCHES "^sstfilter::")
      message(FATAL_ERROR "${key} depends on ${dep}, which no rule declares")
    elseif(dep IN_LIST SSTFILTER_SWITCHED_OFF OR NOT TARGET "${dep}")
      set(missing "${dep}")
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY "SSTFILTER_RESOLVED_${key}" "${missing}")
endfunction()

function(_sstfilter_target_name key out)
  string(REGEX REPLACE "^sstfilter::" "sstfilter_" name "${key}")
  set(${out} "${name}" PARENT_SCOPE)
endfunction()

function(_sstfilter_compile_options target)
  target_compile_options(${target} PRIVATE ${SSTFILTER_COPTS})
  if(arg_HOT_PATH)
    # Hashing and probing unoptimised are about 10x slower, and the tests query
    # hundreds of millions of keys: optimised in every build type.
    target_compile_options(${target} PRIVATE
      "$<$<NOT:$<CONFIG:Release,RelWithDebInfo,MinSizeRel>>:-O2>")
  endif()
  if(arg_OPTIMIZED)
    target_compile_options(${target} PRIVATE -O2)
  endif()
  if(arg_DEFINES)
    target_compile_definitions(${target} PRIVATE ${arg_DEFINES})
  endif()
  if(arg_CXX_STANDARD)
    set_target_properties(${target} PROPERTIES CXX_STANDARD ${arg_CXX_STANDARD})
  endif()
endfunction()

function(_sstfilter_link target scope)
  target_link_libraries(${target} ${scope} ${arg_DEPS})
endfunction()

# An ALWAYSLINK library registers filter formats from static initializers that nothing
# references, so every program that links it, here or through the installed package,
# must keep it: a static archive is linked whole, a shared library is kept needed even
# where the linker drops unreferenced ones (--as-needed, Debian's default). As link
# options (each one option, deduplicated across the dependency graph) rather than link
# items: an archive named twice with --whole-archive would define its symbols twice.
# Named by its alias (sstfilter::<name>), which is also the installed package's name for
# it, so the same expressions hold in this build and in a consumer's.
function(_sstfilter_always_link target key)
  set(type "$<TARGET_PROPERTY:${key},TYPE>")
  set(file "$<TARGET_FILE:${key}>")
  target_link_options(${target} INTERFACE
    "$<$<STREQUAL:${type},STATIC_LIBRARY>:SHELL:-Wl,--whole-archive ${file} -Wl,--no-whole-archive>"
    "$<$<STREQUAL:${type},SHARED_LIBRARY>:SHELL:-Wl,--push-state,--no-as-needed ${file} -Wl,--pop-state>")
endfunction()

function(_sstfilter_absolute package files out)
  set(result "")
  foreach(file IN LISTS files)
    list(APPEND result "${PROJECT_SOURCE_DIR}/${package}/${file}")
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

function(_sstfilter_define_library key)
  _sstfilter_load("${key}")
  _sstfilter_target_name("${key}" target)
  _sstfilter_absolute("${package}" "${arg_SRCS}" srcs)
  _sstfilter_absolute("${package}" "${arg_HDRS}" hdrs)
  set(compiled "${arg_SRCS}")
  list(FILTER compiled INCLUDE REGEX "\\.(cc|cpp|c)$")
  if(compiled)
    add_library(${target} ${srcs})
    target_sources(${target} PUBLIC FILE_SET HEADERS BASE_DIRS "${PROJECT_SOURCE_DIR}"
                   FILES ${hdrs})
    _sstfilter_compile_options(${target})
    target_include_directories(${target} PUBLIC
      "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>"
      "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/sstfilter>")
    _sstfilter_link(${target} PUBLIC)
    if(arg_ALWAYSLINK)
      _sstfilter_always_link(${target} ${key})
    endif()
  else()
    add_library(${target} INTERFACE)
    target_sources(${target} INTERFACE FILE_SET HEADERS BASE_DIRS "${PROJECT_SOURCE_DIR}"
                   FILES ${hdrs} ${srcs})
    target_include_directories(${target} INTERFACE
      "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>"
      "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/sstfilter>")
    _sstfilter_link(${target} INTERFACE)
  endif()
  string(REGEX REPLACE "^sstfilter::" "" export_name "${key}")
  set_target_properties(${target} PROPERTIES EXPORT_NAME "${export_name}"
                        OUTPUT_NAME "${target}")
  add_library(${key} ALIAS ${target})
  # Installed: the library's own layers, not the benchmarks' and tests' helpers.
  if(NOT arg_TESTONLY AND NOT package MATCHES "(^(docs|tests)|(^|/)bench)(/|$)")
    set_property(GLOBAL APPEND PROPERTY SSTFILTER_INSTALLED_LIBRARIES ${target})
  endif()
endfunction()

# Places `path` (relative to the source root) in the runfiles tree: a link to the
# program a rule builds there, or to the source file or directory.
function(_sstfilter_runfile path test_target)
  set(link "${SSTFILTER_RUNFILES_DIR}/${SSTFILTER_WORKSPACE_NAME}/${path}")
  get_filename_component(name "${path}" NAME)
  get_property(rules GLOBAL PROPERTY SSTFILTER_RULES)
  if(name IN_LIST rules)
    get_property(package GLOBAL PROPERTY "SSTFILTER_RULE_PACKAGE_${name}")
    if("${package}/${name}" STREQUAL "${path}")
      add_dependencies(${test_target} ${name})
      return()  # programs are built into the runfiles tree (_sstfilter_define_program)
    endif()
  endif()
  if(NOT EXISTS "${PROJECT_SOURCE_DIR}/${path}")
    message(FATAL_ERROR "${test_target}: data ${path} does not exist")
  endif()
  get_filename_component(dir "${link}" DIRECTORY)
  file(MAKE_DIRECTORY "${dir}")
  if(NOT IS_SYMLINK "${link}")
    file(CREATE_LINK "${PROJECT_SOURCE_DIR}/${path}" "${link}" SYMBOLIC)
  endif()
endfunction()

function(_sstfilter_define_program key)
  _sstfilter_load("${key}")
  _sstfilter_absolute("${package}" "${arg_SRCS}" srcs)
  if(arg_MANUAL)
    add_executable(${key} EXCLUDE_FROM_ALL ${srcs})
  else()
    add_executable(${key} ${srcs})
  endif()
  _sstfilter_compile_options(${key})
  if(kind STREQUAL "fuzz_test")
    if(SSTFILTER_LIBFUZZER)
      target_link_options(${key} PRIVATE -fsanitize=fuzzer)
    else()
      list(APPEND arg_DEPS sstfilter::replay_main)
    endif()
  endif()
  _sstfilter_link(${key} PRIVATE)
  # Built where a Bazel test finds it: <runfiles>/<workspace>/<package>/<name>.
  set_target_properties(${key} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
    "${SSTFILTER_RUNFILES_DIR}/${SSTFILTER_WORKSPACE_NAME}/${package}")
endfunction()

function(_sstfilter_define_test key)
  _sstfilter_load("${key}")
  if(arg_MANUAL)
    return()
  endif()
  set(size medium)
  if(arg_SIZE)
    set(size "${arg_SIZE}")
  endif()
  if(kind STREQUAL "fuzz_test")
    set(corpus "corpus/${arg_NAME}")
    if(arg_CORPUS)
      set(corpus "${arg_CORPUS}")
    endif()
    set(arg_DATA "${package}/${corpus}")
    set(arg_ARGS "${package}/${corpus}")
    if(SSTFILTER_LIBFUZZER)
      list(PREPEND arg_ARGS -runs=0)
    endif()
    if(NOT arg_SIZE)
      set(size small)
    endif()
  endif()
  if(kind STREQUAL "sh_test")
    add_custom_target(${key} ALL)
    _sstfilter_absolute("${package}" "${arg_SRCS}" script)
    set(command bash "${script}")
  else()
    set(command "$<TARGET_FILE:${key}>")
  endif()
  foreach(path IN LISTS arg_DATA)
    _sstfilter_runfile("${path}" ${key})
  endforeach()
  add_test(NAME ${key}
    COMMAND sh "${PROJECT_SOURCE_DIR}/cmake/run_test.sh" ${command} ${arg_ARGS}
    WORKING_DIRECTORY "${SSTFILTER_RUNFILES_DIR}/${SSTFILTER_WORKSPACE_NAME}")
  set(timeout "${_SSTFILTER_TIMEOUT_${size}}")
  if(arg_SHARD_COUNT)
    math(EXPR timeout "${timeout} * ${arg_SHARD_COUNT}")
  endif()
  set_tests_properties(${key} PROPERTIES
    TIMEOUT "${timeout}"
    ENVIRONMENT "TEST_SRCDIR=${SSTFILTER_RUNFILES_DIR};TEST_WORKSPACE=${SSTFILTER_WORKSPACE_NAME}"
    LABELS "${size};${arg_LABELS}")
endfunction()

# Writes every recorded rule, one per line, to sstfilter_rules.tsv in the build tree
# for .ci/build_drift: kind, package, name, flags, sources, headers, dependencies, size,
# shard count, labels, arguments, data (tab-separated; lists space-separated).
function(_sstfilter_write_rules)
  get_property(rules GLOBAL PROPERTY SSTFILTER_RULES)
  set(text "")
  foreach(key IN LISTS rules)
    _sstfilter_load("${key}")
    set(flags "")
    foreach(flag IN LISTS _SSTFILTER_FLAGS)
      if(arg_${flag})
        list(APPEND flags ${flag})
      endif()
    endforeach()
    list(JOIN flags " " flags)
    list(JOIN arg_SRCS " " srcs)
    list(JOIN arg_HDRS " " hdrs)
    list(JOIN arg_DEPS " " deps)
    list(JOIN arg_LABELS " " labels)
    list(JOIN arg_ARGS " " args)
    list(JOIN arg_DATA " " data)
    string(APPEND text "${kind}\t${package}\t${arg_NAME}\t${flags}\t${srcs}\t${hdrs}\t${deps}"
      "\t${arg_SIZE}\t${arg_SHARD_COUNT}\t${labels}\t${args}\t${data}\n")
  endforeach()
  file(WRITE "${PROJECT_BINARY_DIR}/sstfilter_rules.tsv" "${text}")
endfunction()

# Creates every recorded rule that can be built, and prints what was left out and why.
function(sstfilter_define_targets)
  _sstfilter_write_rules()
  get_property(rules GLOBAL PROPERTY SSTFILTER_RULES)
  set(built 0)
  set(left_out "")
  foreach(key IN LISTS rules)
    _sstfilter_resolve("${key}")
    get_property(missing GLOBAL PROPERTY "SSTFILTER_RESOLVED_${key}")
    if(NOT missing STREQUAL "")
      list(APPEND left_out "${key}")
      set_property(GLOBAL APPEND PROPERTY "SSTFILTER_LEFT_OUT_FOR_${missing}" "${key}")
      set_property(GLOBAL APPEND PROPERTY SSTFILTER_MISSING_REASONS "${missing}")
      continue()
    endif()
    math(EXPR built "${built} + 1")
    get_property(kind GLOBAL PROPERTY "SSTFILTER_RULE_KIND_${key}")
    if(kind STREQUAL "cc_library")
      _sstfilter_define_library("${key}")
    elseif(NOT kind STREQUAL "sh_test")
      _sstfilter_define_program("${key}")
    endif()
  endforeach()
  # Tests last: their data may name programs defined after them.
  foreach(key IN LISTS rules)
    get_property(missing GLOBAL PROPERTY "SSTFILTER_RESOLVED_${key}")
    get_property(kind GLOBAL PROPERTY "SSTFILTER_RULE_KIND_${key}")
    if(missing STREQUAL "" AND kind MATCHES "_test$")
      _sstfilter_define_test("${key}")
    endif()
  endforeach()
  list(LENGTH left_out n_left_out)
  message(STATUS "sstfilter: ${built} targets, ${n_left_out} left out")
  get_property(reasons GLOBAL PROPERTY SSTFILTER_MISSING_REASONS)
  list(REMOVE_DUPLICATES reasons)
  foreach(reason IN LISTS reasons)
    get_property(keys GLOBAL PROPERTY "SSTFILTER_LEFT_OUT_FOR_${reason}")
    list(LENGTH keys n)
    if(reason MATCHES "=OFF$")  # asked for: the count is enough
      message(STATUS "  ${n} with ${reason}")
    else()
      list(JOIN keys " " names)
      message(STATUS "  ${n} without ${reason}: ${names}")
    endif()
  endforeach()
endfunction()
