#include "csqlite.h"
int csqlite_shim_version(void) { return 1; }
