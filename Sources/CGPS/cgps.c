#include "cgps.h"
int cgps_shim_version(void) { return 1; }
