/* Reference for the GPX reader benchmark: libxml2's SAX2 push parser fed in 64 KB chunks, counting
 * trkpt start tags and nothing else. Same parser options as the Swift reader (NONET, NOCDATA).
 * Build: gcc -O2 sax2_count.c $(pkg-config --cflags --libs libxml-2.0) -o sax2_count */
#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static long trkpts;

static void start_element(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                          int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
                          const xmlChar **attributes) {
    (void)ctx; (void)prefix; (void)uri; (void)nb_namespaces; (void)namespaces;
    (void)nb_attributes; (void)nb_defaulted; (void)attributes;
    if (strcmp((const char *)localname, "trkpt") == 0) trkpts++;
}

static long peak_kb(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0) sscanf(line + 6, "%ld", &kb);
    fclose(f);
    return kb;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: sax2_count FILE\n"); return 64; }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 1; }
    static char buffer[64 * 1024];
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = start_element;
    size_t n = fread(buffer, 1, 4, f);
    xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&sax, NULL, buffer, (int)n, argv[1]);
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_NOCDATA);
    int status = 0;
    while ((n = fread(buffer, 1, sizeof buffer, f)) > 0)
        if ((status = xmlParseChunk(ctxt, buffer, (int)n, 0)) != 0) break;
    if (status == 0) status = xmlParseChunk(ctxt, NULL, 0, 1);
    xmlFreeParserCtxt(ctxt);
    fclose(f);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("C SAX2 push: %ld trkpt in %.2f s, %.0f points/s, peak RSS %ld MB%s\n", trkpts, seconds,
           trkpts / seconds, peak_kb() / 1024, status ? " (parse error)" : "");
    return status ? 1 : 0;
}
