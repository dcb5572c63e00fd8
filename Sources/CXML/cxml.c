/*
 * The only code that touches libxml2. It is not linked: it is opened with dlopen at the first document
 * (cxml_library_load), so the commands that never read XML (line, status, trips, export, report,
 * config) never map it and what it pulls in (libicu's ~30 MB of data, liblzma, libz); and it can be
 * closed again once no document is being read (cxml_library_unload_if_idle: a route read once at start).
 * Each cxml_ function calls libxml2 through a pointer resolved once; cxml_parse loads it first.
 *
 * A document is read on one thread: libxml2's generic error channel, which this file points at the parse so
 * that nothing is printed, is the calling thread's.
 */
#include "cxml.h"

#include <stddef.h>

#include "clazylibrary.h"
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/SAX2.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlversion.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The soname of the libxml2 whose headers this file is compiled against: libxml2 was libxml2.so.2 from
 * 2.0 to 2.13; 2.14 removed deprecated API and became libxml2.so.16. LoadableLibraryTests and
 * scripts/package-deb.sh check the choice against the SONAME of the libxml2.so on the build machine. */
#if LIBXML_VERSION >= 21400
#define CXML_SONAME "libxml2.so.16"
#else
#define CXML_SONAME "libxml2.so.2"
#endif

/* The structured error callback's argument became const in 2.12. */
#if LIBXML_VERSION >= 21200
typedef const xmlError *cxml_error_pointer;
#else
typedef xmlErrorPtr cxml_error_pointer;
#endif

/* Every libxml2 function this file calls, with the headers' own prototypes. */
struct cxml_table {
    __typeof__(&xmlInitParser) init_parser;
    __typeof__(&xmlCleanupParser) cleanup_parser;
    __typeof__(&xmlSetGenericErrorFunc) set_generic_error_func;
    __typeof__(&xmlCreateMemoryParserCtxt) create_memory_parser_ctxt;
    __typeof__(&xmlCtxtUseOptions) ctxt_use_options;
    __typeof__(&xmlParseDocument) parse_document;
    __typeof__(&xmlFreeParserCtxt) free_parser_ctxt;
    __typeof__(&xmlSAX2GetLineNumber) line_number;
};

/* Where each function's pointer goes in the table (CLazyLibrary resolves them all or none). */
static const struct clazy_symbol symbols[] = {
    {"xmlInitParser", offsetof(struct cxml_table, init_parser)},
    {"xmlCleanupParser", offsetof(struct cxml_table, cleanup_parser)},
    {"xmlSetGenericErrorFunc", offsetof(struct cxml_table, set_generic_error_func)},
    {"xmlCreateMemoryParserCtxt", offsetof(struct cxml_table, create_memory_parser_ctxt)},
    {"xmlCtxtUseOptions", offsetof(struct cxml_table, ctxt_use_options)},
    {"xmlParseDocument", offsetof(struct cxml_table, parse_document)},
    {"xmlFreeParserCtxt", offsetof(struct cxml_table, free_parser_ctxt)},
    {"xmlSAX2GetLineNumber", offsetof(struct cxml_table, line_number)},
};
#define SYMBOL_COUNT (sizeof symbols / sizeof symbols[0])

static struct clazy_library library = CLAZY_LIBRARY_INIT;
static struct cxml_table lib;

const char *cxml_library_soname(void) { return CXML_SONAME; }

const char *cxml_library_error(void) { return clazy_error(&library); }

int cxml_library_probe(const char *soname, char *error, size_t capacity) {
    return clazy_probe(soname, symbols, SYMBOL_COUNT, error, capacity);
}

/* Guards loading, unloading and the count of documents being read: libxml2 is closed
 * (cxml_library_unload_if_idle) only while none is, and a document is read only on a loaded, initialised
 * library. */
static pthread_mutex_t use_mutex = PTHREAD_MUTEX_INITIALIZER;
static int open_parses = 0;
/* xmlInitParser has run since the library was (re)opened. */
static int parser_ready = 0;

/* With use_mutex held. xmlInitParser sets up libxml2's globals; its manual asks for one call before
 * threads use it. */
static int load_locked(void) {
    if (clazy_load(&library, cxml_library_soname(), symbols, SYMBOL_COUNT, &lib) != 0) return -1;
    if (!parser_ready) {
        lib.init_parser();
        parser_ready = 1;
    }
    return 0;
}

