# How CMake builds the ASC language with gocann's bisheng: the compile,
# archive and link rules, the flags, the run mode.
include(CMakeCommonLanguageInclude)

set(CMAKE_ASC_OUTPUT_EXTENSION .o)
set(CMAKE_INCLUDE_FLAG_ASC "-I")
set(CMAKE_ASC_COMPILE_OPTIONS_PIC "-fPIC")
set(CMAKE_ASC_COMPILE_OPTIONS_PIE "-fPIE")
set(CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS "-shared")
set(CMAKE_SHARED_LIBRARY_SONAME_ASC_FLAG "-Wl,-soname,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG "-Wl,-rpath,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_ASC_FLAG_SEP ":")
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG "-Wl,-rpath,")
set(CMAKE_EXECUTABLE_RUNTIME_ASC_FLAG_SEP ":")
set(CMAKE_SHARED_MODULE_CREATE_ASC_FLAGS "-shared")

# The language standard: C++17 unless CMAKE_ASC_STANDARD says otherwise.
if(NOT CMAKE_ASC_STANDARD)
    set(CMAKE_ASC_STANDARD "${CMAKE_ASC_STANDARD_DEFAULT}")
endif()
if(NOT CMAKE_ASC_STANDARD MATCHES "^[0-9]+$")
    message(FATAL_ERROR "ASC: CMAKE_ASC_STANDARD=${CMAKE_ASC_STANDARD} is invalid, expected a C++ standard year such as 17 or 20")
endif()

# Flags: ASCFLAGS from the environment, per build type, and the
# architecture.
set(CMAKE_ASC_FLAGS_INIT "$ENV{ASCFLAGS} ${CMAKE_ASC_FLAGS_INIT}")
if(NOT DEFINED CMAKE_ASC_FLAGS_DEBUG_INIT)
    set(CMAKE_ASC_FLAGS_DEBUG_INIT "-O0 -g")
endif()
if(NOT DEFINED CMAKE_ASC_FLAGS_RELEASE_INIT)
    set(CMAKE_ASC_FLAGS_RELEASE_INIT "-O3 -DNDEBUG")
endif()
if(NOT DEFINED CMAKE_ASC_FLAGS_RELWITHDEBINFO_INIT)
    set(CMAKE_ASC_FLAGS_RELWITHDEBINFO_INIT "-O2 -g -DNDEBUG")
endif()
if(NOT DEFINED CMAKE_ASC_FLAGS_MINSIZEREL_INIT)
    set(CMAKE_ASC_FLAGS_MINSIZEREL_INIT "-Os -DNDEBUG")
endif()
cmake_initialize_per_config_variable(CMAKE_ASC_FLAGS "Flags used by the ASC compiler")
if(CMAKE_ASC_ARCHITECTURES)
    string(APPEND CMAKE_ASC_FLAGS " --npu-arch=${CMAKE_ASC_ARCHITECTURES}")
endif()

# The run mode: npu (the default), sim or cpu. Each runs the kernels on
# the simulated NPU; the driver defines ASCENDC_CPU_DEBUG in cpu mode, for
# sources that include cpu_debug_launch.h under it.
if(NOT CMAKE_ASC_RUN_MODE)
    set(CMAKE_ASC_RUN_MODE npu)
endif()
if(NOT CMAKE_ASC_RUN_MODE MATCHES "^(npu|sim|cpu)$")
    message(FATAL_ERROR "ASC: CMAKE_ASC_RUN_MODE=${CMAKE_ASC_RUN_MODE} is invalid, expected npu, sim or cpu")
endif()
string(APPEND CMAKE_ASC_FLAGS " --run-mode=${CMAKE_ASC_RUN_MODE}")
message(STATUS "ASC: ${CMAKE_ASC_COMPILER}, run mode ${CMAKE_ASC_RUN_MODE}: kernels run on gocann's simulated NPU")

