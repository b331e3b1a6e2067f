# The ASC language's compiler: gocann's bisheng, in the bin/ of the tree
# asc-config.cmake came from (or on PATH).
if(NOT CMAKE_ASC_COMPILER)
    set(_gocann_asc_hints)
    if(GOCANN_ASC_ROOT)
        list(APPEND _gocann_asc_hints "${GOCANN_ASC_ROOT}/bin")
    endif()
    if(DEFINED ENV{ASCEND_HOME_PATH})
        list(APPEND _gocann_asc_hints "$ENV{ASCEND_HOME_PATH}/bin")
    endif()
    find_program(CMAKE_ASC_COMPILER NAMES bisheng HINTS ${_gocann_asc_hints} DOC "The ASC compiler driver (gocann's bisheng)")
endif()
if(NOT CMAKE_ASC_COMPILER)
    message(FATAL_ERROR "ASC: no bisheng compiler driver found; find_package(ASC) from a gocann install tree "
        "(after its set_env.sh) before enabling the ASC language")
endif()
mark_as_advanced(CMAKE_ASC_COMPILER)

if(NOT CMAKE_ASC_SOURCE_FILE_EXTENSIONS)
    set(CMAKE_ASC_SOURCE_FILE_EXTENSIONS asc)
endif()
if(NOT CMAKE_ASC_STANDARD_DEFAULT)
    set(CMAKE_ASC_STANDARD_DEFAULT 17)
endif()
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")

configure_file("${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in"
    "${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake" @ONLY)
