#ifndef CGPS_H
#define CGPS_H
/* Shim over the C library: typed, non-variadic functions prefixed cgps_. Filled by its adapter's work. */
int cgps_shim_version(void);
#endif
