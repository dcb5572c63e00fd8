#ifndef CXML_H
#define CXML_H
/*
 * Shim over libxml2's xmlTextReader: a document held in memory, read node by node, prefixed cxml_.
 *
 * libxml2 is opened with dlopen at the first document, not linked (cxml.c says why): until it loads,
 * cxml_reader_open fails and cxml_library_error() says why. This header names no libxml2 type, so the
 * Swift that imports it needs no libxml2 include path; only cxml.c includes libxml2's headers.
 * See: https://gnome.pages.gitlab.gnome.org/libxml2/devhelp/libxml2-xmlreader.html
 */
#include <stddef.h>

/* The soname opened ("libxml2.so.2"). */
const char *cxml_library_soname(void);
/* Opens libxml2 and resolves every function this shim calls, once per process (thread-safe; after a
 * failure the next call tries again). 0 when it is ready, -1 when it cannot be loaded: then
 * cxml_library_error() says why (the loader's text). */
int cxml_library_load(void);
const char *cxml_library_error(void);
/* Closes libxml2 (after xmlCleanupParser) when no reader is open, so that it and what it pulled in leave
 * the process (about 1.9 MB of their pages stay resident otherwise); the next cxml_reader_open opens it
 * again. 1 when it was closed, 0 when it was not loaded or a reader is open. For a document read once
 * (a route at start), not for one read again every few minutes (each opening costs relocations, and
 * libxml2 keeps some per-thread state it never frees). */
int cxml_library_unload_if_idle(void);
/* Opens `soname` the way cxml_library_load does, checks it has every function, and closes it again,
 * leaving the shim's own library alone: 0 when it would do, -1 with the reason in `error`. */
int cxml_library_probe(const char *soname, char *error, size_t capacity);

/* What a node is, folded from libxml2's XML_READER_TYPE_* to what a reader of plain documents needs. */
enum cxml_node_kind {
    CXML_NODE_ELEMENT = 1,
    CXML_NODE_END_ELEMENT = 2,
    /* Character data: text, a CDATA section, whitespace; `value` holds it. */
    CXML_NODE_TEXT = 3,
    /* A <!DOCTYPE>: the document declares a DTD. */
    CXML_NODE_DOCUMENT_TYPE = 4,
    /* An entity reference left unexpanded (entities are never substituted). */
    CXML_NODE_ENTITY_REFERENCE = 5,
    /* A comment, a processing instruction, the XML declaration: nothing a reader of data keeps. */
    CXML_NODE_OTHER = 6,
};

/* One node. The strings are UTF-8, owned by the reader, and valid until the next cxml_reader_read. */
struct cxml_node {
    enum cxml_node_kind kind;
    /* Elements: 0 for the root. */
    int depth;
    /* An element written <a/>: no CXML_NODE_END_ELEMENT follows it. */
    int is_empty;
    /* Elements: the line (1-based) their start tag is on; 0 when unknown. */
    int line;
    /* Elements and attributes: the name without its prefix. */
    const char *local_name;
    /* The namespace the prefix (or the default namespace) resolves to; NULL for none. */
    const char *namespace_uri;
    /* Text and attributes: the value, with character and predefined entity references decoded. */
    const char *value;
};

/* An open document; opaque. */
struct cxml_reader;

/* Starts reading `length` bytes at `bytes`, which must stay valid and unchanged until cxml_reader_close;
 * open, read and close it on one thread. The bytes are read as UTF-8, whatever the document declares.
 * Without network access, DTD loading, entity substitution or XML_PARSE_HUGE (libxml2's own limits on
 * depth and sizes stay), and with libxml2's messages recorded, never printed. NULL when libxml2 cannot
 * be loaded (cxml_library_error) or memory is short. */
struct cxml_reader *cxml_reader_open(const unsigned char *bytes, int length);
/* The next node into `node`: 1 read, 0 the document ended, -1 an error (the first one libxml2
 * reported, even one it could read past, ends the document: cxml_reader_error says which). */
int cxml_reader_read(struct cxml_reader *reader, struct cxml_node *node);
/* The current element's first attribute (`first` non-zero) or its next one into `node` (local_name,
 * namespace_uri, value; the value is valid until the next cxml_reader_attribute or cxml_reader_read),
 * namespace declarations included: 1 when there is one, 0 when there are no more (the reader is back on
 * the element). One after another, never by index: libxml2 finds the attribute at an index by walking
 * from the first, which over every index is quadratic. */
int cxml_reader_attribute(struct cxml_reader *reader, int first, struct cxml_node *node);
/* libxml2's message for the first error (no trailing newline), or "" when there was none. */
const char *cxml_reader_error(const struct cxml_reader *reader);
/* The line of the first error (1-based), or 0 when unknown. */
int cxml_reader_error_line(const struct cxml_reader *reader);
void cxml_reader_close(struct cxml_reader *reader);

#endif
