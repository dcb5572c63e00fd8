/*
 * The only code that touches libgps. Version differences (NOTES.md) are handled here with #if on
 * GPSD_API_MAJOR_VERSION so the Swift side sees one flat report whatever gpsd it runs against:
 *   - 3.24 (API 14) renamed STATUS_NO_FIX/STATUS_FIX/STATUS_DGPS_FIX to STATUS_UNK/STATUS_GPS/STATUS_DGPS;
 *   - 3.25 changed gps_stream's last two parameters from (unsigned int, void *) to (watch_t, const char *)
 *     without bumping the API number, so gps_stream is called with a cast null pointer that fits both;
 *   - 3.26 made socket_t an intptr_t (this file never stores gps_fd, so nothing to do).
 * See gps(3) / libgps(3): gps_open, gps_stream, gps_unpack, gps_close.
 *
 * The socket is read here, not by gps_read: gpsd's reports are lines, and gps_read (libgps_sock.c)
 * does one recv(2) into its own buffer then gps_unpack on the first whole line, so a caller cannot
 * tell "a line is buffered" from "the socket has more" without gps_waiting's select(2). Holding the
 * buffer here, one recv(2) of what poll(2) said is readable brings a second's SKY and TPV and the
 * shim knows the socket is empty when that recv read less than it could: one system call a fix less
 * (bench/README.md, "The live screen at 1/s: syscalls"). The parsing is still libgps's (gps_unpack).
 *
 * libgps is not linked: it is opened with dlopen at the first connection (cgps_library_load), so the
 * commands that never talk to gpsd never map it and what it pulls in (libdbus, libsystemd, libgcrypt
 * ...). Until it loads, cgps_open fails with CGPS_ERR_NO_LIBRARY and the rest do nothing.
 */
/* POSIX.1-2008 for getaddrinfo and clock_gettime under -std=c11 (the probe in cgps_open); GNU for
 * getaddrinfo_a, the name lookup the probe can stop waiting for (in libc itself since glibc 2.34). */
#define _POSIX_C_SOURCE 200809L
#define _GNU_SOURCE
#include "cgps.h"

#include <stddef.h>

#include "clazylibrary.h"
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <gps.h>

#if !defined(GPSD_API_MAJOR_VERSION) || GPSD_API_MAJOR_VERSION < 11
#error "fixcast needs libgps API 11 or later (gpsd 3.22+)"
#endif

/* The soname of the libgps whose headers this file is compiled against: struct gps_data_t's layout is
 * that ABI's, so no other libgps may be opened. The pairs (shared/gpsd-logs/NOTES.md, gpsd's
 * SConscript libgps_version): 3.22 API 11 libgps.so.28 (Debian 12); 3.23 API 12 libgps.so.29; 3.24
 * and 3.25 API 14 libgps.so.30 (Debian 13); 3.26 kept API 14 but made socket_t (gps_fd) an intptr_t
 * and is libgps.so.31, told apart by that field's width (on a 64-bit machine; a 32-bit one gets 30);
 * 3.27 API 16 libgps.so.32. CGPSLibraryTests and scripts/package-deb.sh check the choice against the
 * SONAME of the libgps.so on the build machine. */
static const char *cgps_soname(void) {
#if GPSD_API_MAJOR_VERSION == 11
    return "libgps.so.28";
#elif GPSD_API_MAJOR_VERSION == 12
    return "libgps.so.29";
#elif GPSD_API_MAJOR_VERSION == 14
    return sizeof(((struct gps_data_t *)0)->gps_fd) > sizeof(int) ? "libgps.so.31" : "libgps.so.30";
#elif GPSD_API_MAJOR_VERSION == 16
    return "libgps.so.32";
#else
#error "unknown libgps API: add its soname (objdump -p /usr/lib/*/libgps.so | grep SONAME) to cgps_soname"
#endif
}

/* Every libgps function this file calls, with the headers' own prototypes. */
struct cgps_table {
    __typeof__(&gps_open) open;
    __typeof__(&gps_stream) stream;
    __typeof__(&gps_unpack) unpack;
    __typeof__(&gps_close) close;
    __typeof__(&gps_errstr) errstr;
};

