# ascendc.cmake for gocann: what CANN projects include as
# ${ASCENDC_CMAKE_DIR}/ascendc.cmake, building kernel sources written
# against gocann/kernel.h, or against the part of Ascend C that
# gocann/ascendc/kernel_operator.h offers, with the host compiler into
# binaries the simulated NPU runs.
#
#   ascendc_library(name SHARED sources...)   lib<name>.so
#   ascendc_fatbin_library(name sources...)   fatbin/<name>/<name>.o in the
#                                             build tree, and installed to
#                                             ${CMAKE_INSTALL_PREFIX}/fatbin/<name>/
#   ascendc_include_directories(name ...), ascendc_compile_definitions(name ...),
#   ascendc_compile_options(name ...)         as target_include_directories etc.
#
# Both are host shared objects, loaded with aclrtBinaryLoadFromFile. Kernels
# are built with -g, so the runtime reads their parameters from the debug
# information. ascendc_library(name STATIC ...) is refused: a static kernel
# library serves launches written with <<<>>> in host code, which needs the
# Ascend C compiler.
include_guard(GLOBAL)

find_path(GOCANN_KERNEL_INCLUDE_DIR gocann/kernel.h
    HINTS "${CMAKE_CURRENT_LIST_DIR}/../../../include" "${ASCEND_CANN_PACKAGE_PATH}/include" "$ENV{ASCEND_HOME_PATH}/include"
    NO_DEFAULT_PATH)
if(NOT GOCANN_KERNEL_INCLUDE_DIR)
    message(FATAL_ERROR "gocann ascendc.cmake: gocann/kernel.h not found beside ${CMAKE_CURRENT_LIST_DIR} "
        "or under ASCEND_HOME_PATH; source the set_env.sh of a gocann install tree")
endif()
if(NOT SOC_VERSION)
    set(SOC_VERSION "$ENV{SOC_VERSION}")
endif()
message(STATUS "gocann ascendc.cmake: kernels for the simulated NPU (SOC_VERSION ${SOC_VERSION}), headers in ${GOCANN_KERNEL_INCLUDE_DIR}")

# _gocann_kernel_target gives a kernel binary target what every kernel needs.
function(_gocann_kernel_target target)
    # Kernels include "kernel_operator.h" as Ascend C sources do.
    target_include_directories(${target} PRIVATE "${GOCANN_KERNEL_INCLUDE_DIR}" "${GOCANN_KERNEL_INCLUDE_DIR}/gocann/ascendc")
    target_compile_options(${target} PRIVATE -g)
    set_target_properties(${target} PROPERTIES
        POSITION_INDEPENDENT_CODE ON
        C_VISIBILITY_PRESET default
        CXX_VISIBILITY_PRESET default)
endfunction()

function(ascendc_library target kind)
    if(NOT ARGN)
        message(FATAL_ERROR "ascendc_library(${target} ${kind}): no kernel sources given")
    endif()
    if(kind STREQUAL "SHARED")
        add_library(${target} SHARED ${ARGN})
        _gocann_kernel_target(${target})
    elseif(kind STREQUAL "STATIC")
        message(FATAL_ERROR "ascendc_library(${target} STATIC ...): gocann does not build static kernel libraries yet. "
            "They serve kernel launches written with <<<>>> in host code, which needs the Ascend C compiler. "
            "Build the kernels with ascendc_library(${target} SHARED ...) or ascendc_fatbin_library(${target} ...) "
            "and load the binary with aclrtBinaryLoadFromFile.")
    else()
        message(FATAL_ERROR "ascendc_library(${target} ${kind} ...): the library kind ${kind} is invalid, expected SHARED (or STATIC)")
    endif()
endfunction()

function(ascendc_fatbin_library target)
    if(NOT ARGN)
        message(FATAL_ERROR "ascendc_fatbin_library(${target}): no kernel sources given")
    endif()
    add_library(${target} MODULE ${ARGN})
    _gocann_kernel_target(${target})
    set_target_properties(${target} PROPERTIES
        PREFIX ""
        SUFFIX ".o"
        LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/fatbin/${target}")
    install(TARGETS ${target} LIBRARY DESTINATION fatbin/${target})
endfunction()

function(ascendc_include_directories target)
    target_include_directories(${target} ${ARGN})
endfunction()

function(ascendc_compile_definitions target)
    target_compile_definitions(${target} ${ARGN})
endfunction()

function(ascendc_compile_options target)
    target_compile_options(${target} ${ARGN})
endfunction()
