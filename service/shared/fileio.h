/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Reading small files (procfs, sysfs, configuration) and building paths
 * below an optional root (tests and `monitor --root`). */

#include <stddef.h>

/* The whole file, NUL-terminated (embedded NULs are kept: *ret_len counts
 * them). -EFBIG past max bytes, -errno from open/read. */
int read_small_file(const char *path, size_t max, char **ret, size_t *ret_len);

/* root + a (+ "/" + b when b is not NULL); root NULL or "/" is the real
 * root. a is absolute. NULL on allocation failure. */
char *path_join(const char *root, const char *a, const char *b);
