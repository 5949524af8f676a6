#ifndef PERIMETER_CCURLTRANSFER_H
#define PERIMETER_CCURLTRANSFER_H

#include <stddef.h>

/// One POST through libcurl's multi interface, waited on in curl_multi_poll (blocked in poll(2): no
/// processor time while the server is silent), woken every `slice_ms` to ask `cancelled`. libcurl is
/// loaded with dlopen on first use (libcurl.so.4, which FoundationNetworking also uses), so that no
/// development headers are needed to build.

/// What became of a transfer.
typedef enum {
    perimeter_transfer_answered = 0,   ///< an HTTP answer came: see `status`
    perimeter_transfer_failed = 1,     ///< no answer: see `curl_code` and `message`
    perimeter_transfer_timed_out = 2,  ///< no answer within the timeout
    perimeter_transfer_cancelled = 3,  ///< `cancelled` said so; the transfer was aborted
    perimeter_transfer_unavailable = 4 ///< libcurl could not be loaded: see `message`
} perimeter_transfer_outcome;

typedef struct {
    perimeter_transfer_outcome outcome;
    long status;
    int curl_code;
    /// The `Retry-After` header's value (NUL-terminated, empty when absent).
    char retry_after[64];
    /// The first bytes of the answer's body (`excerpt_length` of them).
    char excerpt[256];
    size_t excerpt_length;
    /// libcurl's sentence for a failure (NUL-terminated).
    char message[256];
} perimeter_transfer_result;

/// A connection to one server, reused from POST to POST (keep-alive). Used from one thread at a time.
typedef struct perimeter_transfer perimeter_transfer;

/// Opens a transfer, or returns NULL with the reason in `message` (`message_size` bytes).
perimeter_transfer *perimeter_transfer_open(char *message, size_t message_size);
void perimeter_transfer_close(perimeter_transfer *transfer);

/// POSTs `body` to `url` with the `header_count` headers (`Name: value`), waiting at most `timeout_ms`
/// in all; `cancelled(context)` is asked every `slice_ms` while waiting and aborts the transfer when it
/// returns nonzero.
void perimeter_transfer_post(perimeter_transfer *transfer, const char *url,
                             const char *const *headers, size_t header_count,
                             const void *body, size_t body_length, long timeout_ms, long slice_ms,
                             int (*cancelled)(void *context), void *context,
                             perimeter_transfer_result *result);

#endif
