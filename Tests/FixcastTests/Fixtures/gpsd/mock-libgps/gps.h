/*
 * A stand-in for later libgps headers, reduced to what Sources/CGPS/cgps.c uses, so the shim can be
 * compiled against the API changes listed in shared/gpsd-logs/NOTES.md without installing those gpsd
 * releases. Declarations follow gpsd's include/gps.h of each release; layouts are NOT the real ones
 * (never link against this). Choose the release with:
 *   MOCK_API=12|14|16    GPSD_API_MAJOR_VERSION
 *   MOCK_STREAM_NEW=1    gps_stream(struct gps_data_t *, watch_t, const char *)  (gpsd 3.25+, API 14)
 *   MOCK_SOCKET_INTPTR=1 socket_t is intptr_t                                  (gpsd 3.26+)
 */
#ifndef MOCK_GPS_H
#define MOCK_GPS_H
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#define GPSD_API_MAJOR_VERSION MOCK_API
#define GPSD_API_MINOR_VERSION 0
#define MAXUSERDEVS 4
#define GPS_PATH_MAX 128

typedef struct timespec timespec_t;
typedef uint64_t gps_mask_t;

#if MOCK_SOCKET_INTPTR
typedef intptr_t socket_t;
#else
typedef int socket_t;
#endif
typedef socket_t gps_fd_t;

#if MOCK_API >= 14
typedef unsigned int watch_t;
#endif

struct gps_fix_t {
    timespec_t time;
    int mode;
#define MODE_NOT_SEEN 0
#define MODE_NO_FIX 1
#define MODE_2D 2
#define MODE_3D 3
    int status;
#if MOCK_API >= 14
#define STATUS_UNK 0
#define STATUS_GPS 1
#define STATUS_DGPS 2
#else
#define STATUS_NO_FIX 0
#define STATUS_FIX 1
#define STATUS_DGPS_FIX 2
#endif
#define STATUS_RTK_FIX 3
    double ept, latitude, epy, longitude, epx, altitude, altHAE, altMSL, epv, track, epd, speed, eps, climb, epc, eph;
};

struct devconfig_t {
    char path[GPS_PATH_MAX];
    int flags;
    char driver[64];
};

struct gps_data_t {
    gps_mask_t set;
#define TIME_SET (1llu << 2)
#define LATLON_SET (1llu << 4)
#define ALTITUDE_SET (1llu << 5)
#define SPEED_SET (1llu << 6)
#define TRACK_SET (1llu << 7)
#define STATUS_SET (1llu << 9)
#define MODE_SET (1llu << 10)
#define HERR_SET (1llu << 12)
#define VERR_SET (1llu << 13)
#define SATELLITE_SET (1llu << 15)
#define DEVICE_SET (1llu << 19)
#define DEVICELIST_SET (1llu << 20)
#define VERSION_SET (1llu << 28)
#define ERROR_SET (1llu << 31)
    gps_fd_t gps_fd;
    struct gps_fix_t fix;
    int satellites_used;
    int satellites_visible;
    struct devconfig_t dev;
    struct {
        timespec_t time;
        int ndevices;
        struct devconfig_t list[MAXUSERDEVS];
    } devices;
    union {
        char error[256];
        double other[4];
    };
    void *privdata;
};

#define WATCH_ENABLE 0x000001u
#define WATCH_JSON 0x000010u

extern int gps_open(const char *, const char *, struct gps_data_t *);
extern int gps_close(struct gps_data_t *);
extern int gps_read(struct gps_data_t *, char *message, int message_len);
extern bool gps_waiting(const struct gps_data_t *, int);
extern int gps_unpack(char *, struct gps_data_t *);
#if MOCK_STREAM_NEW
extern int gps_stream(struct gps_data_t *, watch_t, const char *);
#else
extern int gps_stream(struct gps_data_t *, unsigned int, void *);
#endif
extern const char *gps_errstr(const int);
#endif
