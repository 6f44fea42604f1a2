# Installs the library's headers and libraries, sstfilterConfig.cmake with exported
# targets and a version file, sstfilter.pc, and sst_probe.
include(CMakePackageConfigHelpers)

get_property(_installed GLOBAL PROPERTY SSTFILTER_INSTALLED_LIBRARIES)
install(TARGETS ${_installed}
  EXPORT sstfilterTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/sstfilter)
if(TARGET sst_probe)
  install(TARGETS sst_probe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

set(_config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/sstfilter)
install(EXPORT sstfilterTargets NAMESPACE sstfilter:: DESTINATION ${_config_dir})

# Which optional parts made it into the installation.
foreach(_part ROCKSDB:rocksdb_adapter LEVELDB:leveldb_adapter REDIS:redis_client)
  string(REPLACE ":" ";" _part "${_part}")
  list(GET _part 0 _option)
  list(GET _part 1 _library)
  if(sstfilter_${_library} IN_LIST _installed)
    set(SSTFILTER_INSTALLED_WITH_${_option} TRUE)
  else()
    set(SSTFILTER_INSTALLED_WITH_${_option} FALSE)
  endif()
endforeach()
configure_package_config_file(cmake/sstfilterConfig.cmake.in
  "${PROJECT_BINARY_DIR}/sstfilterConfig.cmake" INSTALL_DESTINATION ${_config_dir})
write_basic_package_version_file("${PROJECT_BINARY_DIR}/sstfilterConfigVersion.cmake"
  COMPATIBILITY SameMajorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/sstfilterConfig.cmake"
  "${PROJECT_BINARY_DIR}/sstfilterConfigVersion.cmake"
  cmake/sstfilter_dependencies.cmake
  DESTINATION ${_config_dir})

# sstfilter.pc: every installed library, dependents before their dependencies, the
# libraries that register filter formats from static initializers kept whole
# (_sstfilter_always_link).
set(_pc_order "")
set(_pc_requires "")
set(_pc_extra_libs "")
function(_sstfilter_pc_visit key)
  get_property(seen GLOBAL PROPERTY "SSTFILTER_PC_SEEN_${key}" SET)
  if(seen)
    return()
  endif()
  set_property(GLOBAL PROPERTY "SSTFILTER_PC_SEEN_${key}" TRUE)
  _sstfilter_load("${key}")
  foreach(dep IN LISTS arg_DEPS)
    if(dep MATCHES "^sstfilter::")
      _sstfilter_pc_visit("${dep}")
    elseif(dep MATCHES "^absl::(.*)$")
      set_property(GLOBAL APPEND PROPERTY SSTFILTER_PC_REQUIRES "absl_${CMAKE_MATCH_1}")
    elseif(dep STREQUAL "xxHash::xxhash")
      set_property(GLOBAL APPEND PROPERTY SSTFILTER_PC_REQUIRES libxxhash)
    elseif(dep STREQUAL "Snappy::snappy")
      set_property(GLOBAL APPEND PROPERTY SSTFILTER_PC_REQUIRES snappy)
    elseif(dep STREQUAL "RocksDB::rocksdb-shared")
      set_property(GLOBAL APPEND PROPERTY SSTFILTER_PC_REQUIRES rocksdb)
    elseif(dep STREQUAL "hiredis::hiredis")
      set_property(GLOBAL APPEND PROPERTY SSTFILTER_PC_REQUIRES hiredis)
    elseif(dep STREQUAL "leveldb::leveldb")
      set_property(GLOBAL APPEND PROPERTY SSTFILTER_PC_LIBS_AFTER -lleveldb)
    else()
      message(FATAL_ERROR "sstfilter.pc: no pkg-config name for ${dep}")
    endif()
  endforeach()
  _sstfilter_target_name("${key}" target)
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "INTERFACE_LIBRARY")
    if(arg_ALWAYSLINK)
      set_property(GLOBAL APPEND PROPERTY SSTFILTER_PC_KEPT "-l${target}")
    else()
      get_property(order GLOBAL PROPERTY SSTFILTER_PC_ORDER)
      set_property(GLOBAL PROPERTY SSTFILTER_PC_ORDER "-l${target};${order}")
    endif()
  endif()
endfunction()
foreach(_target IN LISTS _installed)
  string(REGEX REPLACE "^sstfilter_" "sstfilter::" _key "${_target}")
  _sstfilter_pc_visit("${_key}")
endforeach()
get_property(_pc_order GLOBAL PROPERTY SSTFILTER_PC_ORDER)
# The kept libraries in one group ahead of the rest: pkg-config drops a repeated flag, so
# a --whole-archive (or --no-as-needed) per library would lose all but one of them.
get_property(_pc_kept GLOBAL PROPERTY SSTFILTER_PC_KEPT)
list(JOIN _pc_kept " " _pc_kept)
if(BUILD_SHARED_LIBS)
  set(_pc_kept "-Wl,--push-state,--no-as-needed ${_pc_kept} -Wl,--pop-state")
else()
  set(_pc_kept "-Wl,--whole-archive ${_pc_kept} -Wl,--no-whole-archive")
endif()
get_property(_pc_requires GLOBAL PROPERTY SSTFILTER_PC_REQUIRES)
get_property(_pc_after GLOBAL PROPERTY SSTFILTER_PC_LIBS_AFTER)
list(REMOVE_DUPLICATES _pc_requires)
list(SORT _pc_requires)
list(REMOVE_DUPLICATES _pc_after)
list(JOIN _pc_requires " " SSTFILTER_PC_REQUIRES)
list(JOIN _pc_order " " SSTFILTER_PC_LIBS)
set(SSTFILTER_PC_LIBS "${_pc_kept} ${SSTFILTER_PC_LIBS}")
list(JOIN _pc_after " " _pc_after)
string(APPEND SSTFILTER_PC_LIBS " ${_pc_after} -pthread")
# Relocatable: the prefix is found from the .pc file's own folder, so that an
# installation moved (or made with `cmake --install --prefix`) still resolves.
file(RELATIVE_PATH SSTFILTER_PC_PREFIX_FROM_PCDIR
  "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
string(REGEX REPLACE "/$" "" SSTFILTER_PC_PREFIX_FROM_PCDIR "${SSTFILTER_PC_PREFIX_FROM_PCDIR}")
configure_file(cmake/sstfilter.pc.in "${PROJECT_BINARY_DIR}/sstfilter.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/sstfilter.pc"
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
