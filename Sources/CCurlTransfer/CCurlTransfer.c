#include "CCurlTransfer.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

// The few libcurl entry points used, with their C types (curl/curl.h, curl/multi.h; stable ABI of
// libcurl.so.4). Declared here so that building needs no libcurl headers.
typedef void CURL;
typedef void CURLM;
struct curl_slist;
typedef struct {
    int msg;
    CURL *easy_handle;
    union { void *whatever; int result; } data;
} CURLMsg;

enum {
    CURLOPT_WRITEDATA = 10001, CURLOPT_URL = 10002, CURLOPT_ERRORBUFFER = 10010, CURLOPT_WRITEFUNCTION = 20011,
    CURLOPT_POSTFIELDS = 10015, CURLOPT_HTTPHEADER = 10023, CURLOPT_HEADERDATA = 10029, CURLOPT_POST = 47,
    CURLOPT_NOSIGNAL = 99, CURLOPT_HEADERFUNCTION = 20079, CURLOPT_TIMEOUT_MS = 155,
    CURLOPT_CONNECTTIMEOUT_MS = 156, CURLOPT_POSTFIELDSIZE_LARGE = 30120,
    CURLINFO_RESPONSE_CODE = 0x200002, CURLMSG_DONE = 1, CURLE_OPERATION_TIMEDOUT = 28,
    CURL_GLOBAL_ALL = 3, CURL_ERROR_SIZE = 256,
};

