/*
 * The only code that touches libcurl. libcurl is not linked: it is opened with dlopen at the first
 * transfer (ccurl_library_load), so the commands that never fetch anything (line, status, trips,
 * export, report, config) never map it and its ~25 dependencies (TLS, Kerberos, LDAP, SSH, HTTP/2 ...),
 * which cost every start ~5 ms and ~5 MB when linked (bench/README.md, "fixcast line"). Each ccurl_
 * function calls libcurl through a pointer resolved once; while the library cannot be loaded they fail
 * as libcurl would (NULL, CURLE_FAILED_INIT) and the Swift side says why in one sentence.
 */
#define CURL_DISABLE_TYPECHECK /* the type-checking macros would expand curl_easy_setopt( below */
#include "ccurl.h"
#include <stddef.h>

#include "clazylibrary.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The soname the headers' ABI is: libcurl 7.16+ has been libcurl.so.4 for every release since 2006. */
#define CCURL_SONAME "libcurl.so.4"

/* Every libcurl function this file calls, with the headers' own prototypes. */
struct ccurl_table {
    __typeof__(&curl_global_init) global_init;
    __typeof__(&curl_easy_init) easy_init;
    __typeof__(&curl_easy_cleanup) easy_cleanup;
    __typeof__(&curl_easy_perform) easy_perform;
    __typeof__(&curl_easy_strerror) easy_strerror;
    __typeof__(&curl_easy_setopt) easy_setopt;
    __typeof__(&curl_easy_getinfo) easy_getinfo;
    __typeof__(&curl_slist_append) slist_append;
    __typeof__(&curl_slist_free_all) slist_free_all;
    __typeof__(&curl_url) url;
    __typeof__(&curl_url_set) url_set;
    __typeof__(&curl_url_get) url_get;
    __typeof__(&curl_url_cleanup) url_cleanup;
    __typeof__(&curl_free) free_memory;
};

/* Where each function's pointer goes in the table (CLazyLibrary resolves them all or none). */
static const struct clazy_symbol symbols[] = {
    {"curl_global_init", offsetof(struct ccurl_table, global_init)},
    {"curl_easy_init", offsetof(struct ccurl_table, easy_init)},
    {"curl_easy_cleanup", offsetof(struct ccurl_table, easy_cleanup)},
    {"curl_easy_perform", offsetof(struct ccurl_table, easy_perform)},
    {"curl_easy_strerror", offsetof(struct ccurl_table, easy_strerror)},
    {"curl_easy_setopt", offsetof(struct ccurl_table, easy_setopt)},
    {"curl_easy_getinfo", offsetof(struct ccurl_table, easy_getinfo)},
    {"curl_slist_append", offsetof(struct ccurl_table, slist_append)},
    {"curl_slist_free_all", offsetof(struct ccurl_table, slist_free_all)},
    {"curl_url", offsetof(struct ccurl_table, url)},
    {"curl_url_set", offsetof(struct ccurl_table, url_set)},
    {"curl_url_get", offsetof(struct ccurl_table, url_get)},
    {"curl_url_cleanup", offsetof(struct ccurl_table, url_cleanup)},
    {"curl_free", offsetof(struct ccurl_table, free_memory)},
};
#define SYMBOL_COUNT (sizeof symbols / sizeof symbols[0])

static struct clazy_library library = CLAZY_LIBRARY_INIT;
static struct ccurl_table lib;

const char *ccurl_library_soname(void) { return CCURL_SONAME; }

/* Never closed: libcurl stays for the rest of the process once a command has used it. */
int ccurl_library_load(void) { return clazy_load(&library, ccurl_library_soname(), symbols, SYMBOL_COUNT, &lib); }

const char *ccurl_library_error(void) { return clazy_error(&library); }

int ccurl_library_probe(const char *soname, char *error, size_t capacity) {
    return clazy_probe(soname, symbols, SYMBOL_COUNT, error, capacity);
}

#define LIB_OR(failure) \
    if (ccurl_library_load() != 0) return failure

static pthread_once_t ccurl_once = PTHREAD_ONCE_INIT;
static CURLcode ccurl_init_result = CURLE_OK;

static void ccurl_do_global_init(void) { ccurl_init_result = lib.global_init(CURL_GLOBAL_DEFAULT); }

CURLcode ccurl_global_init_once(void) {
    LIB_OR(CURLE_FAILED_INIT);
    pthread_once(&ccurl_once, ccurl_do_global_init);
    return ccurl_init_result;
}