/* Where each function's pointer goes in the table (CLazyLibrary resolves them all or none). */
static const struct clazy_symbol symbols[] = {
    {"gps_open", offsetof(struct cgps_table, open)},
    {"gps_stream", offsetof(struct cgps_table, stream)},
    {"gps_unpack", offsetof(struct cgps_table, unpack)},
    {"gps_close", offsetof(struct cgps_table, close)},
    {"gps_errstr", offsetof(struct cgps_table, errstr)},
};
#define SYMBOL_COUNT (sizeof symbols / sizeof symbols[0])

static struct clazy_library library = CLAZY_LIBRARY_INIT;
static struct cgps_table lib;

const char *cgps_library_soname(void) { return cgps_soname(); }

/* Never closed: libgps stays for the rest of the process once a command has used it. */
int cgps_library_load(void) { return clazy_load(&library, cgps_library_soname(), symbols, SYMBOL_COUNT, &lib); }

const char *cgps_library_error(void) { return clazy_error(&library); }

int cgps_library_probe(const char *soname, char *error, size_t capacity) {
    return clazy_probe(soname, symbols, SYMBOL_COUNT, error, capacity);
}

/* libgps's own buffer size (GPS_JSON_RESPONSE_MAX * 2 in gpsd's gps_json.h, not installed): a
 * report gpsd sends is at most half of it, so a whole line always fits behind a partial one. */
#define CGPS_BUFFER_BYTES 20480

struct cgps_handle {
    struct gps_data_t data;
    /* What was received and not parsed yet: bytes [start, end) of buffer; one more for the NUL that
     * ends a line handed to gps_unpack. */
    size_t start, end;
    char buffer[CGPS_BUFFER_BYTES + 1];
    /* The device path last reported (CGPS_GOT_DEVICE): gpsd names the device in every TPV, and the
     * Swift side builds a string only when it changes. Empty on a new connection. */
    char reported_device[CGPS_DEVICE_MAX];
};

/* The first whole line received and not parsed yet, or NULL. */
static char *next_line(cgps_handle *h) {
    return memchr(h->buffer + h->start, '\n', h->end - h->start);
}

int cgps_api_major(void) { return GPSD_API_MAJOR_VERSION; }
int cgps_shim_version(void) { return 5; }

/* Milliseconds on the monotonic clock, for the probe's one deadline across its addresses. */
static long long cgps_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* One name lookup the caller may stop waiting for: glibc's getaddrinfo_a runs it on a thread of its
 * own and, once it has ended, calls lookup_ended on another, which says so under `lock` (so the answer
 * the lookup wrote is seen whole by the caller, on any CPU) and lets go of its hold. Whichever of the
 * caller (done waiting, or given up) and lookup_ended lets go second frees it, so an answer that comes
 * after the caller gave up is freed then. */
struct cgps_lookup {
    struct gaicb request;
    struct addrinfo hints;
    char *host;
    char *port;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int ended;
    atomic_int holders;
};

static void lookup_release(struct cgps_lookup *l) {
    if (atomic_fetch_sub(&l->holders, 1) != 1) return;
    if (l->request.ar_result != NULL) freeaddrinfo(l->request.ar_result);
    pthread_cond_destroy(&l->changed);
    pthread_mutex_destroy(&l->lock);
    free(l->host);
    free(l->port);
    free(l);
}

static void lookup_ended(union sigval v) {
    struct cgps_lookup *l = v.sival_ptr;
    pthread_mutex_lock(&l->lock);
    l->ended = 1;
    pthread_cond_signal(&l->changed);
    pthread_mutex_unlock(&l->lock);
    lookup_release(l);
}

/* host:port's addresses by `deadline_ms` (cgps_now_ms's clock): 0 with *out set (freed with
 * freeaddrinfo); CGPS_ERR_RESOLVE_TIMEOUT when the lookup had not ended by then, failed for now
 * (EAI_AGAIN) or could not start; another nonzero when the name does not resolve. getaddrinfo(3) has no time limit of its
 * own: a name on a DNS or mDNS server that does not answer held the agent's loop (keys, signals, the
 * screen) for the resolver's timeouts, at every reconnect. A numeric address resolves at once. */
