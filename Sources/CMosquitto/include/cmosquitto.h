#ifndef CMOSQUITTO_H
#define CMOSQUITTO_H
/*
 * Shim over libmosquitto (Debian 12: 2.0.x): typed functions prefixed cmosq_, so Swift never
 * sees libmosquitto's callback signatures or its struct. The network loop runs on a thread of the
 * shim's own (cmosq_loop_start), never on Swift's cooperative pool; the three callbacks below are
 * called on that thread. Unlike libmosquitto's loop_start thread, it does not end on a TLS, name
 * lookup or protocol failure: it reports it (a disconnection with that code), asks the caller how
 * long to wait (cmosq_delay_callback: the back-off is the caller's one rule) and tries again.
 * See: https://mosquitto.org/api/files/mosquitto-h.html
 */
#include <stdbool.h>
#include <stddef.h>

typedef struct cmosq_client cmosq_client;

/* CONNACK arrived: rc 0 accepted; 1..5 refused (4: bad user name or password, 5: not authorised). */
typedef void (*cmosq_connect_callback)(void *context, int rc);
/* The connection ended: rc 0 asked for by cmosq_disconnect, anything else unexpected. */
/* rc: libmosquitto's code (0: asked for); err: the errno of a failed reconnect (rc MOSQ_ERR_ERRNO,
 * "Connection refused"), else 0. */
typedef void (*cmosq_disconnect_callback)(void *context, int rc, int err);
/* The broker acknowledged message `mid` (PUBACK for QoS 1). */
typedef void (*cmosq_publish_callback)(void *context, int mid);
/* SUBACK for subscription `mid`; `refused` when the broker did not grant it. */
typedef void (*cmosq_subscribe_callback)(void *context, int mid, bool refused);
/* A message on a subscribed topic: `payload` (`length` bytes, not terminated) and `topic` are the
   library's, valid during the call only; `retained` when the broker kept it from before. */
typedef void (*cmosq_message_callback)(void *context, const char *topic, const void *payload, int length,
                                       bool retained);
/* A connection attempt failed or a connection was lost: milliseconds to wait before the next one. */
typedef unsigned int (*cmosq_delay_callback)(void *context);

/* libmosquitto is opened with dlopen by the first cmosq_lib_init_once or cmosq_new, not linked
 * (cmosquitto.c says why). The soname opened ("libmosquitto.so.1"): */
const char *cmosq_library_soname(void);
/* Opens libmosquitto and resolves every function this shim calls, once per process (thread-safe; after
 * a failure the next call tries again). 0 when it is ready, -1 when it cannot be loaded: then
 * cmosq_library_error() says why (the loader's text). */
int cmosq_library_load(void);
const char *cmosq_library_error(void);
/* Opens `soname` the way cmosq_library_load does, checks it has every function, and closes it again,
 * leaving the shim's own library alone: 0 when it would do, -1 with the reason in `error`. */
int cmosq_library_probe(const char *soname, char *error, size_t capacity);

/* mosquitto_lib_init exactly once per process (pthread_once); returns its result
 * (MOSQ_ERR_NOT_SUPPORTED when libmosquitto cannot be loaded). */
int cmosq_lib_init_once(void);

/* A client with a clean session; NULL when out of memory or client_id is not acceptable.
 * `context` is passed back to every callback. Keepalive is given to connect. */
cmosq_client *cmosq_new(const char *client_id, void *context, cmosq_connect_callback on_connect,
                        cmosq_disconnect_callback on_disconnect, cmosq_publish_callback on_publish,
                        cmosq_delay_callback next_delay_ms);
/* Stops nothing: call cmosq_loop_stop first when the loop thread was started. */
void cmosq_destroy(cmosq_client *client);

/* libmosquitto copies both strings; password may be NULL. */
int cmosq_set_login(cmosq_client *client, const char *username, const char *password);
/* TLS with `ca_file`, or with the system CAs in /etc/ssl/certs when ca_file is NULL or empty.
 * The broker's host name is checked against its certificate. */
int cmosq_set_tls(cmosq_client *client, const char *ca_file);
int cmosq_set_will(cmosq_client *client, const char *topic, const void *payload, int length, int qos, bool retain);

/* Non-blocking connect: resolves the name and starts the TCP connect; the result arrives as a callback. */
int cmosq_connect_async(cmosq_client *client, const char *host, int port, int keepalive_s);
/* Blocking connect (DNS, TCP and TLS handshake); CONNACK still arrives through cmosq_loop. */
int cmosq_connect(cmosq_client *client, const char *host, int port, int keepalive_s);
/* One pass of the network loop in the calling thread (for one-shot use, with no loop thread). */
int cmosq_loop(cmosq_client *client, int timeout_ms);
/* The network thread: runs the loop and reconnects, waiting what cmosq_delay_callback says. */
int cmosq_loop_start(cmosq_client *client);
int cmosq_loop_stop(cmosq_client *client, bool force);

int cmosq_publish(cmosq_client *client, const char *topic, const void *payload, int length, int qos, bool retain,
                  int *mid);
/* Subscribes to `topic` (no wildcards needed by fixcast) at `qos`; SUBACK and the topic's messages come to the
   two callbacks, on the thread that runs the loop. The message id is put in `mid`. */
int cmosq_subscribe_with(cmosq_client *client, const char *topic, int qos, cmosq_subscribe_callback on_subscribe,
                         cmosq_message_callback on_message, int *mid);
int cmosq_disconnect(cmosq_client *client);

const char *cmosq_strerror(int rc);
const char *cmosq_connack_string(int rc);
/* errno as it was right after a call that returned MOSQ_ERR_ERRNO. */
int cmosq_errno(void);

/* 1 when the client's TCP connection is established (it has a peer), else 0: after a started
   connect (cmosq_connect_async), whether the host answered the TCP handshake at all. */
int cmosq_tcp_connected(cmosq_client *client);

/* Error codes Swift branches on (copies of MOSQ_ERR_*, so Swift needs no libmosquitto enum). */
enum {
    CMOSQ_OK = 0,
    CMOSQ_ERR_NOMEM = 1,
    CMOSQ_ERR_PROTOCOL = 2,
    CMOSQ_ERR_INVAL = 3,
    CMOSQ_ERR_NO_CONN = 4,
    CMOSQ_ERR_CONN_REFUSED = 5,
    CMOSQ_ERR_CONN_LOST = 7,
    CMOSQ_ERR_TLS = 8,
    CMOSQ_ERR_AUTH = 11,
    CMOSQ_ERR_ERRNO = 14,
    CMOSQ_ERR_EAI = 15,
    CMOSQ_ERR_KEEPALIVE = 19,
    CMOSQ_ERR_LOOKUP = 20,
    CMOSQ_ERR_TLS_HANDSHAKE = 23,
};

#endif
