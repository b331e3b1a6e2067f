# The driver is this tree's own and needs only the host compiler, which
# its first compile checks; no test program is built at configure time.
set(CMAKE_ASC_COMPILER_WORKS 1 CACHE INTERNAL "")
