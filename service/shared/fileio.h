/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Reading small files (procfs, sysfs, configuration), replacing a file
 * atomically, and building paths below an optional root (tests and
 * `monitor --root`). */

#include <stddef.h>
#include <sys/types.h>

typedef enum ReadFlags {
        READ_NOFOLLOW = 1 << 0, /* a symbolic link is refused (-ELOOP): where none is expected */
} ReadFlags;

/* The one rule for opening an input file (configuration, drop-in, state,
 * procfs and sysfs): read-only, O_CLOEXEC, O_NONBLOCK (a FIFO cannot block
 * the open, so nothing can keep the daemon from its signals), O_NOFOLLOW
 * with READ_NOFOLLOW; then it must be a regular file (fstat): -EISDIR for a
 * directory, -EBADFD for a FIFO, socket or device node (also a socket or a
 * device without a driver, which open() refuses with ENXIO). Returns the
 * fd or -errno. */
int open_input(const char *path, ReadFlags flags);
/* One line's reason for the errors of open_input(), read_small_file() and
 * write_file_atomic(): "is a directory, not a file", "is not a regular
 * file (a FIFO, socket or device node)", ...; strerror() for the others. */
const char *input_error_to_string(int r);

/* The whole file, opened with open_input(), NUL-terminated (embedded NULs
 * are kept: *ret_len counts them). -EFBIG past max bytes, -errno from
 * open_input()/read. */
int read_small_file_full(const char *path, ReadFlags flags, size_t max, char **ret, size_t *ret_len);
/* The same without flags (a symbolic link is followed). */
int read_small_file(const char *path, size_t max, char **ret, size_t *ret_len);

/* Replaces path with text, atomically: a hidden temporary ".NAME.XXXXXX"
 * in the same directory (never matching a reader's *.suffix glob; created
 * with O_EXCL|O_NOFOLLOW), given mode, fsync, then rename over NAME; the
 * temporary is removed on failure. Only a regular file at path is
 * replaced: -ELOOP for a symbolic link, -EISDIR for a directory, -EBADFD
 * for a device node, FIFO or socket, and nothing is created then. path
 * must name a directory ("/" in it): -EINVAL otherwise; -errno. */
int write_file_atomic(const char *path, const char *text, mode_t mode);

/* root + a (+ "/" + b when b is not NULL); root NULL or "/" is the real
 * root. a is absolute. NULL on allocation failure. */
char *path_join(const char *root, const char *a, const char *b);
