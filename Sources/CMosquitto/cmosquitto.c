#include "cmosquitto.h"

#include <errno.h>
#include <mosquitto.h>
#include <pthread.h>
#include <stdlib.h>

struct cmosq_client {
    struct mosquitto *mosq;
    void *context;
    cmosq_connect_callback on_connect;
    cmosq_disconnect_callback on_disconnect;
    cmosq_publish_callback on_publish;
};

_Static_assert(CMOSQ_ERR_EAI == MOSQ_ERR_EAI, "MOSQ_ERR_EAI moved");
_Static_assert(CMOSQ_ERR_TLS == MOSQ_ERR_TLS, "MOSQ_ERR_TLS moved");
_Static_assert(CMOSQ_ERR_ERRNO == MOSQ_ERR_ERRNO, "MOSQ_ERR_ERRNO moved");
_Static_assert(CMOSQ_ERR_TLS_HANDSHAKE == MOSQ_ERR_TLS_HANDSHAKE, "MOSQ_ERR_TLS_HANDSHAKE moved");
_Static_assert(CMOSQ_ERR_NO_CONN == MOSQ_ERR_NO_CONN, "MOSQ_ERR_NO_CONN moved");

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_result = 0;
static _Thread_local int last_errno = 0;

static void do_init(void) { init_result = mosquitto_lib_init(); }

int cmosq_lib_init_once(void) {
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
    if (c->on_disconnect) c->on_disconnect(c->context, rc);
}

static void publish_trampoline(struct mosquitto *mosq, void *obj, int mid) {
    (void)mosq;
    cmosq_client *c = obj;
    if (c->on_publish) c->on_publish(c->context, mid);
}

cmosq_client *cmosq_new(const char *client_id, void *context, cmosq_connect_callback on_connect,
                        cmosq_disconnect_callback on_disconnect, cmosq_publish_callback on_publish) {
    if (cmosq_lib_init_once() != MOSQ_ERR_SUCCESS) return NULL;
    cmosq_client *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->context = context;
    c->on_connect = on_connect;
    c->on_disconnect = on_disconnect;
    c->on_publish = on_publish;
    c->mosq = mosquitto_new(client_id, true, c);
    if (!c->mosq) {
        free(c);
        return NULL;
    }
    mosquitto_connect_callback_set(c->mosq, connect_trampoline);
    mosquitto_disconnect_callback_set(c->mosq, disconnect_trampoline);
    mosquitto_publish_callback_set(c->mosq, publish_trampoline);
    return c;
}

void cmosq_destroy(cmosq_client *client) {
    if (!client) return;
    mosquitto_destroy(client->mosq);
    free(client);
}

int cmosq_set_login(cmosq_client *client, const char *username, const char *password) {
    return mosquitto_username_pw_set(client->mosq, username, password);
}

int cmosq_set_tls(cmosq_client *client, const char *ca_file) {
    if (ca_file && ca_file[0] != '\0') return mosquitto_tls_set(client->mosq, ca_file, NULL, NULL, NULL, NULL);
    return mosquitto_tls_set(client->mosq, NULL, "/etc/ssl/certs", NULL, NULL, NULL);
}

int cmosq_set_will(cmosq_client *client, const char *topic, const void *payload, int length, int qos, bool retain) {
    return mosquitto_will_set(client->mosq, topic, length, payload, qos, retain);
}

int cmosq_set_reconnect_backoff(cmosq_client *client, unsigned int min_s, unsigned int max_s) {
    return mosquitto_reconnect_delay_set(client->mosq, min_s, max_s, true);
}

static int keep_errno(int rc) {
    last_errno = (rc == MOSQ_ERR_ERRNO) ? errno : 0;
    return rc;
}

int cmosq_connect_async(cmosq_client *client, const char *host, int port, int keepalive_s) {
    errno = 0;
    return keep_errno(mosquitto_connect_async(client->mosq, host, port, keepalive_s));
}

int cmosq_connect(cmosq_client *client, const char *host, int port, int keepalive_s) {
    errno = 0;
    return keep_errno(mosquitto_connect(client->mosq, host, port, keepalive_s));
}

int cmosq_loop(cmosq_client *client, int timeout_ms) {
    errno = 0;
    return keep_errno(mosquitto_loop(client->mosq, timeout_ms, 1));
}

int cmosq_loop_start(cmosq_client *client) { return mosquitto_loop_start(client->mosq); }

int cmosq_loop_stop(cmosq_client *client, bool force) { return mosquitto_loop_stop(client->mosq, force); }

int cmosq_publish(cmosq_client *client, const char *topic, const void *payload, int length, int qos, bool retain,
                  int *mid) {
    return mosquitto_publish(client->mosq, mid, topic, length, payload, qos, retain);
}

int cmosq_disconnect(cmosq_client *client) { return mosquitto_disconnect(client->mosq); }

const char *cmosq_strerror(int rc) { return mosquitto_strerror(rc); }

const char *cmosq_connack_string(int rc) { return mosquitto_connack_string(rc); }

int cmosq_errno(void) { return last_errno; }