static struct {
    int (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_reset)(CURL *);
    void (*easy_cleanup)(CURL *);
    int (*easy_setopt)(CURL *, int, ...);
    int (*easy_getinfo)(CURL *, int, ...);
    const char *(*easy_strerror)(int);
    CURLM *(*multi_init)(void);
    int (*multi_add_handle)(CURLM *, CURL *);
    int (*multi_remove_handle)(CURLM *, CURL *);
    int (*multi_perform)(CURLM *, int *);
    int (*multi_poll)(CURLM *, void *, unsigned, int, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    int (*multi_cleanup)(CURLM *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;
static char load_failure[200];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    const char *names[] = {"libcurl.so.4", "libcurl.so", "libcurl.4.dylib", "libcurl.dylib"};
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && library == NULL; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (library == NULL) {
        snprintf(load_failure, sizeof load_failure, "libcurl (libcurl.so.4) could not be loaded; install libcurl4");
        return;
    }
#define LOAD(field, symbol)                                                                      \
    if ((*(void **)&curl.field = dlsym(library, symbol)) == NULL) {                              \
        snprintf(load_failure, sizeof load_failure, "libcurl has no %s (version 7.66 or later is needed)", symbol); \
        return;                                                                                  \
    }
    LOAD(global_init, "curl_global_init")
    LOAD(easy_init, "curl_easy_init")
    LOAD(easy_reset, "curl_easy_reset")
    LOAD(easy_cleanup, "curl_easy_cleanup")
    LOAD(easy_setopt, "curl_easy_setopt")
    LOAD(easy_getinfo, "curl_easy_getinfo")
    LOAD(easy_strerror, "curl_easy_strerror")
    LOAD(multi_init, "curl_multi_init")
    LOAD(multi_add_handle, "curl_multi_add_handle")
    LOAD(multi_remove_handle, "curl_multi_remove_handle")
    LOAD(multi_perform, "curl_multi_perform")
    LOAD(multi_poll, "curl_multi_poll")
    LOAD(multi_info_read, "curl_multi_info_read")
    LOAD(multi_cleanup, "curl_multi_cleanup")
    LOAD(slist_append, "curl_slist_append")
    LOAD(slist_free_all, "curl_slist_free_all")
#undef LOAD
    if (curl.global_init(CURL_GLOBAL_ALL) != 0) {
        snprintf(load_failure, sizeof load_failure, "libcurl could not be initialised");
    }
}

struct perimeter_transfer {
    CURLM *multi;
    CURL *easy;
    char error[CURL_ERROR_SIZE];
};

perimeter_transfer *perimeter_transfer_open(char *message, size_t message_size) {
    pthread_once(&load_once, load);
    if (load_failure[0] != 0) {
        snprintf(message, message_size, "%s", load_failure);
        return NULL;
    }
    perimeter_transfer *transfer = calloc(1, sizeof *transfer);
    if (transfer == NULL || (transfer->multi = curl.multi_init()) == NULL || (transfer->easy = curl.easy_init()) == NULL) {
        snprintf(message, message_size, "libcurl could not make a transfer (out of memory)");
        perimeter_transfer_close(transfer);
        return NULL;
    }
    return transfer;
}

void perimeter_transfer_close(perimeter_transfer *transfer) {
    if (transfer == NULL) return;
    if (transfer->easy != NULL) curl.easy_cleanup(transfer->easy);
    if (transfer->multi != NULL) curl.multi_cleanup(transfer->multi);
    free(transfer);
}

/// Keeps the first bytes of the body; takes (and drops) the rest.
static size_t take_body(char *data, size_t size, size_t count, void *context) {
    perimeter_transfer_result *result = context;
    size_t length = size * count;
    size_t room = sizeof result->excerpt - result->excerpt_length;
    size_t kept = length < room ? length : room;
    memcpy(result->excerpt + result->excerpt_length, data, kept);
    result->excerpt_length += kept;
    return length;
}

/// Notes `Retry-After` of the last answer (a status line starts each answer's headers).
static size_t take_header(char *data, size_t size, size_t count, void *context) {
    perimeter_transfer_result *result = context;
    size_t length = size * count;
    static const char name[] = "retry-after:";
    if (length >= 5 && strncmp(data, "HTTP/", 5) == 0) {
        result->retry_after[0] = 0;
    } else if (length > sizeof name - 1 && strncasecmp(data, name, sizeof name - 1) == 0) {
        const char *value = data + sizeof name - 1;
        size_t n = length - (sizeof name - 1);
        while (n > 0 && (*value == ' ' || *value == '\t')) { value++; n--; }
        while (n > 0 && (value[n - 1] == '\r' || value[n - 1] == '\n' || value[n - 1] == ' ')) n--;
        if (n >= sizeof result->retry_after) n = sizeof result->retry_after - 1;
        memcpy(result->retry_after, value, n);
        result->retry_after[n] = 0;
    }
    return length;
}

void perimeter_transfer_post(perimeter_transfer *transfer, const char *url,
                             const char *const *headers, size_t header_count,
                             const void *body, size_t body_length, long timeout_ms, long slice_ms,
                             int (*cancelled)(void *context), void *context,
                             perimeter_transfer_result *result) {
    memset(result, 0, sizeof *result);
    CURL *easy = transfer->easy;
    struct curl_slist *list = NULL;
    for (size_t i = 0; i < header_count; i++) list = curl.slist_append(list, headers[i]);
    list = curl.slist_append(list, "Expect:");  // no 100-continue round trip
    curl.easy_reset(easy);
    transfer->error[0] = 0;
    curl.easy_setopt(easy, CURLOPT_URL, url);
    curl.easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(easy, CURLOPT_POST, 1L);
    curl.easy_setopt(easy, CURLOPT_POSTFIELDS, body != NULL ? body : "");  // NULL would read standard input
    curl.easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (long long)body_length);
    curl.easy_setopt(easy, CURLOPT_HTTPHEADER, list);
    curl.easy_setopt(easy, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl.easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl.easy_setopt(easy, CURLOPT_ERRORBUFFER, transfer->error);
    curl.easy_setopt(easy, CURLOPT_WRITEFUNCTION, take_body);
    curl.easy_setopt(easy, CURLOPT_WRITEDATA, result);
    curl.easy_setopt(easy, CURLOPT_HEADERFUNCTION, take_header);
    curl.easy_setopt(easy, CURLOPT_HEADERDATA, result);

    int done = 0, code = 0, running = 1;
    curl.multi_add_handle(transfer->multi, easy);
    while (1) {
        if (cancelled != NULL && cancelled(context)) {
            result->outcome = perimeter_transfer_cancelled;
            break;
        }
        if (curl.multi_perform(transfer->multi, &running) != 0) break;
        int queued = 0;
        CURLMsg *message;
        while ((message = curl.multi_info_read(transfer->multi, &queued)) != NULL) {
            if (message->msg == CURLMSG_DONE && message->easy_handle == easy) {
                done = 1;
                code = message->data.result;
            }
        }
        if (done || running == 0) break;
        curl.multi_poll(transfer->multi, NULL, 0, (int)slice_ms, NULL);  // blocks in poll(2)
    }
    curl.multi_remove_handle(transfer->multi, easy);  // aborts a transfer still under way
    curl.slist_free_all(list);
    if (result->outcome == perimeter_transfer_cancelled) return;
    if (done && code == 0) {
        curl.easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &result->status);
        result->outcome = perimeter_transfer_answered;
        return;
    }
    result->curl_code = done ? code : -1;
    result->outcome = code == CURLE_OPERATION_TIMEDOUT ? perimeter_transfer_timed_out : perimeter_transfer_failed;
    const char *text = transfer->error[0] != 0 ? transfer->error : (done ? curl.easy_strerror(code) : "the transfer stopped");
    snprintf(result->message, sizeof result->message, "%s", text);
}