static int cgps_resolve(const char *host, const char *port, long long deadline_ms, struct addrinfo **out) {
    *out = NULL;
    struct cgps_lookup *l = calloc(1, sizeof *l);
    if (l == NULL) return ENOMEM;
    l->host = strdup(host);
    l->port = strdup(port);
    pthread_condattr_t clock;
    int ready = l->host != NULL && l->port != NULL && pthread_condattr_init(&clock) == 0;
    if (ready) {
        ready = pthread_condattr_setclock(&clock, CLOCK_MONOTONIC) == 0 &&
                pthread_cond_init(&l->changed, &clock) == 0;
        pthread_condattr_destroy(&clock);
    }
    if (!ready) {
        free(l->host);
        free(l->port);
        free(l);
        return ENOMEM;
    }
    pthread_mutex_init(&l->lock, NULL);
    l->hints.ai_family = AF_UNSPEC;
    l->hints.ai_socktype = SOCK_STREAM;
    l->hints.ai_protocol = IPPROTO_TCP;
    l->request.ar_name = l->host;
    l->request.ar_service = l->port;
    l->request.ar_request = &l->hints;
    atomic_init(&l->holders, 2);
    struct sigevent done;
    memset(&done, 0, sizeof done);
    done.sigev_notify = SIGEV_THREAD;
    done.sigev_notify_function = lookup_ended;
    done.sigev_value.sival_ptr = l;
    struct gaicb *list[1] = {&l->request};
    if (getaddrinfo_a(GAI_NOWAIT, list, 1, &done) != 0) {
        /* glibc may have queued the lookup, or started the notification, before it failed: only the
         * caller's hold is let go, so nothing it may still touch is freed (at worst it is never freed). */
        lookup_release(l);
        /* Not looked up in time, as far as the caller goes: left to gps_open, the name would be looked
         * up again there without any time limit. */
        return CGPS_ERR_RESOLVE_TIMEOUT;
    }
    pthread_mutex_lock(&l->lock);
    while (!l->ended) {
        long long left = deadline_ms - cgps_now_ms();
        if (left <= 0) break;
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_sec += left / 1000;
        until.tv_nsec += (left % 1000) * 1000000;
        if (until.tv_nsec >= 1000000000) {
            until.tv_sec += 1;
            until.tv_nsec -= 1000000000;
        }
        (void)pthread_cond_timedwait(&l->changed, &l->lock, &until);
    }
    int ended = l->ended;
    pthread_mutex_unlock(&l->lock);
    int rc = ended ? gai_error(&l->request) : EAI_INPROGRESS;
    if (rc == 0) {
        *out = l->request.ar_result;
        l->request.ar_result = NULL;
    }
    lookup_release(l);
    /* A temporary failure (EAI_AGAIN: the DNS server did not answer, or the network is down) is not
     * an answer either: gps_open would ask again with no time limit. A name that does not exist is
     * one, and gps_open says so in its own words. */
    if (!ended || rc == EAI_AGAIN) return CGPS_ERR_RESOLVE_TIMEOUT;
    return rc == 0 ? 0 : CGPS_ERR_UNRESOLVED;
}

/* Whether host:port takes a TCP connection within timeout_ms: 0 when it does (the probe's own
 * connection is closed at once; `numeric` then holds the address that took it, for gps_open, so
 * that it does not look the name up again without a time limit), else the errno of the last address
 * tried (ETIMEDOUT when none answered in time) or CGPS_ERR_RESOLVE_TIMEOUT. gps_open connects with a
 * blocking connect(2), which waits for the kernel's SYN retries (about two minutes) when a host drops
 * them: a gpsd host that is switched off, or behind a firewall. The probe bounds that wait and the
 * name's lookup, so a loop that connects never stops turning for much longer than timeout_ms. A name
 * that does not resolve is left to gps_open, which says so in its own words. */
static int cgps_probe(const char *host, const char *port, int timeout_ms, char *numeric, size_t capacity) {
    numeric[0] = '\0';
    /* One deadline for the lookup and the connection: the loop waits timeout_ms at most, not twice. */
    long long deadline = cgps_now_ms() + timeout_ms;
    struct addrinfo *list = NULL;
    int resolved = cgps_resolve(host, port, deadline, &list);
    if (resolved == CGPS_ERR_RESOLVE_TIMEOUT) return resolved;
    if (resolved != 0) return 0;
    int result = ETIMEDOUT;
    for (struct addrinfo *a = list; a != NULL; a = a->ai_next) {
        int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            result = errno;
            continue;
        }
        int rc = connect(fd, a->ai_addr, a->ai_addrlen);
        if (rc != 0 && errno == EINPROGRESS) {
            struct pollfd p = {.fd = fd, .events = POLLOUT};
            int ready;
            do {
                long long left = deadline - cgps_now_ms();
                ready = left > 0 ? poll(&p, 1, (int)left) : 0;
            } while (ready < 0 && errno == EINTR);
            int soerr = ETIMEDOUT;
            socklen_t len = sizeof soerr;
            if (ready > 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) != 0) soerr = errno;
            rc = soerr == 0 ? 0 : -1;
            errno = soerr;
        }
        int saved = errno;
        close(fd);
        if (rc == 0) {
            result = 0;
            if (getnameinfo(a->ai_addr, a->ai_addrlen, numeric, (socklen_t)capacity, NULL, 0, NI_NUMERICHOST) != 0)
                numeric[0] = '\0';
            break;
        }
        result = saved;
        if (cgps_now_ms() >= deadline) break;
    }
    freeaddrinfo(list);
    return result;
}

