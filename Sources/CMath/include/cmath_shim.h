#ifndef CMATH_SHIM_H
#define CMATH_SHIM_H
/*
 * The C library's elementary functions for FixcastCore, which must not import Glibc (that would put
 * open/read/mmap/clock_gettime within reach of the pure core). Functions of Doubles only: no I/O, no
 * state (errno on a domain error is never read). Prefixed cmath_.
 */
#include <math.h>

static inline double cmath_sin(double x) { return sin(x); }
static inline double cmath_cos(double x) { return cos(x); }
static inline double cmath_tan(double x) { return tan(x); }
static inline double cmath_asin(double x) { return asin(x); }
static inline double cmath_atan(double x) { return atan(x); }
static inline double cmath_atan2(double y, double x) { return atan2(y, x); }
static inline double cmath_sinh(double x) { return sinh(x); }
static inline double cmath_log(double x) { return log(x); }
static inline double cmath_log10(double x) { return log10(x); }
static inline double cmath_exp(double x) { return exp(x); }
static inline double cmath_pow(double x, double y) { return pow(x, y); }
static inline double cmath_cbrt(double x) { return cbrt(x); }

int cmath_shim_version(void);
#endif