int cxml_library_load(void) {
    pthread_mutex_lock(&use_mutex);
    int rc = load_locked();
    pthread_mutex_unlock(&use_mutex);
    return rc;
}

int cxml_library_unload_if_idle(void) {
    pthread_mutex_lock(&use_mutex);
    int unloaded = 0;
    if (open_parses == 0 && parser_ready) {
        /* xmlCleanupParser frees libxml2's globals and deletes its thread-local key (whose destructor
         * would otherwise run, unmapped, when a thread that read a document exits); then the library and
         * what it pulled in (libicu, liblzma, libz) leave the process. */
        lib.cleanup_parser();
        parser_ready = 0;
        clazy_unload(&library);
        unloaded = 1;
    }
    pthread_mutex_unlock(&use_mutex);
    return unloaded;
}

/* One document's parse: the caller's handler and failure (the first error, kept there), and how it
 * ended so far. */
struct parse {
    const struct cxml_handler *handler;
    struct cxml_failure *failure;
    xmlParserCtxtPtr ctxt;
    enum cxml_outcome outcome;
    struct cxml_attribute attributes[CXML_MAX_ATTRIBUTES];
};

/* Keeps the first message: later ones are mostly consequences of it. */
static void keep_message(struct parse *p, const char *message, int line) {
    char *kept = p->failure->message;
    if (kept[0] != '\0' || message == NULL) return;
    snprintf(kept, sizeof p->failure->message, "%s", message);
    size_t n = strlen(kept);
    while (n > 0 && (kept[n - 1] == '\n' || kept[n - 1] == ' ')) kept[--n] = '\0';
    p->failure->line = line;
}

/* Ends the document with `outcome` (the first one stands): nothing more reaches the handler. libxml2
 * reads on to the end of the bytes (linear, and bounded by the caller's size limit) without telling
 * anyone: xmlStopParser from inside a callback frees the input under the parser function that called
 * it (libxml2 2.9's xmlHaltParser), which then reads freed memory (a crash found by the fuzz campaign). */
static void stop(struct parse *p, enum cxml_outcome outcome) {
    if (p->outcome == CXML_DONE) p->outcome = outcome;
}

/* The parser's errors, with their line. A fatal error or an error ends the document there. */
static void on_error(void *context, cxml_error_pointer error) {
    struct parse *p = context;
    if (error == NULL || error->level < XML_ERR_ERROR) return;
    keep_message(p, error->message, error->line);
    stop(p, CXML_MALFORMED);
}

/* What libxml2 says outside a parser context (an encoding it cannot convert, memory): kept, not
 * printed; it ends the document only if the parser then fails. */
static void on_generic_error(void *context, const char *format, ...) {
    struct parse *p = context;
    if (p == NULL || p->failure->message[0] != '\0') return;
    char text[sizeof p->failure->message];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(text, sizeof text, format, arguments);
    va_end(arguments);
    keep_message(p, text, 0);
}

static void on_start(void *context, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                     int namespace_count, const xmlChar **namespaces, int attribute_count, int defaulted,
                     const xmlChar **attributes) {
    (void)prefix;
    (void)namespaces;
    (void)defaulted;
    struct parse *p = context;
    if (p->outcome != CXML_DONE) return;
    if (attribute_count < 0 || attribute_count > CXML_MAX_ATTRIBUTES) {
        stop(p, CXML_TOO_MANY_ATTRIBUTES);
        return;
    }
    /* libxml2 gives five pointers an attribute: local name, prefix, URI, value, end of value. */
    for (int i = 0; i < attribute_count; i++) {
        const xmlChar **a = attributes + 5 * i;
        p->attributes[i].local_name = (const char *)a[0];
        p->attributes[i].namespace_uri = (const char *)a[2];
        p->attributes[i].value = (const char *)a[3];
        p->attributes[i].value_length = (int)(a[4] - a[3]);
    }
    int line = lib.line_number(p->ctxt);
    if (!p->handler->start_element(p->handler->context, (const char *)localname, (const char *)uri,
                                   line > 0 ? line : 0, p->attributes, attribute_count, namespace_count)) {
        stop(p, CXML_STOPPED);
    }
}

static void on_end(void *context, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    (void)prefix;
    struct parse *p = context;
    if (p->outcome != CXML_DONE) return;
    if (!p->handler->end_element(p->handler->context, (const char *)localname, (const char *)uri)) {
        stop(p, CXML_STOPPED);
    }
}

