# Finds the libraries KernelArc builds on.  All come from Debian 12 packages
# (scripts/setup.sh installs them); a missing one stops the configure step
# with the package name to install.
find_package(PkgConfig REQUIRED)

function(ka_require_pkg var module debpkg)
  pkg_check_modules(${var} IMPORTED_TARGET ${module})
  if(NOT ${var}_FOUND)
    message(FATAL_ERROR "KernelArc needs ${module}: apt-get install ${debpkg} (or run scripts/setup.sh)")
  endif()
endfunction()

ka_require_pkg(PCRE2   libpcre2-8     libpcre2-dev)
ka_require_pkg(SQLITE3 sqlite3        libsqlite3-dev)
ka_require_pkg(JANSSON jansson        libjansson-dev)
ka_require_pkg(YAML    yaml-0.1       libyaml-dev)
ka_require_pkg(CURL    libcurl        libcurl4-openssl-dev)
ka_require_pkg(CMOCKA  cmocka         libcmocka-dev)

# libclang 19: Debian installs it under /usr/lib/llvm-19.
set(KA_LLVM_ROOT "/usr/lib/llvm-19" CACHE PATH "LLVM 19 installation prefix")
find_path(LIBCLANG_INCLUDE_DIR clang-c/Index.h HINTS ${KA_LLVM_ROOT}/include NO_DEFAULT_PATH)
find_library(LIBCLANG_LIBRARY NAMES clang libclang HINTS ${KA_LLVM_ROOT}/lib NO_DEFAULT_PATH)
if(NOT LIBCLANG_INCLUDE_DIR OR NOT LIBCLANG_LIBRARY)
  message(FATAL_ERROR "KernelArc needs libclang 19: apt-get install libclang-19-dev (or run scripts/setup.sh)")
endif()
# The resource dir holds clang's CUDA wrapper headers (__clang_cuda_builtin_vars.h).
set(KA_CLANG_RESOURCE_DIR "${KA_LLVM_ROOT}/lib/clang/19" CACHE PATH "clang resource directory")

find_program(KA_NVCC nvcc HINTS /usr/local/cuda/bin)
if(KA_NVCC)
  message(STATUS "KernelArc: nvcc found at ${KA_NVCC}")
else()
  message(STATUS "KernelArc: NOTE: no nvcc (CUDA toolkit missing at /usr/local/cuda): compile gate and GPU tests will skip")
endif()
