#ifndef CSQLITE_H
#define CSQLITE_H
/* Shim over the C library: typed, non-variadic functions prefixed csqlite_. Filled by its adapter's work. */
int csqlite_shim_version(void);
#endif
