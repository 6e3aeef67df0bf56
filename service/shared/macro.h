/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Small helpers in the spirit of systemd's macro.h / alloc-util.h / fd-util.h. */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ELEMENTSOF(x) (sizeof(x) / sizeof((x)[0]))
#define _cleanup_(f) __attribute__((cleanup(f)))
#define _unused_ __attribute__((unused))
#define _printf_(a, b) __attribute__((format(printf, a, b)))

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif
#ifndef MAX
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#endif

/* const char *name_to_string(type i): table[i], or NULL out of range. */
#define DEFINE_STRING_TABLE_TO_STRING(name, type, table)          \
        const char *name##_to_string(type i) {                    \
                if ((int) i < 0 || (size_t) i >= ELEMENTSOF(table)) \
                        return NULL;                              \
                return table[i];                                  \
        }

/* The index of s in table[0..n) (NULL entries skipped); -EINVAL for none,
 * or for s NULL. */
static inline int string_table_lookup(const char *const *table, size_t n, const char *s) {
        if (!s)
                return -EINVAL;
        for (size_t i = 0; i < n; i++)
                if (table[i] && strcmp(table[i], s) == 0)
                        return (int) i;
        return -EINVAL;
}

/* int name_from_string(const char *s): string_table_lookup() in table. */
#define DEFINE_STRING_TABLE_FROM_STRING(name, table)                     \
        int name##_from_string(const char *s) {                          \
                return string_table_lookup(table, ELEMENTSOF(table), s); \
        }

/* Takes the pointer out of a variable (leaving NULL), for handing it on:
 * "*ret = TAKE_PTR(x);" where x is a _cleanup_ variable. */
#define TAKE_PTR(p)                         \
        ({                                  \
                __typeof__(p) _ptr_ = (p);  \
                (p) = NULL;                 \
                _ptr_;                      \
        })

/* Defines static inline void func##p(type *p) that calls func(*p) when
 * *p is not NULL: the cleanup of a type with a destructor (systemd's). */
#define DEFINE_TRIVIAL_CLEANUP_FUNC(type, func)     \
        static inline void func##p(type *p) {       \
                if (*p)                             \
                        func(*p);                   \
        }

static inline void freep(void *p) {
        free(*(void **) p);
}
#define _cleanup_free_ _cleanup_(freep)

static inline void fclosep(FILE **f) {
        if (*f)
                fclose(*f);
}
#define _cleanup_fclose_ _cleanup_(fclosep)

static inline void closep(int *fd) {
        if (*fd >= 0)
                close(*fd);
}
#define _cleanup_close_ _cleanup_(closep)

/* errno as a negative value, never 0 (for "-errno returned upward"). */
static inline int negative_errno(void) {
        return errno > 0 ? -errno : -EIO;
}

