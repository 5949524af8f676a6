#ifndef PERIMETER_CLIBXML2_SHIM_H
#define PERIMETER_CLIBXML2_SHIM_H
// No feature macros (_GNU_SOURCE and the like) here: the system headers this includes must be read
// exactly as SwiftGlibc reads them, or clang sees two different definitions of the same structs.
#include <string.h>
// Debian's libxml2 is built with ICU, so its encoding.h includes <unicode/ucnv.h>: the system ICU's
// headers would then sit in this module beside Foundation's own copy of ICU (_FoundationICU), and clang
// refuses the two definitions of UErrorCode. Perimeter never touches the ICU members of
// xmlCharEncodingHandler (only pointers to it), so the headers are read without them.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>

/// Ignores a message of libxml2's generic error channel (printf-style, hence C: Swift cannot make a
/// variadic function).
static void perimeter_ignore_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

/// Silences libxml2's generic error channel for the calling thread: encoding and I/O errors are printed
/// there ("encoding error : input conversion failed…") on standard error by default, beside the error
/// the reader reports itself with its file, line and column.
static inline void perimeter_silence_generic_errors(void) {
    xmlSetGenericErrorFunc(NULL, perimeter_ignore_generic_error);
}

/// The 1-based line and column of the `<` that opens the start tag being reported, from inside a
/// startElementNs callback (libxml2 then stands on the tag's `>` or `/>`). O(length of the tag).
/// Falls back to the parser's current place when the tag's start is no longer in the buffer.
static inline void perimeter_tag_start(xmlParserCtxtPtr ctxt, int *line, int *column) {
    xmlParserInputPtr in = ctxt->input;
    *line = in->line;
    *column = in->col;
    /* libxml2 2.9 counts columns in an int that overflows on a line longer than 2 GiB: unknown (0). */
    if (in->col <= 0) { *column = 0; return; }
    if (in->cur == NULL || in->base == NULL) return;
    if (in->cur <= in->base) return;
    const xmlChar *p = in->cur;
    while (p > in->base && *--p != '<') {}
    if (*p != '<') return;
    int newlines = 0;
    for (const xmlChar *q = p; (q = memchr(q, '\n', (size_t)(in->cur - q))) != NULL; q++) newlines++;
    *line = in->line - newlines;
    if (newlines == 0) {
        int back = (int)(in->cur - p);
        *column = in->col > back ? in->col - back : 1;
        return;
    }
    const xmlChar *q = p;
    while (q > in->base && q[-1] != '\n') q--;
    *column = (int)(p - q) + 1;
}

/// The magic number that makes libxml2 call the SAX2 (namespace-aware) callbacks.
static const unsigned int perimeter_sax2_magic = XML_SAX2_MAGIC;
#endif