static void on_characters(void *context, const xmlChar *text, int length) {
    struct parse *p = context;
    if (p->outcome != CXML_DONE) return;
    p->handler->characters(p->handler->context, (const char *)text, length);
}

/* A <!DOCTYPE>: refused (the caller checks the bytes for one first; this is the parser's word). */
static void on_internal_subset(void *context, const xmlChar *name, const xmlChar *external_id,
                               const xmlChar *system_id) {
    (void)name;
    (void)external_id;
    (void)system_id;
    stop(context, CXML_DOCUMENT_TYPE);
}

/* An entity reference the parser did not expand: never read as text. */
static void on_reference(void *context, const xmlChar *name) {
    struct parse *p = context;
    keep_message(p, (const char *)name, 0);
    stop(p, CXML_ENTITY_REFERENCE);
}

/* Declarations of entities and the rest of a DTD: refused like the DOCTYPE that holds them. */
static void on_entity_declaration(void *context, const xmlChar *name, int type, const xmlChar *public_id,
                                  const xmlChar *system_id, xmlChar *content) {
    (void)name;
    (void)type;
    (void)public_id;
    (void)system_id;
    (void)content;
    stop(context, CXML_DOCUMENT_TYPE);
}

enum cxml_outcome cxml_parse(const unsigned char *bytes, int length, const struct cxml_handler *handler,
                             struct cxml_failure *failure) {
    memset(failure, 0, sizeof *failure);
    if (length < 0 || handler == NULL) return CXML_MALFORMED;
    pthread_mutex_lock(&use_mutex);
    int loaded = load_locked() == 0;
    if (loaded) open_parses++;
    pthread_mutex_unlock(&use_mutex);
    if (!loaded) return CXML_LIBRARY_MISSING;

    struct parse *p = calloc(1, sizeof *p);
    enum cxml_outcome outcome = CXML_NO_MEMORY;
    if (p != NULL) {
        p->handler = handler;
        p->failure = failure;
        p->outcome = CXML_DONE;
        lib.set_generic_error_func(p, on_generic_error);
        p->ctxt = lib.create_memory_parser_ctxt((const char *)bytes, length);
        if (p->ctxt != NULL) {
            /* A SAX2 handler of this file's callbacks only: no tree is built, nothing is resolved or
             * fetched. The document is read in one pass over the bytes (xmlParseDocument), not pushed
             * in 512-byte chunks as xmlTextReader does: libxml2 2.9's push parser looks for the end of a
             * comment, CDATA section, processing instruction or attribute value again at every '>' in
             * it, so 4 MB of '>' in one comment took 5 s, and one attribute value 10 s. */
            xmlSAXHandler sax;
            memset(&sax, 0, sizeof sax);
            sax.initialized = XML_SAX2_MAGIC;
            sax.startElementNs = on_start;
            sax.endElementNs = on_end;
            sax.characters = on_characters;
            sax.cdataBlock = on_characters;
            sax.internalSubset = on_internal_subset;
            sax.externalSubset = on_internal_subset;
            sax.entityDecl = on_entity_declaration;
            sax.reference = on_reference;
            sax.serror = on_error;
            memcpy(p->ctxt->sax, &sax, sizeof sax);
            p->ctxt->userData = p;
            /* No XML_PARSE_NOENT (entities are not substituted), DTDLOAD, DTDATTR or DTDVALID (no DTD is
             * read), XINCLUDE or HUGE (libxml2's limits on depth, name and text sizes and entity
             * amplification stay); NONET in case anything still asks for a URL. UTF-8 whatever the
             * document declares (IGNORE_ENC): the bytes the caller checked are the characters read. */
            lib.ctxt_use_options(p->ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                                              XML_PARSE_IGNORE_ENC);
            int rc = lib.parse_document(p->ctxt);
            outcome = p->outcome;
            if (outcome == CXML_DONE && (rc != 0 || !p->ctxt->wellFormed)) outcome = CXML_MALFORMED;
            lib.free_parser_ctxt(p->ctxt);
        }
        lib.set_generic_error_func(NULL, on_generic_error);
        free(p);
    }

    pthread_mutex_lock(&use_mutex);
    open_parses--;
    pthread_mutex_unlock(&use_mutex);
    return outcome;
}
