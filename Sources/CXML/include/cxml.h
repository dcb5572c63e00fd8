#ifndef CXML_H
#define CXML_H
/*
 * Shim over libxml2's SAX2 parser: a document held in memory, read in one pass into the caller's
 * callbacks, prefixed cxml_.
 *
 * libxml2 is opened with dlopen at the first document, not linked (cxml.c says why): until it loads,
 * cxml_parse answers CXML_LIBRARY_MISSING and cxml_library_error() says why. This header names no
 * libxml2 type, so the Swift that imports it needs no libxml2 include path; only cxml.c includes
 * libxml2's headers.
 * See: https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-SAX2.html
 */
#include <stddef.h>

/* The soname opened ("libxml2.so.2"). */
const char *cxml_library_soname(void);
/* Opens libxml2 and resolves every function this shim calls, once per process (thread-safe; after a
 * failure the next call tries again). 0 when it is ready, -1 when it cannot be loaded: then
 * cxml_library_error() says why (the loader's text). */
int cxml_library_load(void);
const char *cxml_library_error(void);
/* Closes libxml2 (after xmlCleanupParser) when no document is being read, so that it and what it pulled
 * in leave the process (about 1.9 MB of their pages stay resident otherwise); the next cxml_parse opens it
 * again. 1 when it was closed, 0 when it was not loaded or a document is being read. For a document read
 * once (a route at start), not for one read again every few minutes (each opening costs relocations, and
 * libxml2 keeps some per-thread state it never frees). */
int cxml_library_unload_if_idle(void);
/* Opens `soname` the way cxml_library_load does, checks it has every function, and closes it again,
 * leaving the shim's own library alone: 0 when it would do, -1 with the reason in `error`. */
int cxml_library_probe(const char *soname, char *error, size_t capacity);

/* The most attributes one element may have: more stops the document (CXML_TOO_MANY_ATTRIBUTES). The
 * caller refuses a tag with more before libxml2 sees it (libxml2 2.9 compares each attribute of a tag with
 * every one before it). */
#define CXML_MAX_ATTRIBUTES 256

/* One attribute of an element: UTF-8, valid during the start_element call only. */
struct cxml_attribute {
    /* The name without its prefix. */
    const char *local_name;
    /* The namespace its prefix resolves to; NULL for none (an unprefixed attribute has none). */
    const char *namespace_uri;
    /* The value, with character and predefined entity references decoded; not NUL-terminated. */
    const char *value;
    int value_length;
};

/* What a document is told to, as libxml2's SAX2 parser meets it. The strings are UTF-8 and valid during
 * the call only. A function that returns 0 stops the document (CXML_STOPPED). */
struct cxml_handler {
    void *context;
    /* An element opens at `line` (0 when unknown), with its attributes (namespace declarations are not
     * among them: `namespace_count` says how many the tag makes). */
    int (*start_element)(void *context, const char *local_name, const char *namespace_uri, int line,
                         const struct cxml_attribute *attributes, int attribute_count, int namespace_count);
    /* The element opened last closes (an empty element, <a/>, opens and closes). */
    int (*end_element)(void *context, const char *local_name, const char *namespace_uri);
    /* Character data: text or a CDATA section, `length` bytes, not NUL-terminated; one run of text may
     * come in several calls. */
    void (*characters)(void *context, const char *text, int length);
};

/* How a document's reading ended. */
enum cxml_outcome {
    /* Read to its end, well-formed. */
    CXML_DONE = 0,
    /* The handler stopped it. */
    CXML_STOPPED = 1,
    /* Not well-formed XML (cxml_failure says libxml2's first error and its line). */
    CXML_MALFORMED = 2,
    /* A <!DOCTYPE> or an entity declaration. */
    CXML_DOCUMENT_TYPE = 3,
    /* An entity reference left unexpanded (cxml_failure's message is its name). */
    CXML_ENTITY_REFERENCE = 4,
    /* An element with more than CXML_MAX_ATTRIBUTES attributes. */
    CXML_TOO_MANY_ATTRIBUTES = 5,
    /* libxml2 cannot be loaded (cxml_library_error says why). */
    CXML_LIBRARY_MISSING = 6,
    /* Memory ran out before the document was read. */
    CXML_NO_MEMORY = 7,
};

/* libxml2's first error and its line (1-based; 0 when unknown). */
struct cxml_failure {
    char message[256];
    int line;
};

/* Reads the `length` bytes at `bytes` (unchanged until it returns) in one pass with libxml2's SAX2 parser,
 * telling `handler`. The bytes are read as UTF-8, whatever the document declares. Without network access,
 * DTD loading, entity substitution or XML_PARSE_HUGE (libxml2's own limits on depth and sizes stay), with
 * libxml2's messages recorded in `failure`, never printed. */
enum cxml_outcome cxml_parse(const unsigned char *bytes, int length, const struct cxml_handler *handler,
                             struct cxml_failure *failure);

#endif
