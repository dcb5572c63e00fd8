#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread_setname_np */
#endif
/*
 * The only code that touches libmosquitto. It is not linked: it is opened with dlopen when the first
 * client is made (cmosq_library_load), so the commands that never publish never map it (and its TLS
 * libraries). A client exists only once the library is loaded, so only cmosq_lib_init_once, cmosq_new
 * and the two text functions check.
 */
#include "cmosquitto.h"

#include <stddef.h>

#include "clazylibrary.h"
#include <errno.h>
#include <sys/socket.h>
#include <mosquitto.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* libmosquitto has been libmosquitto.so.1 since 1.x; LIBMOSQUITTO_MAJOR is its release, not its ABI. */
#define CMOSQ_SONAME "libmosquitto.so.1"

/* Every libmosquitto function this file calls, with the headers' own prototypes. */
struct cmosq_table {
    __typeof__(&mosquitto_connack_string) connack_string;
    __typeof__(&mosquitto_connect) connect;
    __typeof__(&mosquitto_connect_async) connect_async;
    __typeof__(&mosquitto_connect_callback_set) connect_callback_set;
    __typeof__(&mosquitto_destroy) destroy;
    __typeof__(&mosquitto_disconnect) disconnect;
    __typeof__(&mosquitto_disconnect_callback_set) disconnect_callback_set;
    __typeof__(&mosquitto_lib_init) lib_init;
    __typeof__(&mosquitto_loop) loop;
    __typeof__(&mosquitto_message_callback_set) message_callback_set;
    __typeof__(&mosquitto_new) new;
    __typeof__(&mosquitto_publish) publish;
    __typeof__(&mosquitto_publish_callback_set) publish_callback_set;
    __typeof__(&mosquitto_reconnect) reconnect;
    __typeof__(&mosquitto_socket) socket;
    __typeof__(&mosquitto_strerror) strerror;
    __typeof__(&mosquitto_subscribe) subscribe;
    __typeof__(&mosquitto_subscribe_callback_set) subscribe_callback_set;
    __typeof__(&mosquitto_threaded_set) threaded_set;
    __typeof__(&mosquitto_tls_set) tls_set;
    __typeof__(&mosquitto_username_pw_set) username_pw_set;
    __typeof__(&mosquitto_will_set) will_set;
};

/* Where each function's pointer goes in the table (CLazyLibrary resolves them all or none). */
static const struct clazy_symbol symbols[] = {
    {"mosquitto_connack_string", offsetof(struct cmosq_table, connack_string)},
    {"mosquitto_connect", offsetof(struct cmosq_table, connect)},
    {"mosquitto_connect_async", offsetof(struct cmosq_table, connect_async)},
    {"mosquitto_connect_callback_set", offsetof(struct cmosq_table, connect_callback_set)},
    {"mosquitto_destroy", offsetof(struct cmosq_table, destroy)},
    {"mosquitto_disconnect", offsetof(struct cmosq_table, disconnect)},
    {"mosquitto_disconnect_callback_set", offsetof(struct cmosq_table, disconnect_callback_set)},
    {"mosquitto_lib_init", offsetof(struct cmosq_table, lib_init)},
    {"mosquitto_loop", offsetof(struct cmosq_table, loop)},
    {"mosquitto_message_callback_set", offsetof(struct cmosq_table, message_callback_set)},
    {"mosquitto_new", offsetof(struct cmosq_table, new)},
    {"mosquitto_publish", offsetof(struct cmosq_table, publish)},
    {"mosquitto_publish_callback_set", offsetof(struct cmosq_table, publish_callback_set)},
    {"mosquitto_reconnect", offsetof(struct cmosq_table, reconnect)},
    {"mosquitto_socket", offsetof(struct cmosq_table, socket)},
    {"mosquitto_strerror", offsetof(struct cmosq_table, strerror)},
    {"mosquitto_subscribe", offsetof(struct cmosq_table, subscribe)},
    {"mosquitto_subscribe_callback_set", offsetof(struct cmosq_table, subscribe_callback_set)},
    {"mosquitto_threaded_set", offsetof(struct cmosq_table, threaded_set)},
    {"mosquitto_tls_set", offsetof(struct cmosq_table, tls_set)},
    {"mosquitto_username_pw_set", offsetof(struct cmosq_table, username_pw_set)},
    {"mosquitto_will_set", offsetof(struct cmosq_table, will_set)},
};
#define SYMBOL_COUNT (sizeof symbols / sizeof symbols[0])

static struct clazy_library library = CLAZY_LIBRARY_INIT;
static struct cmosq_table lib;

const char *cmosq_library_soname(void) { return CMOSQ_SONAME; }

