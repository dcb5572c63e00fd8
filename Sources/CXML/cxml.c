/*
 * The only code that touches libxml2. It is not linked: it is opened with dlopen at the first document
 * (cxml_library_load), so the commands that never read XML (line, status, trips, export, report,
 * config) never map it and what it pulls in (libicu's ~30 MB of data, liblzma, libz); and it can be
 * closed again once no reader is open (cxml_library_unload_if_idle: a route read once at start). Each cxml_
 * function calls libxml2 through a pointer resolved once; a reader exists only once the library is
 * loaded, so only cxml_reader_open checks.
 *
 * A reader is opened, read and closed on one thread: libxml2's generic error channel, which this file
 * points at the reader so that nothing is printed, is the calling thread's.
 */
#include "cxml.h"

#include <stddef.h>

#include "clazylibrary.h"
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlversion.h>
#include <limits.h>
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
    __typeof__(&xmlReaderForMemory) reader_for_memory;
    __typeof__(&xmlFreeTextReader) free_text_reader;
    __typeof__(&xmlTextReaderSetStructuredErrorHandler) set_structured_error_handler;
    __typeof__(&xmlTextReaderRead) read;
    __typeof__(&xmlTextReaderNodeType) node_type;
    __typeof__(&xmlTextReaderDepth) depth;
    __typeof__(&xmlTextReaderIsEmptyElement) is_empty_element;
    __typeof__(&xmlTextReaderMoveToFirstAttribute) move_to_first_attribute;
    __typeof__(&xmlTextReaderMoveToNextAttribute) move_to_next_attribute;
    __typeof__(&xmlTextReaderMoveToElement) move_to_element;
    __typeof__(&xmlTextReaderConstLocalName) const_local_name;
    __typeof__(&xmlTextReaderConstNamespaceUri) const_namespace_uri;
    __typeof__(&xmlTextReaderConstValue) const_value;
    __typeof__(&xmlTextReaderCurrentNode) current_node;
    __typeof__(&xmlGetLineNo) line_number;
    __typeof__(&xmlTextReaderGetParserLineNumber) parser_line_number;
};

/* Where each function's pointer goes in the table (CLazyLibrary resolves them all or none). */
static const struct clazy_symbol symbols[] = {
    {"xmlInitParser", offsetof(struct cxml_table, init_parser)},
    {"xmlCleanupParser", offsetof(struct cxml_table, cleanup_parser)},
    {"xmlSetGenericErrorFunc", offsetof(struct cxml_table, set_generic_error_func)},
    {"xmlReaderForMemory", offsetof(struct cxml_table, reader_for_memory)},
    {"xmlFreeTextReader", offsetof(struct cxml_table, free_text_reader)},
    {"xmlTextReaderSetStructuredErrorHandler", offsetof(struct cxml_table, set_structured_error_handler)},
    {"xmlTextReaderRead", offsetof(struct cxml_table, read)},
    {"xmlTextReaderNodeType", offsetof(struct cxml_table, node_type)},
    {"xmlTextReaderDepth", offsetof(struct cxml_table, depth)},
    {"xmlTextReaderIsEmptyElement", offsetof(struct cxml_table, is_empty_element)},
    {"xmlTextReaderMoveToFirstAttribute", offsetof(struct cxml_table, move_to_first_attribute)},
    {"xmlTextReaderMoveToNextAttribute", offsetof(struct cxml_table, move_to_next_attribute)},
    {"xmlTextReaderMoveToElement", offsetof(struct cxml_table, move_to_element)},
    {"xmlTextReaderConstLocalName", offsetof(struct cxml_table, const_local_name)},
    {"xmlTextReaderConstNamespaceUri", offsetof(struct cxml_table, const_namespace_uri)},
    {"xmlTextReaderConstValue", offsetof(struct cxml_table, const_value)},
    {"xmlTextReaderCurrentNode", offsetof(struct cxml_table, current_node)},
    {"xmlGetLineNo", offsetof(struct cxml_table, line_number)},
    {"xmlTextReaderGetParserLineNumber", offsetof(struct cxml_table, parser_line_number)},
};
#define SYMBOL_COUNT (sizeof symbols / sizeof symbols[0])

static struct clazy_library library = CLAZY_LIBRARY_INIT;
static struct cxml_table lib;

const char *cxml_library_soname(void) { return CXML_SONAME; }

const char *cxml_library_error(void) { return clazy_error(&library); }

int cxml_library_probe(const char *soname, char *error, size_t capacity) {
    return clazy_probe(soname, symbols, SYMBOL_COUNT, error, capacity);
}

/* Guards loading, unloading and the count of open readers: libxml2 is closed (cxml_library_unload_if_idle)
 * only while no reader is open, and a reader is opened only on a loaded, initialised library. */
