# The kernel library functions of find_package(ASC), for kernels written
# as .asc sources. The ascendc.cmake of CANN's older flow includes this
# file and replaces ascendc_library and ascendc_fatbin_library.
include_guard(GLOBAL)

# ascendc_library(name SHARED|STATIC sources...): a kernel library its
# users link; it brings libascendcl with it.
function(ascendc_library target kind)
    if(NOT kind MATCHES "^(SHARED|STATIC)$")
        message(FATAL_ERROR "ascendc_library(${target} ${kind} ...): the library kind ${kind} is invalid, expected SHARED or STATIC")
    endif()
    if(NOT ARGN)
        message(FATAL_ERROR "ascendc_library(${target} ${kind}): no sources given")
    endif()
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE ASC)
    add_library(${target} ${kind} ${ARGN})
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON LINKER_LANGUAGE ASC)
    target_include_directories(${target} INTERFACE "${GOCANN_ASC_ROOT}/include")
    target_link_libraries(${target} INTERFACE "${GOCANN_ASC_ROOT}/lib64/libascendcl.so")
    include(GNUInstallDirs)
    install(TARGETS ${target} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()

# ascendc_fatbin_library(name sources...): a kernel binary, <name>.o, for
# aclrtBinaryLoadFromFile.
function(ascendc_fatbin_library target)
    if(NOT ARGN)
        message(FATAL_ERROR "ascendc_fatbin_library(${target}): no sources given")
    endif()
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE ASC)
    add_library(${target} MODULE ${ARGN})
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON LINKER_LANGUAGE ASC
        LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/fatbin/${target}")
    target_compile_options(${target} PRIVATE --aicore-only -g)
    install(TARGETS ${target} LIBRARY DESTINATION fatbin/${target})
endfunction()

# ascendc_compile_options(name scope options... [-forward-options-to-host-compiler
# host options...]): the kernel code's options, then the host code's.
function(ascendc_compile_options target scope)
    set(device)
    set(host)
    set(list device)
    foreach(opt ${ARGN})
        if(opt STREQUAL "-forward-options-to-host-compiler")
            set(list host)
        else()
            list(APPEND ${list} "${opt}")
        endif()
    endforeach()
    # SHELL: keeps each group whole: CMake would drop an option repeated
    # across them. Only bisheng knows the groups: a C source of the
    # target, which the host's C compiler builds, gets neither.
    if(device)
        string(JOIN " " device ${device})
        target_compile_options(${target} ${scope} "$<$<COMPILE_LANGUAGE:ASC>:SHELL:-Xaicore-start ${device} -Xaicore-end>")
    endif()
    if(host)
        string(JOIN " " host ${host})
        target_compile_options(${target} ${scope} "$<$<COMPILE_LANGUAGE:ASC>:SHELL:-Xhost-start ${host} -Xhost-end>")
    endif()
endfunction()

function(ascendc_compile_definitions target)
    target_compile_definitions(${target} ${ARGN})
endfunction()

function(ascendc_include_directories target)
    target_include_directories(${target} ${ARGN})
endfunction()