CURL *ccurl_easy_init(void) {
    LIB_OR(NULL);
    return lib.easy_init();
}
void ccurl_easy_cleanup(CURL *handle) {
    if (handle == NULL || ccurl_library_load() != 0) return;
    lib.easy_cleanup(handle);
}
CURLcode ccurl_easy_perform(CURL *handle) {
    LIB_OR(CURLE_FAILED_INIT);
    return lib.easy_perform(handle);
}
const char *ccurl_easy_strerror(CURLcode code) {
    LIB_OR("libcurl is not loaded");
    return lib.easy_strerror(code);
}

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    LIB_OR(CURLE_FAILED_INIT);
    return lib.easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_str(CURL *handle, CURLoption option, const char *value) {
    LIB_OR(CURLE_FAILED_INIT);
    return lib.easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_ptr(CURL *handle, CURLoption option, void *value) {
    LIB_OR(CURLE_FAILED_INIT);
    return lib.easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, long long value) {
    LIB_OR(CURLE_FAILED_INIT);
    return lib.easy_setopt(handle, option, (curl_off_t)value);
}
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *list) {
    LIB_OR(CURLE_FAILED_INIT);
    return lib.easy_setopt(handle, option, list);
}

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *out) {
    LIB_OR(CURLE_FAILED_INIT);
    return lib.easy_getinfo(handle, info, out);
}
CURLcode ccurl_easy_getinfo_str(CURL *handle, CURLINFO info, const char **out) {
    *out = NULL;
    LIB_OR(CURLE_FAILED_INIT);
    char *value = NULL;
    CURLcode rc = lib.easy_getinfo(handle, info, &value);
    *out = value;
    return rc;
}
CURLcode ccurl_easy_getinfo_double(CURL *handle, CURLINFO info, double *out) {
    LIB_OR(CURLE_FAILED_INIT);
    return lib.easy_getinfo(handle, info, out);
}

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *value) {
    LIB_OR(NULL);
    return lib.slist_append(list, value);
}
void ccurl_slist_free_all(struct curl_slist *list) {
    if (list == NULL || ccurl_library_load() != 0) return;
    lib.slist_free_all(list);
}

CURLcode ccurl_easy_set_write_callback(CURL *handle, ccurl_data_callback callback, void *context) {
    LIB_OR(CURLE_FAILED_INIT);
    CURLcode rc = lib.easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
    if (rc != CURLE_OK) return rc;
    return lib.easy_setopt(handle, CURLOPT_WRITEDATA, context);
}

CURLcode ccurl_easy_set_header_callback(CURL *handle, ccurl_data_callback callback, void *context) {
    LIB_OR(CURLE_FAILED_INIT);
    CURLcode rc = lib.easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
    if (rc != CURLE_OK) return rc;
    return lib.easy_setopt(handle, CURLOPT_HEADERDATA, context);
}

CURLcode ccurl_easy_set_progress_callback(CURL *handle, ccurl_progress_callback callback, void *context) {
    LIB_OR(CURLE_FAILED_INIT);
    CURLcode rc = lib.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
    if (rc != CURLE_OK) return rc;
    rc = lib.easy_setopt(handle, CURLOPT_XFERINFODATA, context);
    if (rc != CURLE_OK) return rc;
    return lib.easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
}

#if LIBCURL_VERSION_NUM < 0x075500
static long ccurl_protocol_mask(const char *list) {
    long mask = 0;
    if (strstr(list, "https") != NULL) mask |= CURLPROTO_HTTPS;
    /* "http" as a whole word: either at the start followed by ',' or end, or after a ','. */
    const char *p = list;
    while ((p = strstr(p, "http")) != NULL) {
        if ((p == list || p[-1] == ',') && (p[4] == '\0' || p[4] == ',')) { mask |= CURLPROTO_HTTP; break; }
        p += 4;
    }
    return mask;
}
#endif

CURLcode ccurl_easy_set_protocols(CURL *handle, const char *protocols, const char *redirect_protocols) {
    LIB_OR(CURLE_FAILED_INIT);
#if LIBCURL_VERSION_NUM >= 0x075500
    CURLcode rc = lib.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, protocols);
    if (rc != CURLE_OK) return rc;
    return lib.easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, redirect_protocols);
#else
    CURLcode rc = lib.easy_setopt(handle, CURLOPT_PROTOCOLS, ccurl_protocol_mask(protocols));
    if (rc != CURLE_OK) return rc;
    return lib.easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS, ccurl_protocol_mask(redirect_protocols));
#endif
}

int ccurl_url_origin(const char *url, char **scheme, char **host, long *port) {
    *scheme = NULL;
    *host = NULL;
    *port = 0;
    LIB_OR(-1);
    char *port_text = NULL;
    CURLU *u = lib.url();
    if (u == NULL) return -1;
    CURLUcode rc = lib.url_set(u, CURLUPART_URL, url, 0);
    if (rc == CURLUE_OK) rc = lib.url_get(u, CURLUPART_SCHEME, scheme, 0);
    if (rc == CURLUE_OK) rc = lib.url_get(u, CURLUPART_HOST, host, 0);
    /* CURLU_DEFAULT_PORT: the scheme's port when the URL names none, so that http://h/ and http://h:80/
     * compare equal. */
    if (rc == CURLUE_OK) rc = lib.url_get(u, CURLUPART_PORT, &port_text, CURLU_DEFAULT_PORT);
    if (rc == CURLUE_OK && port_text != NULL) *port = strtol(port_text, NULL, 10);
    if (port_text) lib.free_memory(port_text);
    lib.url_cleanup(u);
    if (rc != CURLUE_OK) {
        if (*scheme) { lib.free_memory(*scheme); *scheme = NULL; }
        if (*host) { lib.free_memory(*host); *host = NULL; }
        return (int)rc;
    }
    return 0;
}

void ccurl_free(void *pointer) {
    if (pointer == NULL || ccurl_library_load() != 0) return;
    lib.free_memory(pointer);
}

long ccurl_version_num(void) { return LIBCURL_VERSION_NUM; }