/* TCP keep-alive on gpsd's socket: a gpsd on another machine that lost its power or its network
   sends no FIN or RST, and a client that never writes would wait on the half-open connection for ever
   (the fix counted lost, gpsd never). Probes after 30 s of quiet, every 10 s, 3 unanswered: the socket
   fails about a minute after the peer went, and the read that follows reports gpsd lost. The kernel
   answers the probes of a gpsd that is only quiet (no device), so that costs nothing. Errors are
   ignored: a Unix socket has no TCP options, and without keep-alive the connection still works. */
static void keep_alive(int fd) {
    int on = 1, idle = 30, interval = 10, count = 3;
    (void)setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
    (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval);
    (void)setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count);
}

cgps_handle *cgps_open(const char *host, const char *port, int timeout_ms, int *err) {
    if (err) *err = 0;
    char numeric[NI_MAXHOST];
    numeric[0] = '\0';
    if (timeout_ms > 0) {
        int unreachable = cgps_probe(host, port, timeout_ms, numeric, sizeof numeric);
        if (unreachable != 0) {
            if (err) *err = unreachable;
            return NULL;
        }
    }
    cgps_handle *h = calloc(1, sizeof *h);
    if (h == NULL) {
        if (err) *err = ENOMEM;
        return NULL;
    }
    if (cgps_library_load() != 0) {
        if (err) *err = CGPS_ERR_NO_LIBRARY;
        free(h);
        return NULL;
    }
    errno = 0;
    if (lib.open(numeric[0] != '\0' ? numeric : host, port, &h->data) != 0) {
        /* libgps leaves its own (negative) code or the system's errno in errno. */
        if (err) *err = errno != 0 ? errno : -1;
        free(h);
        return NULL;
    }
    keep_alive((int)h->data.gps_fd);
    return h;
}

int cgps_watch_json(cgps_handle *h) {
    if (h == NULL) return -1;
    /* A cast null pointer: `void *` before gpsd 3.25, `const char *` from 3.25 (both API 14). */
    return lib.stream(&h->data, WATCH_ENABLE | WATCH_JSON, (void *)NULL) == 0 ? 0 : -1;
}

int cgps_wait(cgps_handle *h, int usec) {
    if (h == NULL) return 0;
    if (next_line(h) != NULL) return 1;
    struct pollfd fd = {.fd = (int)h->data.gps_fd, .events = POLLIN};
    int ready;
    do ready = poll(&fd, 1, usec <= 0 ? 0 : (usec + 999) / 1000);
    while (ready < 0 && errno == EINTR);
    /* A hang-up or an error counts as waiting: the read that follows finds the end. */
    return ready > 0 ? 1 : 0;
}

int cgps_buffered(cgps_handle *h) { return h != NULL && next_line(h) != NULL ? 1 : 0; }

int cgps_receive(cgps_handle *h) {
    if (h == NULL) return -1;
    if (h->start > 0) {
        memmove(h->buffer, h->buffer + h->start, h->end - h->start);
        h->end -= h->start;
        h->start = 0;
    }
    size_t room = CGPS_BUFFER_BYTES - h->end;
    /* Full without a whole line: no gpsd sends that (libgps's gps_read fails the same way). */
    if (room == 0) return -1;
    ssize_t got;
    do got = recv((int)h->data.gps_fd, h->buffer + h->end, room, MSG_DONTWAIT);
    while (got < 0 && errno == EINTR);
    if (got == 0) return -1; /* gpsd closed the connection */
    if (got < 0) return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
    h->end += (size_t)got;
    return (size_t)got == room ? 2 : 1;
}