static pthread_mutex_t use_mutex = PTHREAD_MUTEX_INITIALIZER;
static int open_readers = 0;
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
    if (open_readers == 0 && parser_ready) {
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

struct cxml_reader {
    xmlTextReaderPtr reader;
    /* An error (not a warning) was reported: the document ends there. */
    int failed;
    int error_line;
    char error[256];
};

/* Keeps the first message: later ones are mostly consequences of it. */
static void keep_message(struct cxml_reader *r, const char *message, int line) {
    if (r->error[0] != '\0' || message == NULL) return;
    snprintf(r->error, sizeof r->error, "%s", message);
    size_t n = strlen(r->error);
    while (n > 0 && (r->error[n - 1] == '\n' || r->error[n - 1] == ' ')) r->error[--n] = '\0';
    r->error_line = line;
}

/* The parser's errors, with their line (xmlTextReaderSetStructuredErrorHandler). */
static void record_error(void *context, cxml_error_pointer error) {
    struct cxml_reader *r = context;
    if (error == NULL || error->level < XML_ERR_ERROR) return;
    keep_message(r, error->message, error->line);
    r->failed = 1;
}

/* What libxml2 says outside a parser context (an encoding it cannot convert, memory): kept, not
 * printed. Such a message does not end the document by itself; a read that fails after it names it. */
static void record_generic(void *context, const char *format, ...) {
    struct cxml_reader *r = context;
    if (r == NULL || r->error[0] != '\0') return;
    char text[sizeof r->error];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(text, sizeof text, format, arguments);
    va_end(arguments);
    keep_message(r, text, 0);
}

/* One reader fewer open (with use_mutex not held). */
static void reader_gone(void) {
    pthread_mutex_lock(&use_mutex);
    open_readers--;
    pthread_mutex_unlock(&use_mutex);
}

struct cxml_reader *cxml_reader_open(const unsigned char *bytes, int length) {
    if (length < 0) return NULL;
    pthread_mutex_lock(&use_mutex);
    int loaded = load_locked() == 0;
    if (loaded) open_readers++;
    pthread_mutex_unlock(&use_mutex);
    if (!loaded) return NULL;
    struct cxml_reader *r = calloc(1, sizeof *r);
    if (r == NULL) {
        reader_gone();
        return NULL;
    }
    /* No XML_PARSE_NOENT (entities are not substituted), DTDLOAD, DTDATTR or DTDVALID (no DTD is
     * read), XINCLUDE or HUGE (libxml2's limits on depth, name and text sizes and entity amplification
     * stay); NONET in case anything still asks for a URL. UTF-8 whatever the document declares
     * (IGNORE_ENC): the bytes the caller checked before are then the characters libxml2 reads. */
    int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_IGNORE_ENC;
    lib.set_generic_error_func(r, record_generic);
    r->reader = lib.reader_for_memory((const char *)bytes, length, NULL, "UTF-8", options);
    if (r->reader == NULL) {
        lib.set_generic_error_func(NULL, record_generic);
        free(r);
        reader_gone();
        return NULL;
    }
    lib.set_structured_error_handler(r->reader, record_error, r);
    return r;
}

static enum cxml_node_kind kind_of(int type) {
    switch (type) {
    case XML_READER_TYPE_ELEMENT: return CXML_NODE_ELEMENT;
    case XML_READER_TYPE_END_ELEMENT: return CXML_NODE_END_ELEMENT;
    case XML_READER_TYPE_TEXT:
    case XML_READER_TYPE_CDATA:
    case XML_READER_TYPE_WHITESPACE:
    case XML_READER_TYPE_SIGNIFICANT_WHITESPACE: return CXML_NODE_TEXT;
    case XML_READER_TYPE_DOCUMENT_TYPE: return CXML_NODE_DOCUMENT_TYPE;
    case XML_READER_TYPE_ENTITY_REFERENCE: return CXML_NODE_ENTITY_REFERENCE;
    default: return CXML_NODE_OTHER;
    }
}

int cxml_reader_read(struct cxml_reader *r, struct cxml_node *node) {
    memset(node, 0, sizeof *node);
    if (r->failed) return -1;
    int rc = lib.read(r->reader);
    if (rc < 0) r->failed = 1;
    if (r->failed) return -1;
    if (rc == 0) return 0;
    node->kind = kind_of(lib.node_type(r->reader));
    node->depth = lib.depth(r->reader);
    if (node->kind == CXML_NODE_ELEMENT) {
        node->is_empty = lib.is_empty_element(r->reader) == 1;
        /* The line the element's start tag is on (xmlGetLineNo: -1 when unknown). An element node keeps
         * its line in 16 bits, so from 65,535 on the parser's line stands in: where the parser is, which
         * is the element's line or, when the parser has read on into the next chunk of input, a little
         * past it. */
        xmlNodePtr current = lib.current_node(r->reader);
        long line = current == NULL ? -1 : lib.line_number(current);
        if (line >= 65535) line = lib.parser_line_number(r->reader);
        node->line = line > 0 && line <= INT_MAX ? (int)line : 0;
    }
    node->local_name = (const char *)lib.const_local_name(r->reader);
    node->namespace_uri = (const char *)lib.const_namespace_uri(r->reader);
    if (node->kind == CXML_NODE_TEXT) node->value = (const char *)lib.const_value(r->reader);
    return 1;
}

int cxml_reader_attribute(struct cxml_reader *r, int first, struct cxml_node *node) {
    memset(node, 0, sizeof *node);
    if (r->failed) return 0;
    int moved = first ? lib.move_to_first_attribute(r->reader) : lib.move_to_next_attribute(r->reader);
    if (moved != 1) {
        lib.move_to_element(r->reader);
        return 0;
    }
    node->local_name = (const char *)lib.const_local_name(r->reader);
    node->namespace_uri = (const char *)lib.const_namespace_uri(r->reader);
    node->value = (const char *)lib.const_value(r->reader);
    return 1;
}

const char *cxml_reader_error(const struct cxml_reader *r) { return r->error; }

int cxml_reader_error_line(const struct cxml_reader *r) { return r->error_line; }

void cxml_reader_close(struct cxml_reader *r) {
    if (r == NULL) return;
    lib.free_text_reader(r->reader);
    lib.set_generic_error_func(NULL, record_generic);
    free(r);
    reader_gone();
}
