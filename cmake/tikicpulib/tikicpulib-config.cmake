# find_package(tikicpulib) for gocann: the targets CANN's CPU-debug mains
# link, tikicpulib::<SoC or product> (tikicpulib::Ascend910B1,
# tikicpulib::ascend950pr_9599, ...). Where CANN's run a kernel on the
# host in a child process per core, these give tikicpulib.h
# (ICPU_RUN_KF, GmAlloc, ICPU_SET_TILING_KEY) over the runtime: the
# kernel runs on the simulated NPU, inside the process. Each target
# defines ASCENDC_CPU_DEBUG=1 and links libascendcl.
include_guard(GLOBAL)

get_filename_component(_gocann_tik_file "${CMAKE_CURRENT_LIST_FILE}" REALPATH)
# <root>/tools/tikicpulib/lib/cmake/tikicpulib-config.cmake
get_filename_component(_gocann_tik_root "${_gocann_tik_file}/../../../../.." ABSOLUTE)
if(NOT EXISTS "${_gocann_tik_root}/include/gocann/ascendc/tikicpulib.h")
    message(FATAL_ERROR "gocann tikicpulib-config.cmake: tikicpulib.h is not under ${_gocann_tik_root}/include; "
        "use the tikicpulib-config.cmake of a complete make install tree")
endif()

# The product names CANN's package gives targets, by the series of chips
# they belong to; every one runs on the simulated NPU.
set(_gocann_tik_products
    ascend910 Ascend910A Ascend910B Ascend910PremiumA Ascend910ProA Ascend910ProB
    ascend310p ascend610 Ascend310P1 Ascend310P3 Ascend310P5 Ascend310P7
    ascend910B1 Ascend910B1 Ascend910B2 Ascend910B2C Ascend910B3 Ascend910B4 Ascend910B4-1
    Ascend910_9391 Ascend910_9381 Ascend910_9392 Ascend910_9382 Ascend910_9372 Ascend910_9362
    ascend310B1 Ascend310B1 Ascend310B2 Ascend310B3 Ascend310B4
    ascend950pr_9599 Ascend950PR_9599 Ascend950PR_9589 Ascend950PR_9579 Ascend950DT_9599 Ascend950DT_9589)

if(NOT TARGET gocann_tikicpulib)
    add_library(gocann_tikicpulib INTERFACE IMPORTED)
    set_target_properties(gocann_tikicpulib PROPERTIES
        INTERFACE_INCLUDE_DIRECTORIES "${_gocann_tik_root}/include;${_gocann_tik_root}/include/gocann/ascendc"
        INTERFACE_COMPILE_DEFINITIONS "ASCENDC_CPU_DEBUG=1"
        INTERFACE_LINK_LIBRARIES "${_gocann_tik_root}/lib64/libascendcl.so")
endif()
foreach(_gocann_tik_p ${_gocann_tik_products})
    if(NOT TARGET tikicpulib::${_gocann_tik_p})
        add_library(tikicpulib::${_gocann_tik_p} INTERFACE IMPORTED)
        set_target_properties(tikicpulib::${_gocann_tik_p} PROPERTIES INTERFACE_LINK_LIBRARIES gocann_tikicpulib)
    endif()
endforeach()
set(tikicpulib_FOUND TRUE)
