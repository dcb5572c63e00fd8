#ifndef CCURL_H
#define CCURL_H
/* Shim over the C library: typed, non-variadic functions prefixed ccurl_. Filled by its adapter's work. */
int ccurl_shim_version(void);
#endif