set(_gocann_asc_launcher "")
if(CMAKE_ASC_COMPILER_LAUNCHER)
    string(JOIN " " _gocann_asc_launcher ${CMAKE_ASC_COMPILER_LAUNCHER})
endif()
set(_gocann_asc_link_launcher "")
if(CMAKE_ASC_LINKER_LAUNCHER)
    string(JOIN " " _gocann_asc_link_launcher ${CMAKE_ASC_LINKER_LAUNCHER})
endif()

# Dependencies come from the compiler, as GCC writes them.
set(CMAKE_DEPFILE_FLAGS_ASC "-MD -MT <DEP_TARGET> -MF <DEP_FILE>")
if(CMAKE_GENERATOR MATCHES "Makefiles" AND NOT CMAKE_VERSION VERSION_LESS "3.20")
    set(CMAKE_ASC_DEPFILE_FORMAT gcc)
    set(CMAKE_ASC_DEPENDS_USE_COMPILER TRUE)
endif()

if(NOT CMAKE_ASC_COMPILE_OBJECT)
    set(CMAKE_ASC_COMPILE_OBJECT
        "${_gocann_asc_launcher} <CMAKE_ASC_COMPILER> <DEFINES> <INCLUDES> -std=c++${CMAKE_ASC_STANDARD} <FLAGS> -o <OBJECT> -c --asc-aicore-lang <SOURCE>")
endif()
if(NOT CMAKE_ASC_CREATE_PREPROCESSED_SOURCE)
    set(CMAKE_ASC_CREATE_PREPROCESSED_SOURCE
        "<CMAKE_ASC_COMPILER> <DEFINES> <INCLUDES> -std=c++${CMAKE_ASC_STANDARD} <FLAGS> -E --asc-aicore-lang <SOURCE> > <PREPROCESSED_SOURCE>")
endif()
if(NOT CMAKE_ASC_LINK_EXECUTABLE)
    set(CMAKE_ASC_LINK_EXECUTABLE
        "${_gocann_asc_link_launcher} <CMAKE_ASC_COMPILER> <FLAGS> <CMAKE_ASC_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
endif()
if(NOT CMAKE_ASC_CREATE_SHARED_LIBRARY)
    set(CMAKE_ASC_CREATE_SHARED_LIBRARY
        "${_gocann_asc_link_launcher} <CMAKE_ASC_COMPILER> <CMAKE_SHARED_LIBRARY_ASC_FLAGS> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> <CMAKE_SHARED_LIBRARY_CREATE_ASC_FLAGS> <SONAME_FLAG><TARGET_SONAME> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
endif()
# A module is a kernel binary for aclrtBinaryLoadFromFile, named <name>.o
# as CANN names its fatbin objects: here a host shared object.
if(NOT CMAKE_ASC_CREATE_SHARED_MODULE)
    set(CMAKE_SHARED_MODULE_PREFIX_ASC "")
    set(CMAKE_SHARED_MODULE_SUFFIX_ASC ".o")
    set(CMAKE_ASC_CREATE_SHARED_MODULE
        "${_gocann_asc_link_launcher} <CMAKE_ASC_COMPILER> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> -shared -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
endif()
if(NOT DEFINED CMAKE_ASC_ARCHIVE_CREATE)
    set(CMAKE_ASC_ARCHIVE_CREATE "<CMAKE_AR> qc <TARGET> <LINK_FLAGS> <OBJECTS>")
endif()
if(NOT DEFINED CMAKE_ASC_ARCHIVE_APPEND)
    set(CMAKE_ASC_ARCHIVE_APPEND "<CMAKE_AR> q <TARGET> <LINK_FLAGS> <OBJECTS>")
endif()
if(NOT DEFINED CMAKE_ASC_ARCHIVE_FINISH)
    set(CMAKE_ASC_ARCHIVE_FINISH "<CMAKE_RANLIB> <TARGET>")
endif()

set(CMAKE_ASC_INFORMATION_LOADED 1)
