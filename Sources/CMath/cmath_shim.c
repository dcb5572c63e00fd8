#include "cmath_shim.h"

int cmath_shim_version(void) { return 1; }
