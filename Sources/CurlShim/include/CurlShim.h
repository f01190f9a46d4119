/* Typed wrappers for libcurl's variadic calls, which Swift cannot call
 * directly: one function per argument type, each named after the call. */
#ifndef CURLSHIM_H
#define CURLSHIM_H

#include <curl/curl.h>

/** The callback libcurl calls with each piece of a body or header. */
typedef size_t (*CurlShimDataCallback)(char *data, size_t size, size_t count, void *user);

CURLcode CurlShim_easy_setopt_string(CURL *easy, CURLoption option, const char *value);
CURLcode CurlShim_easy_setopt_long(CURL *easy, CURLoption option, long value);
CURLcode CurlShim_easy_setopt_off(CURL *easy, CURLoption option, curl_off_t value);
CURLcode CurlShim_easy_setopt_pointer(CURL *easy, CURLoption option, void *value);
CURLcode CurlShim_easy_setopt_callback(CURL *easy, CURLoption option, CurlShimDataCallback value);

CURLcode CurlShim_easy_getinfo_long(CURL *easy, CURLINFO info, long *value);
CURLcode CurlShim_easy_getinfo_off(CURL *easy, CURLINFO info, curl_off_t *value);
CURLcode CurlShim_easy_getinfo_string(CURL *easy, CURLINFO info, char **value);
CURLcode CurlShim_easy_getinfo_pointer(CURL *easy, CURLINFO info, void **value);

CURLMcode CurlShim_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLSHcode CurlShim_share_setopt_long(CURLSH *share, CURLSHoption option, long value);

#endif
