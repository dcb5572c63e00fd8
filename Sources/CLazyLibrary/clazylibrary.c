#include "clazylibrary.h"

#include <dlfcn.h>
#include <stdio.h>

/* Opens `soname` and resolves each symbol into `table` (or only checks it when `table` is NULL); on
 * failure closes the library again and writes why into `error`. */
static void *open_resolved(const char *soname, const struct clazy_symbol *symbols, size_t count,
                           void *table, char *error, size_t capacity) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *why = dlerror();
        snprintf(error, capacity, "%s", why != NULL ? why : soname);
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        void *address = dlsym(handle, symbols[i].name);
        if (address == NULL) {
            snprintf(error, capacity, "%s has no %s", soname, symbols[i].name);
            dlclose(handle);
            return NULL;
        }
        if (table != NULL) *(void **)((char *)table + symbols[i].offset) = address;
    }
    return handle;
}

/* Whether clazy_load has succeeded (acquire). */
static int is_loaded(struct clazy_library *library) {
    return __atomic_load_n(&library->loaded, __ATOMIC_ACQUIRE);
}

int clazy_load(struct clazy_library *library, const char *soname, const struct clazy_symbol *symbols,
               size_t count, void *table) {
    if (is_loaded(library)) return 0;
    pthread_mutex_lock(&library->mutex);
    /* The table is read only after `loaded` is seen set, so a failed attempt's partial writes are
     * never used. */
    if (!library->loaded) {
        void *handle = open_resolved(soname, symbols, count, table, library->error, sizeof library->error);
        if (handle != NULL) {
            library->handle = handle;
            __atomic_store_n(&library->loaded, 1, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&library->mutex);
    return is_loaded(library) ? 0 : -1;
}

void clazy_unload(struct clazy_library *library) {
    pthread_mutex_lock(&library->mutex);
    if (library->loaded) {
        __atomic_store_n(&library->loaded, 0, __ATOMIC_RELEASE);
        dlclose(library->handle);
        library->handle = NULL;
    }
    pthread_mutex_unlock(&library->mutex);
}

const char *clazy_error(struct clazy_library *library) {
    pthread_mutex_lock(&library->mutex);
    const char *text = library->error;
    pthread_mutex_unlock(&library->mutex);
    return text;
}

int clazy_probe(const char *soname, const struct clazy_symbol *symbols, size_t count, char *error,
                size_t capacity) {
    if (capacity > 0) error[0] = '\0';
    void *handle = open_resolved(soname, symbols, count, NULL, error, capacity);
    if (handle == NULL) return -1;
    dlclose(handle);
    return 0;
}