/* Never closed: libmosquitto stays for the rest of the process once a command has used it. */
int cmosq_library_load(void) { return clazy_load(&library, cmosq_library_soname(), symbols, SYMBOL_COUNT, &lib); }

const char *cmosq_library_error(void) { return clazy_error(&library); }

int cmosq_library_probe(const char *soname, char *error, size_t capacity) {
    return clazy_probe(soname, symbols, SYMBOL_COUNT, error, capacity);
}

struct cmosq_client {
    struct mosquitto *mosq;
    void *context;
    cmosq_connect_callback on_connect;
    cmosq_disconnect_callback on_disconnect;
    cmosq_publish_callback on_publish;
    /* Set by cmosq_subscribe_with: SUBACK and the messages of the subscriptions. */
    cmosq_subscribe_callback on_subscribe;
    cmosq_message_callback on_message;
    /* How long to wait before the next connection attempt: asked of the caller at each failure, so
     * one rule (Swift's ReconnectBackoff) decides the timing, not this file or libmosquitto. */
    cmosq_delay_callback next_delay_ms;
    /* The network thread (cmosq_loop_start) and what stops it. */
    pthread_t thread;
    bool thread_running;
    pthread_mutex_t stop_mutex;
    pthread_cond_t stop_cond;
    bool stopping;
    /* cmosq_disconnect was called: the loop ends once the DISCONNECT is out. */
    bool disconnect_asked;
    /* The keepalive asked at connect: the network thread sleeps that long between packets. */
    int keepalive_s;
    /* libmosquitto reported the end of the connection itself (its disconnect callback) during the
     * network thread's current run of loop passes: the thread does not report it a second time. */
    bool disconnect_reported;
};

_Static_assert(CMOSQ_ERR_EAI == MOSQ_ERR_EAI, "MOSQ_ERR_EAI moved");
_Static_assert(CMOSQ_ERR_TLS == MOSQ_ERR_TLS, "MOSQ_ERR_TLS moved");
_Static_assert(CMOSQ_ERR_ERRNO == MOSQ_ERR_ERRNO, "MOSQ_ERR_ERRNO moved");
_Static_assert(CMOSQ_ERR_TLS_HANDSHAKE == MOSQ_ERR_TLS_HANDSHAKE, "MOSQ_ERR_TLS_HANDSHAKE moved");
_Static_assert(CMOSQ_ERR_NO_CONN == MOSQ_ERR_NO_CONN, "MOSQ_ERR_NO_CONN moved");

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_result = 0;
static _Thread_local int last_errno = 0;

static void do_init(void) { init_result = lib.lib_init(); }

int cmosq_lib_init_once(void) {
    if (cmosq_library_load() != 0) return MOSQ_ERR_NOT_SUPPORTED;
    pthread_once(&init_once, do_init);
    return init_result;
}

static void connect_trampoline(struct mosquitto *mosq, void *obj, int rc) {
    (void)mosq;
    cmosq_client *c = obj;
    if (c->on_connect) c->on_connect(c->context, rc);
}

static void disconnect_trampoline(struct mosquitto *mosq, void *obj, int rc) {
    (void)mosq;
    cmosq_client *c = obj;
    c->disconnect_reported = true;
    if (c->on_disconnect) c->on_disconnect(c->context, rc, 0);
}

static void publish_trampoline(struct mosquitto *mosq, void *obj, int mid) {
    (void)mosq;
    cmosq_client *c = obj;
    if (c->on_publish) c->on_publish(c->context, mid);
}

static void subscribe_trampoline(struct mosquitto *mosq, void *obj, int mid, int qos_count, const int *granted) {
    (void)mosq;
    cmosq_client *c = obj;
    /* 0x80 (128) in the granted list: the broker refused the subscription. */
    bool refused = qos_count < 1 || granted == NULL || granted[0] >= 128;
    if (c->on_subscribe) c->on_subscribe(c->context, mid, refused);
}

static void message_trampoline(struct mosquitto *mosq, void *obj, const struct mosquitto_message *m) {
    (void)mosq;
    cmosq_client *c = obj;
    if (c->on_message && m != NULL && m->topic != NULL)
        c->on_message(c->context, m->topic, m->payload, m->payloadlen, m->retain);
}

cmosq_client *cmosq_new(const char *client_id, void *context, cmosq_connect_callback on_connect,
                        cmosq_disconnect_callback on_disconnect, cmosq_publish_callback on_publish,
                        cmosq_delay_callback next_delay_ms) {
    if (cmosq_lib_init_once() != MOSQ_ERR_SUCCESS) return NULL;
    cmosq_client *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->context = context;
    c->on_connect = on_connect;
    c->on_disconnect = on_disconnect;
    c->on_publish = on_publish;
    c->next_delay_ms = next_delay_ms;
    pthread_mutex_init(&c->stop_mutex, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&c->stop_cond, &attr);
    pthread_condattr_destroy(&attr);
    c->mosq = lib.new(client_id, true, c);
    if (!c->mosq) {
        pthread_cond_destroy(&c->stop_cond);
        pthread_mutex_destroy(&c->stop_mutex);
        free(c);
        return NULL;
    }
    lib.connect_callback_set(c->mosq, connect_trampoline);
    lib.disconnect_callback_set(c->mosq, disconnect_trampoline);
    lib.publish_callback_set(c->mosq, publish_trampoline);
    return c;
}

