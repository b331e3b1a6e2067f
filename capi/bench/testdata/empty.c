// An empty kernel, for measuring what a launch costs.
#include <gocann/kernel.h>

void empty(uint64_t x) { (void)x; }
