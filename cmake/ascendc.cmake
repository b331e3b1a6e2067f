# ascendc.cmake for gocann: what CANN projects include as
# ${ASCENDC_CMAKE_DIR}/ascendc.cmake (CANN's older kernel flow), building
# kernel sources written against gocann/kernel.h or Ascend C
# (kernel_operator.h) into binaries and libraries the simulated NPU runs.
#
#   ascendc_library(name SHARED|STATIC|OBJECT sources...)
#                                             a kernel library: lib<name>.so
#                                             (which aclrtBinaryLoadFromFile
#                                             also loads), lib<name>.a, or
#                                             objects; its host code may
#                                             launch its kernels with <<<>>>,
#                                             and its users with the
#                                             generated aclrtlaunch_<kernel>.h
#                                             (ACLRT_LAUNCH_KERNEL)
#   ascendc_fatbin_library(name sources...)   fatbin/<name>/<name>.o in the
#                                             build tree, installed to
#                                             ${CMAKE_INSTALL_PREFIX}/fatbin/<name>/
#   ascendc_include_directories(name ...), ascendc_compile_definitions(name ...)
#                                             as target_include_directories etc.
#   ascendc_compile_options(name scope options...
#       [-forward-options-to-host-compiler options...])
#                                             the kernel code's options, then
#                                             the host code's
#
# C++ kernel sources are compiled as the ASC language, by the tree's bisheng
# driver: <<<>>> launches (of template kernels too), a kernel's printf and
# asm("trap") are rewritten for the host compiler. C sources stay C.
# Kernels are built with -g, so the runtime reads their parameters from the
# debug information. Each kernel library has an include directory,
# ${CMAKE_BINARY_DIR}/include/<name>, holding aclrtlaunch_<kernel>.h for
# each of its non-template kernels (written as its sources compile), which
# it gives its users; linking it brings libascendcl with it.
#
# SOC_VERSION picks the architecture, RUN_MODE (npu, sim or cpu) the run
# mode: every one runs on the simulated NPU. host_intf_pub and the other
# targets CANN's kernel CMake links exist, as interface targets.
include_guard(GLOBAL)

get_filename_component(_gocann_kcmake "${CMAKE_CURRENT_LIST_FILE}" REALPATH)
get_filename_component(_gocann_kcmake "${_gocann_kcmake}" DIRECTORY)
find_path(GOCANN_KERNEL_INCLUDE_DIR gocann/kernel.h
    HINTS "${_gocann_kcmake}/../../../include" "${ASCEND_CANN_PACKAGE_PATH}/include" "$ENV{ASCEND_HOME_PATH}/include"
    NO_DEFAULT_PATH)
if(NOT GOCANN_KERNEL_INCLUDE_DIR)
    message(FATAL_ERROR "gocann ascendc.cmake: gocann/kernel.h not found beside ${_gocann_kcmake} "
        "or under ASCEND_HOME_PATH; source the set_env.sh of a gocann install tree")
endif()
get_filename_component(GOCANN_ASC_ROOT "${GOCANN_KERNEL_INCLUDE_DIR}/.." ABSOLUTE)
find_library(GOCANN_LIBRARY ascendcl HINTS "${GOCANN_ASC_ROOT}/lib64" NO_DEFAULT_PATH)
if(NOT GOCANN_LIBRARY)
    message(FATAL_ERROR "gocann ascendc.cmake: libascendcl.so not found in ${GOCANN_ASC_ROOT}/lib64")
endif()
if(NOT SOC_VERSION)
    set(SOC_VERSION "$ENV{SOC_VERSION}")
endif()
if(NOT RUN_MODE)
    set(RUN_MODE npu)
endif()
if(NOT RUN_MODE MATCHES "^(npu|sim|cpu)$")
    message(FATAL_ERROR "gocann ascendc.cmake: RUN_MODE=${RUN_MODE} is invalid, expected npu, sim or cpu")
endif()

# The ASC language compiles the kernel sources: the architecture of the
# SoC, the run mode.
if(NOT CMAKE_ASC_ARCHITECTURES)
    if(SOC_VERSION STREQUAL "Ascend910B")
        # The 30-core Atlas training chip, not an Atlas A2 Ascend910B<n>.
        set(CMAKE_ASC_ARCHITECTURES dav-1001)
    elseif(SOC_VERSION MATCHES "^(Ascend910B|Ascend910_93)")
        set(CMAKE_ASC_ARCHITECTURES dav-2201)
    elseif(SOC_VERSION MATCHES "^Ascend950")
        set(CMAKE_ASC_ARCHITECTURES dav-3510)
    elseif(SOC_VERSION MATCHES "^Ascend310P")
        set(CMAKE_ASC_ARCHITECTURES dav-2002)
    elseif(SOC_VERSION MATCHES "^Ascend310B")
        set(CMAKE_ASC_ARCHITECTURES dav-3002)
    elseif(SOC_VERSION MATCHES "^Ascend910")
        set(CMAKE_ASC_ARCHITECTURES dav-1001)
    elseif(SOC_VERSION MATCHES "^Ascend035")
        set(CMAKE_ASC_ARCHITECTURES dav-3505)
    endif()
