# Rewrites one kernel source of a static kernel library for the host
# compiler, run by ascendc.cmake as a build step:
#   cmake -DIN=source -DOUT=rewritten -P ascendc_launch.cmake
# Kernel<<<blockDim, l2ctrl, stream>>>(args) becomes a call of
# AscendC::gocann::Launch (gocann/ascendc/gocann_launch.h), and the AI
# core's trap instruction, asm("trap"), becomes Trap(). A #line keeps the
# compiler's messages on the source's own lines.
file(READ "${IN}" src)
string(REGEX REPLACE "([A-Za-z_][A-Za-z0-9_]*)[ \t]*<<<([^<>;]*)>>>" "::AscendC::gocann::Launch(\\1, \"\\1\", \\2)" src "${src}")
string(REGEX REPLACE "asm[ \t]*(volatile[ \t]*)?\\([ \t]*\"trap\"[ \t]*\\)" "::Trap()" src "${src}")
file(WRITE "${OUT}" "#line 1 \"${IN}\"\n${src}")
