#ifndef CGPS_H
#define CGPS_H
/*
 * Shim over libgps: typed, non-variadic functions prefixed cgps_.
 *
 * Swift never sees `struct gps_data_t` (its unions and arrays import badly, and its layout grows in
 * every gpsd release): it gets an opaque handle and the small flat `cgps_report` below, which this
 * file fills from whatever libgps API (11 on Debian 12, 12, 14, 16) it was compiled against.
 */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An open connection to gpsd (wraps a heap-allocated struct gps_data_t). Not thread-safe: one thread uses it. */
typedef struct cgps_handle cgps_handle;

/* What one cgps_read brought in (bits of cgps_report.got). */
enum {
    CGPS_GOT_TPV = 1 << 0,        /* a TPV: mode (and maybe time/position) is valid */
    CGPS_GOT_SKY = 1 << 1,        /* a SKY: satellite counts are valid */
    CGPS_GOT_DEVICE = 1 << 2,     /* a device path is valid (DEVICE, DEVICES or a TPV's "device") */
    CGPS_GOT_ERROR = 1 << 3,      /* gpsd sent an ERROR object; `error` holds its text */
    CGPS_GOT_SKY_SKIPPED = 1 << 4, /* a SKY dropped unparsed (cgps_read's parse_sky was 0) */
    CGPS_GOT_VERSION = 1 << 5      /* gpsd's VERSION banner, the first thing it sends a client */
};

/* Receiver status, independent of the STATUS_* names that gpsd 3.24 renamed. Informational only:
   TPV JSON usually omits it, so a fix is decided on mode, never on this. */
enum {
    CGPS_STATUS_UNKNOWN = 0,
    CGPS_STATUS_GPS = 1,
    CGPS_STATUS_DGPS = 2,
    CGPS_STATUS_OTHER = 3
};

#define CGPS_DEVICE_MAX 256
#define CGPS_ERROR_MAX 256

/* One report, flat. Unknown doubles are NaN (libgps's convention); unknown ints are -1. */
typedef struct cgps_report {
    int got;                       /* CGPS_GOT_* bits */
    int mode;                      /* 0 not seen, 1 no fix, 2 2D, 3 3D */
    int status;                    /* CGPS_STATUS_* */
    int time_valid;                /* 1 when gpsd sent a time (TIME_SET) */
    int64_t time_sec;              /* UTC seconds since 1970 */
    int64_t time_nsec;
    double lat, lon;               /* degrees; NaN when unknown */
    double alt;                    /* metres, MSL when known, else height above ellipsoid */
    double speed;                  /* m/s over ground */
    double track;                  /* degrees from true north */
    double eph, epx, epy, epv;     /* metres */
    int satellites_used;           /* -1 unknown */
    int satellites_visible;        /* -1 unknown */
    char device[CGPS_DEVICE_MAX];  /* "" unless CGPS_GOT_DEVICE: set only when the path differs from
                                      the one reported last on this connection */
    char error[CGPS_ERROR_MAX];    /* "" unless CGPS_GOT_ERROR */
} cgps_report;

/* libgps is opened with dlopen at the first cgps_open, not linked (cgps.c says why). */
/* The soname opened ("libgps.so.28"): the one of the API the shim was compiled against. */
const char *cgps_library_soname(void);
/* Opens libgps and resolves every function this shim calls, once per process (thread-safe; after a
 * failure the next call tries again). 0 when it is ready, -1 when it cannot be loaded: then
 * cgps_library_error() says why (the loader's text). */
int cgps_library_load(void);
const char *cgps_library_error(void);
/* Opens `soname` the way cgps_library_load does, checks it has every function, and closes it again,
 * leaving the shim's own library alone: 0 when it would do, -1 with the reason in `error`. */
int cgps_library_probe(const char *soname, char *error, size_t capacity);
/* The *err of a cgps_open that failed because libgps cannot be loaded (libgps's own codes are -1..-9
 * and errno values are positive). */
#define CGPS_ERR_NO_LIBRARY (-1000)
/* The *err of a cgps_open whose host name was not looked up within its timeout_ms. */
#define CGPS_ERR_RESOLVE_TIMEOUT (-1001)
/* Internal to the probe (a name that does not resolve is left to libgps, which says so). */
#define CGPS_ERR_UNRESOLVED (-1002)

/* The libgps API this shim was compiled against (GPSD_API_MAJOR_VERSION). */
int cgps_api_major(void);
int cgps_shim_version(void);

/* Connects to gpsd at host:port (port as decimal text). NULL on failure with *err set (see cgps_errstr).
 * With timeout_ms > 0 a host that takes no TCP connection within that time fails with ETIMEDOUT
 * instead of blocking for the kernel's SYN retries (about two minutes), and a name not looked up within
 * it fails with CGPS_ERR_RESOLVE_TIMEOUT; 0 leaves both waits to libgps. */
cgps_handle *cgps_open(const char *host, const char *port, int timeout_ms, int *err);

/* Asks gpsd to stream JSON reports (?WATCH={"enable":true,"json":true}). 0 on success, -1 on failure. */
int cgps_watch_json(cgps_handle *h);

/* 1 when a whole report is buffered or the socket is readable (or hung up), 0 after `usec`
   microseconds without (one poll(2) unless a report is buffered). Never blocks longer than usec. */
int cgps_wait(cgps_handle *h, int usec);

/* 1 when a whole report was received and not read yet (no system call): poll(2) would not wake for it. */
int cgps_buffered(cgps_handle *h);

/* One recv(2) of what the socket holds, without blocking, behind what is buffered. 2 when it filled
   the buffer (more may wait), 1 when it read less (the socket was emptied), 0 when nothing waited,
   -1 when gpsd closed the connection or the read failed. */
int cgps_receive(cgps_handle *h);

/* Drops what is buffered and up to `max_receives` buffers of what waits in the socket, unparsed:
   1 when the socket is empty, 0 when more may wait still, -1 when the connection is lost. */
int cgps_discard(cgps_handle *h, int max_receives);

/* The connection's socket, to sleep on with poll(2) until gpsd sends (-1 for NULL). Check
   cgps_buffered first: a receive may have brought more than one report. (gpsd 3.26 made the type an
   intptr_t; it is always a small descriptor on a POSIX system.) */
int cgps_fd(cgps_handle *h);

/* Parses the next whole report received (cgps_receive) into *out. Returns 1 when a line was read
   (out->got is 0 for objects fixcast does not use, and for a line that is not gpsd's JSON at all:
   libgps's unpack takes anything, so what answers is told by out->got, CGPS_GOT_VERSION first),
   0 when no whole report is buffered, -1 when libgps refuses to unpack it.
   With parse_sky 0 a SKY report is consumed without libgps parsing it (got is CGPS_GOT_SKY_SKIPPED;
   the Swift side decides which with SkyThinning). A device path is reported only when it changes. */
int cgps_read(cgps_handle *h, cgps_report *out, int parse_sky);

/* Closes the connection and frees the handle (NULL is fine). */
void cgps_close(cgps_handle *h);

/* A short English text for an error from cgps_open. Never NULL. */
const char *cgps_errstr(int err);

#ifdef __cplusplus
}
#endif
#endif