endif()
if(NOT CMAKE_ASC_RUN_MODE)
    set(CMAKE_ASC_RUN_MODE "${RUN_MODE}")
endif()
list(APPEND CMAKE_MODULE_PATH "${_gocann_kcmake}/asc_modules")
enable_language(ASC)
# ascendc_compile_options (with -forward-options-to-host-compiler),
# ascendc_compile_definitions and ascendc_include_directories are the ASC
# language's; the library functions below replace its own, for this flow.
include("${_gocann_kcmake}/asc_modules/ascendc_functions.cmake")
message(STATUS "gocann ascendc.cmake: kernels for the simulated NPU (SOC_VERSION ${SOC_VERSION}, RUN_MODE ${RUN_MODE})")

# The targets CANN's kernel CMake defines or links by name: here interface
# targets, which bring the include directory and libascendcl where CANN's
# bring libraries gocann has no use for.
if(NOT TARGET host_intf_pub)
    add_library(host_intf_pub INTERFACE)
    target_compile_options(host_intf_pub INTERFACE -fPIC $<$<CONFIG:Release>:-O2> $<$<CONFIG:Debug>:-O0>
        $<$<COMPILE_LANGUAGE:CXX>:-std=c++17>)
    target_include_directories(host_intf_pub INTERFACE "${GOCANN_ASC_ROOT}/include")
    target_link_directories(host_intf_pub INTERFACE "${GOCANN_ASC_ROOT}/lib64")
    target_link_libraries(host_intf_pub INTERFACE "${GOCANN_LIBRARY}")
endif()
foreach(_gocann_lib ascendc_runtime ascendc_runtime_obj ascendc_runtime_static acl_rt runtime tiling_api register
        platform error_manager profapi ge_common_base graph_base unified_dlog ascendalog mmpa c_sec ascend_dump
        ascendc_acl_stub runtime_camodel npu_drv npu_drv_camodel pem_davinci)
    if(NOT TARGET ${_gocann_lib})
        add_library(${_gocann_lib} INTERFACE)
        target_link_libraries(${_gocann_lib} INTERFACE "${GOCANN_LIBRARY}")
    endif()
endforeach()

# _gocann_kernel_sources marks a library's C++ sources as the ASC language.
function(_gocann_kernel_sources)
    foreach(src ${ARGN})
        get_filename_component(ext "${src}" EXT)
        if(ext MATCHES "\\.(cpp|cc|cxx|C|asc)$")
            set_source_files_properties(${src} PROPERTIES LANGUAGE ASC)
        endif()
    endforeach()
endfunction()

# _gocann_kernel_target gives a kernel target what every kernel needs.
function(_gocann_kernel_target target)
    target_include_directories(${target} PRIVATE "${GOCANN_KERNEL_INCLUDE_DIR}" "${GOCANN_KERNEL_INCLUDE_DIR}/gocann/ascendc")
    target_compile_options(${target} PRIVATE -g)
    set_target_properties(${target} PROPERTIES
        POSITION_INDEPENDENT_CODE ON
        C_VISIBILITY_PRESET default
        CXX_VISIBILITY_PRESET default)
endfunction()

function(ascendc_library target kind)
    if(NOT kind MATCHES "^(SHARED|STATIC|OBJECT)$")
        message(FATAL_ERROR "ascendc_library(${target} ${kind} ...): the library kind ${kind} is invalid, expected SHARED, STATIC or OBJECT")
    endif()
    if(NOT ARGN)
        message(FATAL_ERROR "ascendc_library(${target} ${kind}): no kernel sources given")
    endif()
    _gocann_kernel_sources(${ARGN})
    add_library(${target} ${kind} ${ARGN})
    _gocann_kernel_target(${target})
    # The driver writes the launch headers of the library's kernels here.
    set(launch "${CMAKE_BINARY_DIR}/include/${target}")
    file(MAKE_DIRECTORY "${launch}")
    target_compile_definitions(${target} PRIVATE "GEN_ACLRT=${launch}")
    target_include_directories(${target} INTERFACE "$<BUILD_INTERFACE:${launch}>" "${GOCANN_KERNEL_INCLUDE_DIR}")
    target_link_libraries(${target} INTERFACE "${GOCANN_LIBRARY}")
    if(NOT kind STREQUAL "OBJECT")
        set_target_properties(${target} PROPERTIES ARCHIVE_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib"
            LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib")
        install(TARGETS ${target} LIBRARY DESTINATION lib ARCHIVE DESTINATION lib)
        install(DIRECTORY "${launch}" DESTINATION include)
    endif()
endfunction()

function(ascendc_fatbin_library target)
    if(NOT ARGN)
        message(FATAL_ERROR "ascendc_fatbin_library(${target}): no kernel sources given")
    endif()
    _gocann_kernel_sources(${ARGN})
    add_library(${target} MODULE ${ARGN})
    _gocann_kernel_target(${target})
    set_target_properties(${target} PROPERTIES
        PREFIX ""
        SUFFIX ".o"
        LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/fatbin/${target}")
    install(TARGETS ${target} LIBRARY DESTINATION fatbin/${target})
endfunction()

