#ifndef CCURL_H
#define CCURL_H
/*
 * Shim over libcurl: typed, non-variadic functions prefixed ccurl_.
 *
 * Swift cannot call curl_easy_setopt/curl_easy_getinfo (variadic, guarded by type-checking macros), so
 * every argument type gets its own function, as in swift-corelibs-foundation's _CFURLSessionInterface.
 * Version differences (CURLOPT_PROTOCOLS_STR arrived in 7.85.0) are settled here with #if, never in Swift.
 * libcurl is opened with dlopen at first use, not linked (ccurl.c says why): until it loads, every
 * function below fails as libcurl would (NULL, CURLE_FAILED_INIT, -1).
 * See: https://curl.se/libcurl/c/curl_easy_setopt.html
 */
#include <curl/curl.h>
#include <stddef.h>

/* The soname opened ("libcurl.so.4"). */
const char *ccurl_library_soname(void);
/* Opens libcurl and resolves every function this shim calls, once per process (thread-safe; after a
 * failure the next call tries again). 0 when it is ready, -1 when it cannot be loaded: then
 * ccurl_library_error() says why (the loader's text). */
int ccurl_library_load(void);
const char *ccurl_library_error(void);
/* Opens `soname` the way ccurl_library_load does, checks it has every function, and closes it again,
 * leaving the shim's own library alone: 0 when it would do, -1 with the reason in `error`. */
int ccurl_library_probe(const char *soname, char *error, size_t capacity);

/* curl_global_init(CURL_GLOBAL_DEFAULT) exactly once per process (pthread_once); returns its result. */
CURLcode ccurl_global_init_once(void);

CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
CURLcode ccurl_easy_perform(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_easy_setopt_str(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_easy_setopt_ptr(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, long long value);
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *list);

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *out);
CURLcode ccurl_easy_getinfo_str(CURL *handle, CURLINFO info, const char **out);
CURLcode ccurl_easy_getinfo_double(CURL *handle, CURLINFO info, double *out);

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *value);
void ccurl_slist_free_all(struct curl_slist *list);

/* A body or header chunk; return the number of bytes taken (anything else aborts the transfer). */
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *context);

CURLcode ccurl_easy_set_write_callback(CURL *handle, ccurl_data_callback callback, void *context);
CURLcode ccurl_easy_set_header_callback(CURL *handle, ccurl_data_callback callback, void *context);

/* Called often during a transfer; return non-zero to abort it (CURLE_ABORTED_BY_CALLBACK). */
typedef int (*ccurl_progress_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

/* Sets CURLOPT_XFERINFOFUNCTION/XFERINFODATA and turns CURLOPT_NOPROGRESS off. */
CURLcode ccurl_easy_set_progress_callback(CURL *handle, ccurl_progress_callback callback, void *context);

/* Protocols allowed for the transfer and for redirects, as a comma list ("https" or "http,https");
 * uses CURLOPT_PROTOCOLS_STR on libcurl >= 7.85.0 and the bitmask options before. */
CURLcode ccurl_easy_set_protocols(CURL *handle, const char *protocols, const char *redirect_protocols);

/* Splits a URL with libcurl's own parser (the one the transfer will use) into the parts that make its
 * origin. On success *scheme and *host are malloc'd by libcurl (free with ccurl_free); the host of an
 * IPv6 literal keeps its brackets; *port is the URL's port, or the scheme's default when it names none. */
int ccurl_url_origin(const char *url, char **scheme, char **host, long *port);
void ccurl_free(void *pointer);

/* LIBCURL_VERSION_NUM of the headers the shim was compiled against. */
long ccurl_version_num(void);

#endif
