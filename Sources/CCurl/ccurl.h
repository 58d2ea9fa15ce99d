// Fixed-signature wrappers for libcurl's variadic setopt/getinfo calls, which Swift cannot import.
// One wrapper per C argument type: curl reads the vararg according to the option's type class.
#ifndef TESSERA_CCURL_H
#define TESSERA_CCURL_H
#define CURL_DISABLE_TYPECHECK 1
#define CURL_STRICTER 1
#include <signal.h>
#include <curl/curl.h>

typedef size_t (*ccurl_data_cb)(char *, size_t, size_t, void *);
typedef int (*ccurl_seek_cb)(void *, curl_off_t, int);
typedef int (*ccurl_xferinfo_cb)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

static inline CURLcode ccurl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_str(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_ptr(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_setopt_share(CURL *h, CURLSH *s) { return curl_easy_setopt(h, CURLOPT_SHARE, s); }
static inline CURLcode ccurl_setopt_data_cb(CURL *h, CURLoption o, ccurl_data_cb cb) { return curl_easy_setopt(h, o, cb); }
static inline CURLcode ccurl_setopt_seek_cb(CURL *h, ccurl_seek_cb cb) { return curl_easy_setopt(h, CURLOPT_SEEKFUNCTION, cb); }
static inline CURLcode ccurl_setopt_xferinfo_cb(CURL *h, ccurl_xferinfo_cb cb) { return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, cb); }
static inline CURLcode ccurl_getinfo_long(CURL *h, CURLINFO i, long *out) { return curl_easy_getinfo(h, i, out); }
static inline CURLcode ccurl_getinfo_off(CURL *h, CURLINFO i, curl_off_t *out) { return curl_easy_getinfo(h, i, out); }
static inline CURLcode ccurl_getinfo_str(CURL *h, CURLINFO i, const char **out) { return curl_easy_getinfo(h, i, out); }
static inline CURLcode ccurl_getinfo_socket(CURL *h, CURLINFO i, curl_socket_t *out) { return curl_easy_getinfo(h, i, out); }
static inline CURLcode ccurl_getinfo_ptr(CURL *h, CURLINFO i, void **out) { return curl_easy_getinfo(h, i, out); }
static inline CURLMcode ccurl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
static inline CURLSHcode ccurl_share_setopt_long(CURLSH *s, CURLSHoption o, long v) { return curl_share_setopt(s, o, v); }
/// curl with NOSIGNAL stops ignoring SIGPIPE around its calls; the process must ignore it.
static inline void ccurl_ignore_sigpipe(void) { signal(SIGPIPE, SIG_IGN); }
#endif
