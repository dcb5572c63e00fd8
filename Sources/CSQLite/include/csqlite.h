#ifndef CSQLITE_H
#define CSQLITE_H
/* Shim over libsqlite3: Swift sees sqlite3.h's plain functions through this module, plus typed,
 * non-variadic csqlite_ wrappers for what Swift cannot call itself (SQLITE_TRANSIENT is a cast
 * function-pointer macro; sqlite3_config and sqlite3_db_config are variadic). */
#include <sqlite3.h>
#include <stdint.h>

int csqlite_shim_version(void);

/* sqlite3_open_v2 for read-write-create (readonly == 0) or read-only (readonly != 0), always with
 * SQLITE_OPEN_NOMUTEX (the connection lives inside one actor) and extended result codes on. */
int csqlite_open(const char *path, int readonly, sqlite3 **db);

/* sqlite3_open_v2 of a `file:` URI, read-only (SQLITE_OPEN_URI), for `immutable=1`: a WAL-mode store on
 * read-only media, where SQLite can neither find nor create the -shm file a WAL reader needs. */
int csqlite_open_immutable(const char *uri, sqlite3 **db);

/* Binds that make SQLite copy the bytes (SQLITE_TRANSIENT), so Swift's buffer may go away. */
int csqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text, int byte_count);
int csqlite_bind_blob(sqlite3_stmt *stmt, int index, const void *bytes, int byte_count);

/* sqlite3_db_config(SQLITE_DBCONFIG_DEFENSIVE, on): refuses writes that could corrupt the file
 * (writable_schema, journal_mode=OFF tricks). A no-op before SQLite 3.26. */
int csqlite_set_defensive(sqlite3 *db, int on);

/* The library's version number as compiled against and as loaded. */
int csqlite_header_version(void);
int csqlite_library_version(void);

#endif