void cmosq_destroy(cmosq_client *client) {
    if (!client) return;
    lib.destroy(client->mosq);
    pthread_cond_destroy(&client->stop_cond);
    pthread_mutex_destroy(&client->stop_mutex);
    free(client);
}

int cmosq_set_login(cmosq_client *client, const char *username, const char *password) {
    return lib.username_pw_set(client->mosq, username, password);
}

int cmosq_set_tls(cmosq_client *client, const char *ca_file) {
    if (ca_file && ca_file[0] != '\0') return lib.tls_set(client->mosq, ca_file, NULL, NULL, NULL, NULL);
    return lib.tls_set(client->mosq, NULL, "/etc/ssl/certs", NULL, NULL, NULL);
}

int cmosq_set_will(cmosq_client *client, const char *topic, const void *payload, int length, int qos, bool retain) {
    return lib.will_set(client->mosq, topic, length, payload, qos, retain);
}

static int keep_errno(int rc) {
    last_errno = (rc == MOSQ_ERR_ERRNO) ? errno : 0;
    return rc;
}

int cmosq_connect_async(cmosq_client *client, const char *host, int port, int keepalive_s) {
    client->keepalive_s = keepalive_s;
    errno = 0;
    return keep_errno(lib.connect_async(client->mosq, host, port, keepalive_s));
}

int cmosq_connect(cmosq_client *client, const char *host, int port, int keepalive_s) {
    client->keepalive_s = keepalive_s;
    errno = 0;
    return keep_errno(lib.connect(client->mosq, host, port, keepalive_s));
}

int cmosq_loop(cmosq_client *client, int timeout_ms) {
    errno = 0;
    return keep_errno(lib.loop(client->mosq, timeout_ms, 1));
}

static void unlock_mutex(void *mutex) { pthread_mutex_unlock(mutex); }

/* Waits `ms` milliseconds or until cmosq_loop_stop; true when it is time to stop. */
static bool wait_or_stop(cmosq_client *c, unsigned int ms) {
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec += 1;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&c->stop_mutex);
    /* A forced stop cancels the thread inside the wait, which returns holding the mutex. */
    pthread_cleanup_push(unlock_mutex, &c->stop_mutex);
    while (!c->stopping) {
        if (pthread_cond_timedwait(&c->stop_cond, &c->stop_mutex, &until) == ETIMEDOUT) break;
    }
    pthread_cleanup_pop(0);
    bool stop = c->stopping;
    pthread_mutex_unlock(&c->stop_mutex);
    return stop;
}

static bool stop_asked(cmosq_client *c) {
    pthread_mutex_lock(&c->stop_mutex);
    bool stop = c->stopping;
    pthread_mutex_unlock(&c->stop_mutex);
    return stop;
}

static bool disconnect_asked(cmosq_client *c) {
    pthread_mutex_lock(&c->stop_mutex);
    bool asked = c->disconnect_asked;
    pthread_mutex_unlock(&c->stop_mutex);
    return asked;
}

/*
 * The network thread: libmosquitto's loop, one pass at a time, and the reconnects. Not
 * mosquitto_loop_forever, which keeps a back-off of its own and returns for good on what it takes as
 * fatal (a TLS error, a failed name lookup, a protocol error), after which nothing would retry. Here
 * every failure is reported once (as a disconnection with its code, unless libmosquitto reported it
 * itself), a failed reconnect with its errno, the caller is asked how long to wait (next_delay_ms:
 * one back-off rule, in Swift), and a new connection is tried; only a disconnection asked for
 * (cmosq_disconnect) or cmosq_loop_stop ends the thread.
 */
