#include "ccurl.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t ccurl_once = PTHREAD_ONCE_INIT;
static CURLcode ccurl_init_result = CURLE_OK;

static void ccurl_do_global_init(void) { ccurl_init_result = curl_global_init(CURL_GLOBAL_DEFAULT); }

CURLcode ccurl_global_init_once(void) {
    pthread_once(&ccurl_once, ccurl_do_global_init);
    return ccurl_init_result;
}

CURL *ccurl_easy_init(void) { return curl_easy_init(); }
void ccurl_easy_cleanup(CURL *handle) { curl_easy_cleanup(handle); }
CURLcode ccurl_easy_perform(CURL *handle) { return curl_easy_perform(handle); }
const char *ccurl_easy_strerror(CURLcode code) { return curl_easy_strerror(code); }

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_str(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_ptr(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, long long value) {
    return curl_easy_setopt(handle, option, (curl_off_t)value);
}
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *list) {
    return curl_easy_setopt(handle, option, list);
}

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *out) { return curl_easy_getinfo(handle, info, out); }
CURLcode ccurl_easy_getinfo_str(CURL *handle, CURLINFO info, const char **out) {
    char *value = NULL;
    CURLcode rc = curl_easy_getinfo(handle, info, &value);
    *out = value;
    return rc;
}
CURLcode ccurl_easy_getinfo_double(CURL *handle, CURLINFO info, double *out) {
    return curl_easy_getinfo(handle, info, out);
}

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *value) { return curl_slist_append(list, value); }
void ccurl_slist_free_all(struct curl_slist *list) { curl_slist_free_all(list); }

CURLcode ccurl_easy_set_write_callback(CURL *handle, ccurl_data_callback callback, void *context) {
    CURLcode rc = curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
    if (rc != CURLE_OK) return rc;
    return curl_easy_setopt(handle, CURLOPT_WRITEDATA, context);
}

CURLcode ccurl_easy_set_header_callback(CURL *handle, ccurl_data_callback callback, void *context) {
    CURLcode rc = curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
    if (rc != CURLE_OK) return rc;
    return curl_easy_setopt(handle, CURLOPT_HEADERDATA, context);
}

CURLcode ccurl_easy_set_progress_callback(CURL *handle, ccurl_progress_callback callback, void *context) {
    CURLcode rc = curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
    if (rc != CURLE_OK) return rc;
    rc = curl_easy_setopt(handle, CURLOPT_XFERINFODATA, context);
    if (rc != CURLE_OK) return rc;
    return curl_easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
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
#if LIBCURL_VERSION_NUM >= 0x075500
    CURLcode rc = curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, protocols);
    if (rc != CURLE_OK) return rc;
    return curl_easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, redirect_protocols);
#else
    CURLcode rc = curl_easy_setopt(handle, CURLOPT_PROTOCOLS, ccurl_protocol_mask(protocols));
    if (rc != CURLE_OK) return rc;
    return curl_easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS, ccurl_protocol_mask(redirect_protocols));
#endif
}

int ccurl_url_origin(const char *url, char **scheme, char **host, long *port) {
    *scheme = NULL;
    *host = NULL;
    *port = 0;
    char *port_text = NULL;
    CURLU *u = curl_url();
    if (u == NULL) return -1;
    CURLUcode rc = curl_url_set(u, CURLUPART_URL, url, 0);
    if (rc == CURLUE_OK) rc = curl_url_get(u, CURLUPART_SCHEME, scheme, 0);
    if (rc == CURLUE_OK) rc = curl_url_get(u, CURLUPART_HOST, host, 0);
    /* CURLU_DEFAULT_PORT: the scheme's port when the URL names none, so that http://h/ and http://h:80/
     * compare equal. */
    if (rc == CURLUE_OK) rc = curl_url_get(u, CURLUPART_PORT, &port_text, CURLU_DEFAULT_PORT);
    if (rc == CURLUE_OK && port_text != NULL) *port = strtol(port_text, NULL, 10);
    if (port_text) curl_free(port_text);
    curl_url_cleanup(u);
    if (rc != CURLUE_OK) {
        if (*scheme) { curl_free(*scheme); *scheme = NULL; }
        if (*host) { curl_free(*host); *host = NULL; }
        return (int)rc;
    }
    return 0;
}

void ccurl_free(void *pointer) { curl_free(pointer); }

long ccurl_version_num(void) { return LIBCURL_VERSION_NUM; }
