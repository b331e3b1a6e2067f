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
#   ascendc_library(name STATIC sources...)   lib<name>.a, for host code that
#                                             launches its kernels with <<<>>>
#
# SHARED and fatbin objects are host shared objects, loaded with
# aclrtBinaryLoadFromFile. Kernels are built with -g, so the runtime reads
# their parameters from the debug information. A STATIC library's sources
# are rewritten first: each Kernel<<<blockDim, l2ctrl, stream>>>(args)
# becomes a launch through gocann/ascendc/gocann_launch.h, which registers
# the kernel linked into the program at its first launch; linking the
# library brings libascendcl.so with it.
include_guard(GLOBAL)

find_path(GOCANN_KERNEL_INCLUDE_DIR gocann/kernel.h
    HINTS "${CMAKE_CURRENT_LIST_DIR}/../../../include" "${ASCEND_CANN_PACKAGE_PATH}/include" "$ENV{ASCEND_HOME_PATH}/include"
    NO_DEFAULT_PATH)
if(NOT GOCANN_KERNEL_INCLUDE_DIR)
    message(FATAL_ERROR "gocann ascendc.cmake: gocann/kernel.h not found beside ${CMAKE_CURRENT_LIST_DIR} "
        "or under ASCEND_HOME_PATH; source the set_env.sh of a gocann install tree")
endif()
find_library(GOCANN_LIBRARY ascendcl
    HINTS "${GOCANN_KERNEL_INCLUDE_DIR}/../lib64" "${ASCEND_CANN_PACKAGE_PATH}/lib64" "$ENV{ASCEND_HOME_PATH}/lib64"
    NO_DEFAULT_PATH)
if(NOT GOCANN_LIBRARY)
    message(FATAL_ERROR "gocann ascendc.cmake: libascendcl.so not found beside ${GOCANN_KERNEL_INCLUDE_DIR}")
endif()
set(GOCANN_ASCENDC_LAUNCH "${CMAKE_CURRENT_LIST_DIR}/ascendc_launch.cmake")
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

# _gocann_static_library builds a static kernel library: its sources, with
# their <<<>>> launches rewritten (ascendc_launch.cmake), in an archive
# that brings the runtime library with it, as CANN's does. Each rewritten
# source keeps its own directory on the include path for its "..."
# includes.
function(_gocann_static_library target)
    set(rewritten)
    set(dirs)
    set(i 0)
    foreach(src ${ARGN})
        get_filename_component(abs "${src}" ABSOLUTE)
        get_filename_component(dir "${abs}" DIRECTORY)
        get_filename_component(name "${abs}" NAME)
        set(out "${CMAKE_CURRENT_BINARY_DIR}/gocann_ascendc/${target}/${i}_${name}")
        add_custom_command(OUTPUT "${out}"
            COMMAND "${CMAKE_COMMAND}" "-DIN=${abs}" "-DOUT=${out}" -P "${GOCANN_ASCENDC_LAUNCH}"
            DEPENDS "${abs}" "${GOCANN_ASCENDC_LAUNCH}"
            COMMENT "Rewriting the <<<>>> launches of ${name}"
            VERBATIM)
        list(APPEND rewritten "${out}")
        list(APPEND dirs "${dir}")
        math(EXPR i "${i} + 1")
    endforeach()
    list(REMOVE_DUPLICATES dirs)
    add_library(${target} STATIC ${rewritten})
    _gocann_kernel_target(${target})
    target_include_directories(${target} PRIVATE ${dirs})
    target_include_directories(${target} INTERFACE "${GOCANN_KERNEL_INCLUDE_DIR}")
    target_link_libraries(${target} INTERFACE "${GOCANN_LIBRARY}")
endfunction()

function(ascendc_library target kind)
    if(NOT ARGN)
        message(FATAL_ERROR "ascendc_library(${target} ${kind}): no kernel sources given")
    endif()
    if(kind STREQUAL "SHARED")
        add_library(${target} SHARED ${ARGN})
        _gocann_kernel_target(${target})
    elseif(kind STREQUAL "STATIC")
        _gocann_static_library(${target} ${ARGN})
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
