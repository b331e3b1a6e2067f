// The API-call ring (prof.h), the core's: the front stamps into it.
#include "prof.h"

__attribute__((visibility("default"))) gocann_prof_area gocann_prof;