int cgps_discard(cgps_handle *h, int max_receives) {
    if (h == NULL) return -1;
    h->start = h->end = 0;
    for (int i = 0; i < max_receives; i++) {
        int got = cgps_receive(h);
        h->start = h->end = 0;
        if (got < 0) return -1;
        /* Nothing waited, or a receive read less than it could: the socket is empty (no recv more). */
        if (got < 2) return 1;
    }
    return 0;
}

int cgps_fd(cgps_handle *h) {
    if (h == NULL) return -1;
    return (int)h->data.gps_fd;
}

static void copy_text(char *dst, size_t cap, const char *src) {
    if (src == NULL) {
        dst[0] = '\0';
        return;
    }
    size_t n = 0;
    while (n + 1 < cap && src[n] != '\0') n++;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static int map_status(int status) {
#if GPSD_API_MAJOR_VERSION >= 14
    switch (status) {
    case STATUS_UNK: return CGPS_STATUS_UNKNOWN;
    case STATUS_GPS: return CGPS_STATUS_GPS;
    case STATUS_DGPS: return CGPS_STATUS_DGPS;
    default: return CGPS_STATUS_OTHER;
    }
#else
    switch (status) {
    case STATUS_NO_FIX: return CGPS_STATUS_UNKNOWN;
    case STATUS_FIX: return CGPS_STATUS_GPS;
    case STATUS_DGPS_FIX: return CGPS_STATUS_DGPS;
    default: return CGPS_STATUS_OTHER;
    }
#endif
}

static void clear_report(cgps_report *out) {
    memset(out, 0, sizeof *out);
    out->lat = out->lon = out->alt = out->speed = out->track = NAN;
    out->eph = out->epx = out->epy = out->epv = NAN;
    out->satellites_used = -1;
    out->satellites_visible = -1;
}

/* Reports the device `path` unless it is the one reported last on this connection. */
static void report_device(cgps_handle *h, cgps_report *out, const char *path) {
    if (strncmp(path, h->reported_device, sizeof h->reported_device - 1) == 0) return;
    copy_text(h->reported_device, sizeof h->reported_device, path);
    out->got |= CGPS_GOT_DEVICE;
    copy_text(out->device, sizeof out->device, path);
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* Where the value of the first `"key":` in `line` begins (spaces skipped), or NULL. */
static const char *value_of(const char *line, const char *key) {
    size_t n = strlen(key);
    for (const char *p = line; (p = strstr(p, key)) != NULL;) {
        p += n;
        while (is_space(*p)) p++;
        if (*p != ':') continue;
        p++;
        while (is_space(*p)) p++;
        return p;
    }
    return NULL;
}

/* A DEVICES object (a "devices" list, or the class named): libgps must never see one. Its gps_unpack
   retries an object whose parse fails with any error but -1 without moving on, for ever, and a
   DEVICES object fails that way in many shapes (gpsd 3.22 to 3.27 at least): more than MAXUSERDEVS
   (4) devices, a number that is not one ("bps":"x"), a path longer than libgps's buffer, an object
   where a value should be, a line cut short. The agent's loop thread would spin at 100 % CPU and
   never answer a signal again. A gpsd serving five receivers, or anything else answering on its port,
   sends such a line. Its first device's path is read here instead (every TPV names its device too). */
static int is_devices_line(const char *line) {
    return value_of(line, "\"devices\"") != NULL || strstr(line, "\"DEVICES\"") != NULL;
}

/* The first "path" string of `line` into `out` (at most `capacity` - 1 bytes; a backslash-escaped
   character is kept without its backslash, \uXXXX is not decoded: a device path has neither); 0 when
   there is none. */
static int first_path(const char *line, char *out, size_t capacity) {
    const char *p = value_of(line, "\"path\"");
    if (p == NULL || *p != '"' || capacity == 0) return 0;
    size_t n = 0;
    for (p++; *p != '\0' && *p != '"'; p++) {
        if (*p == '\\' && p[1] != '\0') p++;
        if (n + 1 < capacity) out[n++] = *p;
    }
    out[n] = '\0';
    return *p == '"' && n > 0;
}

/* How gpsd begins every SKY object it sends (gpsd's json_sky_dump writes "class" first, no spaces). */
static const char sky_prefix[] = "{\"class\":\"SKY\"";

int cgps_read(cgps_handle *h, cgps_report *out, int parse_sky) {
    if (h == NULL || out == NULL) return -1;
    char *eol = next_line(h);
    if (eol == NULL) return 0;
    clear_report(out);
    struct gps_data_t *d = &h->data;
    /* Only what this read sets must count: libgps accumulates into the struct otherwise. */
    d->set = 0;
    *eol = '\0';
    char *line = h->buffer + h->start;
    h->start = (size_t)(eol - h->buffer) + 1;
    if (!parse_sky && strncmp(line, sky_prefix, sizeof sky_prefix - 1) == 0) {
        out->got = CGPS_GOT_SKY_SKIPPED;
        return 1;
    }
    /* A SKY that carries satellites names them in an array; one with only the DOPs (gpsd sends those
       between, e.g. from a u-blox's NAV-DOP) still sets SATELLITE_SET, with counts of 0. Looked for
       before unpacking, which may write into the line. */
    int names_satellites = strstr(line, "\"satellites\":") != NULL;
    if (is_devices_line(line)) {
        char path[sizeof out->device];
        if (first_path(line, path, sizeof path)) report_device(h, out, path);
        return 1;
    }
    /* gps_read's answer for a line libgps cannot unpack, kept (gps_unpack of gpsd 3.22 to 3.27
       always answers 0: a line it cannot read sets nothing, and out->got says so). */
    if (lib.unpack(line, d) < 0) return -1;
    if (d->set & VERSION_SET) out->got |= CGPS_GOT_VERSION;

    if (d->set & MODE_SET) {
        out->got |= CGPS_GOT_TPV;
        out->mode = d->fix.mode;
        out->status = map_status(d->fix.status);
        if (d->set & TIME_SET) {
            out->time_valid = 1;
            out->time_sec = (int64_t)d->fix.time.tv_sec;
            out->time_nsec = (int64_t)d->fix.time.tv_nsec;
        }
        if (d->set & LATLON_SET) {
            out->lat = d->fix.latitude;
            out->lon = d->fix.longitude;
        }
        if (d->set & ALTITUDE_SET) out->alt = isfinite(d->fix.altMSL) ? d->fix.altMSL : d->fix.altHAE;
        if (d->set & SPEED_SET) out->speed = d->fix.speed;
        if (d->set & TRACK_SET) out->track = d->fix.track;
        /* Each error estimate that came: libgps sets HERR_SET only when both epx and epy did, and a
           receiver that gives eph alone (u-blox hAcc without a DOP message) would lose it. A TPV's
           fields are NaN unless it carries them (libgps's defaults for every TPV it unpacks). */
        if (isfinite(d->fix.eph)) out->eph = d->fix.eph;
        if (isfinite(d->fix.epx)) out->epx = d->fix.epx;
        if (isfinite(d->fix.epy)) out->epy = d->fix.epy;
        if (isfinite(d->fix.epv)) out->epv = d->fix.epv;
    }
    if ((d->set & SATELLITE_SET) && names_satellites) {
        out->got |= CGPS_GOT_SKY;
        out->satellites_used = d->satellites_used;
        out->satellites_visible = d->satellites_visible;
    }
    /* DEVICES never reaches libgps (is_devices_line): its first path was reported above. */
    if ((d->set & (DEVICE_SET | MODE_SET)) && d->dev.path[0] != '\0') {
        report_device(h, out, d->dev.path);
    }
    if (d->set & ERROR_SET) {
        out->got |= CGPS_GOT_ERROR;
        copy_text(out->error, sizeof out->error, d->error);
    }
    return 1;
}

void cgps_close(cgps_handle *h) {
    if (h == NULL) return;
    (void)lib.close(&h->data);
    free(h);
}

const char *cgps_errstr(int err) {
    if (err == ENOMEM) return "out of memory";
    if (err == CGPS_ERR_NO_LIBRARY) return "libgps is not loaded";
    if (err == CGPS_ERR_RESOLVE_TIMEOUT) return "its name was not resolved within the connect timeout (check the DNS, or use an address)";
    /* A system error (the probe's, or one libgps left in errno): libgps's own codes are negative. */
    if (err > 0) return strerror(err);
    if (cgps_library_load() != 0) return "libgps is not loaded";
    const char *s = lib.errstr(err);
    return s != NULL ? s : "unknown error";
}
