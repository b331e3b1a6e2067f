# find_package(cpudebug): the same package as find_package(tikicpulib).
include("${CMAKE_CURRENT_LIST_DIR}/tikicpulib-config.cmake")
set(cpudebug_FOUND TRUE)
