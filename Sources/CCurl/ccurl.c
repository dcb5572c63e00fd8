#include "ccurl.h"
int ccurl_shim_version(void) { return 1; }
