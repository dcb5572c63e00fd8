/*
 * A C library opened with dlopen at first use instead of linked (CCurl, CGPS, CMosquitto): the commands
 * that never use it never map it or what it pulls in (bench/README.md, "fixcast line"). Each shim keeps
 * a table of function pointers and names its symbols by their offset in that table; this file does the
 * rest once: open, resolve every symbol or fail with the loader's reason, load at most once across
 * threads, probe another soname without touching the shim's own table, and (CXML only) close it again.
 */
#ifndef CLAZYLIBRARY_H
#define CLAZYLIBRARY_H

#include <pthread.h>
#include <stddef.h>

/* One function the shim calls: its name in the library and where its pointer goes in the table. */
struct clazy_symbol {
    const char *name;
    size_t offset;
};

/* One library's loading state; a shim has one, initialised with CLAZY_LIBRARY_INIT. */
struct clazy_library {
    pthread_mutex_t mutex;
    int loaded; /* set (release) once the table is filled; read with acquire */
    void *handle; /* dlopen's, while loaded */
    char error[512];
};
#define CLAZY_LIBRARY_INIT {PTHREAD_MUTEX_INITIALIZER, 0, NULL, {0}}

/* Opens `soname` and fills `table` with every symbol, once: 0 when loaded (now or before), -1 when the
 * library or a symbol is missing, with the reason in clazy_error(). The library stays open (unless
 * clazy_unload closes it). */
int clazy_load(struct clazy_library *library, const char *soname, const struct clazy_symbol *symbols,
               size_t count, void *table);
/* Closes a loaded library, so that its pages (and those of what it pulled in) leave the process, and the
 * next clazy_load opens it again. Only for a caller that knows no thread uses the table or anything the
 * library gave out, now or until its next clazy_load returns (CXML counts the documents it is reading for this). */
void clazy_unload(struct clazy_library *library);
/* Why the last clazy_load failed (the loader's text), or "". */
const char *clazy_error(struct clazy_library *library);
/* Opens `soname`, checks it has every symbol, and closes it again: 0 when it would do, -1 with the
 * reason in `error`. */
int clazy_probe(const char *soname, const struct clazy_symbol *symbols, size_t count, char *error,
                size_t capacity);

#endif
