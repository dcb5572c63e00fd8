#include "csqlite.h"
#include <stddef.h>

int csqlite_shim_version(void) { return 3; }

int csqlite_open(const char *path, int readonly, sqlite3 **db) {
    int flags = SQLITE_OPEN_NOMUTEX;
    flags |= readonly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    int rc = sqlite3_open_v2(path, db, flags, NULL);
    if (*db != NULL) sqlite3_extended_result_codes(*db, 1);
    return rc;
}

int csqlite_open_immutable(const char *uri, sqlite3 **db) {
    int rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    if (*db != NULL) sqlite3_extended_result_codes(*db, 1);
    return rc;
}

int csqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text, int byte_count) {
    return sqlite3_bind_text(stmt, index, text, byte_count, SQLITE_TRANSIENT);
}

int csqlite_bind_blob(sqlite3_stmt *stmt, int index, const void *bytes, int byte_count) {
    return sqlite3_bind_blob(stmt, index, bytes, byte_count, SQLITE_TRANSIENT);
}

int csqlite_set_defensive(sqlite3 *db, int on) {
#if SQLITE_VERSION_NUMBER >= 3026000
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, (int *)0);
#else
    (void)db; (void)on;
    return SQLITE_OK;
#endif
}

int csqlite_header_version(void) { return SQLITE_VERSION_NUMBER; }
int csqlite_library_version(void) { return sqlite3_libversion_number(); }