static void *loop_main(void *arg) {
    cmosq_client *c = arg;
    /* As libmosquitto's own loop thread does: sleep up to the keepalive (libmosquitto shortens the wait
     * to the next PINGREQ and a publish from another thread wakes it, mosquitto_threaded_set), not the
     * 1 s that a timeout of -1 means, which would wake fixcast every second "just in case". */
    int timeout_ms = c->keepalive_s > 0 ? c->keepalive_s * 1000 : 86400 * 1000;
    for (;;) {
        int rc;
        c->disconnect_reported = false;
        do {
            rc = lib.loop(c->mosq, timeout_ms, 1);
        } while (rc == MOSQ_ERR_SUCCESS && !stop_asked(c));
        /* After cmosq_disconnect, the loop fails (no connection) once the DISCONNECT is out and the
         * socket closed; libmosquitto has reported that (rc 0). */
        if (stop_asked(c) || disconnect_asked(c)) break;
        /* Reported once: a second report of the same loss would come after the caller has marked
         * the link down, and read as a connection that failed on its way up (a TLS listener). */
        if (!c->disconnect_reported && c->on_disconnect) c->on_disconnect(c->context, rc, 0);
        /* Reconnect until a connection is made. A failed reconnect (a refused connection, a name that
         * does not resolve) is reported with its own code and errno, not left to the next loop pass:
         * that pass would say only "connection lost", which reads as a listener that took the TCP
         * connection and closed it at the MQTT handshake (a TLS port) when nothing listens at all. */
        for (;;) {
            unsigned int delay_ms = c->next_delay_ms ? c->next_delay_ms(c->context) : 1000;
            if (wait_or_stop(c, delay_ms)) return NULL;
            errno = 0;
            int again = lib.reconnect(c->mosq);
            if (again == MOSQ_ERR_SUCCESS) break;
            int err = again == MOSQ_ERR_ERRNO ? errno : 0;
            if (c->on_disconnect) c->on_disconnect(c->context, again, err);
        }
    }
    return NULL;
}

int cmosq_loop_start(cmosq_client *client) {
    if (client->thread_running) return MOSQ_ERR_INVAL;
    /* The library is told a thread of ours runs its loop: a publish from another thread then wakes it. */
    int rc = lib.threaded_set(client->mosq, true);
    if (rc != MOSQ_ERR_SUCCESS) return rc;
    pthread_mutex_lock(&client->stop_mutex);
    client->stopping = false;
    client->disconnect_asked = false;
    pthread_mutex_unlock(&client->stop_mutex);
    if (pthread_create(&client->thread, NULL, loop_main, client) != 0) return MOSQ_ERR_ERRNO;
    /* Named as libmosquitto names its own (a new thread would otherwise carry its creator's name). */
    (void)pthread_setname_np(client->thread, "mosquitto loop");
    client->thread_running = true;
    return MOSQ_ERR_SUCCESS;
}

int cmosq_loop_stop(cmosq_client *client, bool force) {
    if (!client->thread_running) return MOSQ_ERR_NO_CONN;
    pthread_mutex_lock(&client->stop_mutex);
    client->stopping = true;
    pthread_cond_broadcast(&client->stop_cond);
    pthread_mutex_unlock(&client->stop_mutex);
    /* Not forced, the thread ends after a disconnection (cmosq_disconnect); forced, as libmosquitto's
     * own loop_stop does, it is cancelled at its next wait. */
    if (force) pthread_cancel(client->thread);
    pthread_join(client->thread, NULL);
    client->thread_running = false;
    return MOSQ_ERR_SUCCESS;
}

int cmosq_publish(cmosq_client *client, const char *topic, const void *payload, int length, int qos, bool retain,
                  int *mid) {
    return lib.publish(client->mosq, mid, topic, length, payload, qos, retain);
}

int cmosq_subscribe_with(cmosq_client *client, const char *topic, int qos, cmosq_subscribe_callback on_subscribe,
                         cmosq_message_callback on_message, int *mid) {
    client->on_subscribe = on_subscribe;
    client->on_message = on_message;
    lib.subscribe_callback_set(client->mosq, subscribe_trampoline);
    lib.message_callback_set(client->mosq, message_trampoline);
    return lib.subscribe(client->mosq, mid, topic, qos);
}

int cmosq_disconnect(cmosq_client *client) {
    int rc = lib.disconnect(client->mosq);
    pthread_mutex_lock(&client->stop_mutex);
    client->disconnect_asked = rc == MOSQ_ERR_SUCCESS;
    pthread_mutex_unlock(&client->stop_mutex);
    return rc;
}

const char *cmosq_strerror(int rc) {
    if (cmosq_library_load() != 0) return "libmosquitto is not loaded";
    return lib.strerror(rc);
}

const char *cmosq_connack_string(int rc) {
    if (cmosq_library_load() != 0) return "libmosquitto is not loaded";
    return lib.connack_string(rc);
}

int cmosq_errno(void) { return last_errno; }

int cmosq_tcp_connected(cmosq_client *client) {
    if (client == NULL) return 0;
    int fd = lib.socket(client->mosq);
    if (fd < 0) return 0;
    struct sockaddr_storage peer;
    socklen_t length = sizeof peer;
    return getpeername(fd, (struct sockaddr *)&peer, &length) == 0 ? 1 : 0;
}
