/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Reading small files (procfs, sysfs, configuration), replacing a file
 * atomically, and building paths below an optional root (tests and
 * `monitor --root`). */

#include <stddef.h>
#include <sys/types.h>

/* The whole file, NUL-terminated (embedded NULs are kept: *ret_len counts
 * them). -EFBIG past max bytes, -errno from open/read. */
int read_small_file(const char *path, size_t max, char **ret, size_t *ret_len);

/* Replaces path with text, atomically: a hidden temporary ".NAME.XXXXXX"
 * in the same directory (never matching a reader's *.suffix glob), given
 * mode, fsync, then rename over NAME; the temporary is removed on failure.
 * path must name a directory ("/" in it): -EINVAL otherwise; -errno. */
int write_file_atomic(const char *path, const char *text, mode_t mode);

/* root + a (+ "/" + b when b is not NULL); root NULL or "/" is the real
 * root. a is absolute. NULL on allocation failure. */
char *path_join(const char *root, const char *a, const char *b);
