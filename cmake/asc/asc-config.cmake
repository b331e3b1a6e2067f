# find_package(ASC) for gocann: the ASC language, Ascend C single-source
# programs (.asc files holding kernels and the host code launching them
# with <<<>>>), compiled by this install tree's bisheng driver with the
# host's C++ compiler into programs and libraries whose kernels run on the
# simulated NPU.
#
#   find_package(ASC REQUIRED)            before project() or enable_language
#   project(name LANGUAGES ASC [CXX])
#   add_executable(demo kernel.asc main.cpp)
#
# Settings, before find_package or with -D: CMAKE_ASC_ARCHITECTURES
# (dav-2201, dav-3510, ...: --npu-arch), CMAKE_ASC_RUN_MODE (npu, the
# default, sim or cpu: all run on the simulated NPU; cpu defines
# ASCENDC_CPU_DEBUG), CMAKE_ASC_STANDARD (17), CMAKE_ASC_FLAGS.
#
# It also defines ascendc_library(name SHARED|STATIC sources...),
# ascendc_fatbin_library(name sources...) and ascendc_compile_options,
# ascendc_compile_definitions, ascendc_include_directories for kernels
# written as .asc sources.
include_guard(GLOBAL)

# This file lives in <root>/lib64/cmake (and is linked from the kernel
# CMake directory); the tree's root is two levels up from the real file.
get_filename_component(_gocann_asc_file "${CMAKE_CURRENT_LIST_FILE}" REALPATH)
get_filename_component(GOCANN_ASC_ROOT "${_gocann_asc_file}/../../.." ABSOLUTE)
set(_gocann_asc_modules "${GOCANN_ASC_ROOT}/compiler/tikcpp/ascendc_kernel_cmake/asc_modules")
if(NOT EXISTS "${_gocann_asc_modules}/CMakeASCInformation.cmake")
    message(FATAL_ERROR "gocann asc-config.cmake: the ASC language modules are not in ${_gocann_asc_modules}; "
        "use the asc-config.cmake of a complete make install tree (source its set_env.sh)")
endif()
list(APPEND CMAKE_MODULE_PATH "${_gocann_asc_modules}")
include("${_gocann_asc_modules}/ascendc_functions.cmake")

# The libraries CANN's examples link by name next to their .asc sources
# (the tiling, platform and logging libraries of the toolkit): interface
# targets here, as bisheng links everything a program needs.
foreach(_gocann_lib tiling_api register platform ascendalog graph_base error_manager profapi ge_common_base
        unified_dlog mmpa c_sec ascend_dump ascendc_runtime acl_rt runtime)
    if(NOT TARGET ${_gocann_lib})
        add_library(${_gocann_lib} INTERFACE IMPORTED GLOBAL)
    endif()
endforeach()
set(ASC_FOUND TRUE)
