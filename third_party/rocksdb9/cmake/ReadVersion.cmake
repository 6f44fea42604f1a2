# get_rocksdb_version(VAR): sets VAR to "MAJOR.MINOR.PATCH" read from RocksDB's
# include/rocksdb/version.h. RocksDB's CMakeLists.txt includes a module of this name
# from cmake/modules/, which the npm package that ships the source leaves out.
function(get_rocksdb_version version_var)
  file(READ "${CMAKE_CURRENT_SOURCE_DIR}/include/rocksdb/version.h" header)
  foreach(part MAJOR MINOR PATCH)
    string(REGEX MATCH "#define ROCKSDB_${part} ([0-9]+)" match "${header}")
    if(NOT match)
      message(FATAL_ERROR "ROCKSDB_${part} not found in include/rocksdb/version.h")
    endif()
    set(${part} "${CMAKE_MATCH_1}")
  endforeach()
  set(${version_var} "${MAJOR}.${MINOR}.${PATCH}" PARENT_SCOPE)
endfunction()
