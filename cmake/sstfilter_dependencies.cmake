# Imported targets for the dependencies that Debian ships without a CMake package:
# xxHash::xxhash and hiredis::hiredis, from pkg-config. Included by the build and by the
# installed sstfilterConfig.cmake.
find_package(PkgConfig QUIET)

if(NOT TARGET xxHash::xxhash AND PKG_CONFIG_FOUND)
  pkg_check_modules(SSTFILTER_XXHASH QUIET IMPORTED_TARGET libxxhash)
  if(SSTFILTER_XXHASH_FOUND)
    add_library(xxHash::xxhash INTERFACE IMPORTED)
    target_link_libraries(xxHash::xxhash INTERFACE PkgConfig::SSTFILTER_XXHASH)
  endif()
endif()

if(NOT TARGET hiredis::hiredis AND PKG_CONFIG_FOUND)
  pkg_check_modules(SSTFILTER_HIREDIS QUIET IMPORTED_TARGET hiredis)
  if(SSTFILTER_HIREDIS_FOUND)
    add_library(hiredis::hiredis INTERFACE IMPORTED)
    target_link_libraries(hiredis::hiredis INTERFACE PkgConfig::SSTFILTER_HIREDIS)
  endif()
endif()
