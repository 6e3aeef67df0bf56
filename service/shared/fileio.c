/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "macro.h"

int open_input(const char *path, ReadFlags flags) {
        struct stat st;
        int fd;

        /* O_NONBLOCK: opening a FIFO (or a device) must not wait for a
         * writer; a regular file ignores it. */
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (flags & READ_NOFOLLOW ? O_NOFOLLOW : 0));
        if (fd < 0) {
                int r = negative_errno();

                /* A socket cannot be opened at all (ENXIO, "No such device
                 * or address"), nor a device node without a driver: what
                 * is there is not a regular file, and is named so. */
                if (r == -ENXIO && ((flags & READ_NOFOLLOW) ? lstat(path, &st) : stat(path, &st)) == 0 &&
                    !S_ISREG(st.st_mode))
                        return S_ISDIR(st.st_mode) ? -EISDIR : -EBADFD;
                return r;
        }
        if (fstat(fd, &st) < 0) {
                int r = negative_errno();

                close(fd);
                return r;
        }
        if (!S_ISREG(st.st_mode)) {
                close(fd);
                return S_ISDIR(st.st_mode) ? -EISDIR : -EBADFD;
        }
        return fd;
}

const char *input_error_to_string(int r) {
        switch (r) {
        case -EISDIR:
                return "is a directory, not a file";
        case -EBADFD:
                return "is not a regular file (a FIFO, socket or device node)";
        case -ELOOP:
                return "is a symbolic link, which is not followed here";
        case -EFBIG:
                return "is too large";
        default:
                return strerror(-r);
        }
}

int read_small_file_full(const char *path, ReadFlags flags, size_t max, char **ret, size_t *ret_len) {
        _cleanup_close_ int fd = -EBADF;
        _cleanup_free_ char *buf = NULL;
        size_t len = 0, cap = 0;

        fd = open_input(path, flags);
        if (fd < 0)
                return fd;
        for (;;) {
                ssize_t k;

                if (cap - len < 4096 || len == cap) {
                        char *n;

                        if (cap > max)
                                return -EFBIG;
                        cap = cap ? cap * 2 : 16384;
                        n = realloc(buf, cap + 1);
                        if (!n)
                                return -ENOMEM;
                        buf = n;
                }
                k = read(fd, buf + len, cap - len);
                if (k < 0) {
                        if (errno == EINTR)
                                continue;
                        return negative_errno();
                }
                len += (size_t) k;
                if (len > max)
                        return -EFBIG;
                if (k == 0)
                        break;
        }
        buf[len] = '\0';
        *ret = TAKE_PTR(buf);
        *ret_len = len;

        return 0;
}

int read_small_file(const char *path, size_t max, char **ret, size_t *ret_len) {
        return read_small_file_full(path, 0, max, ret, ret_len);
}

char *path_join(const char *root, const char *a, const char *b) {
        const char *r = root && strcmp(root, "/") != 0 ? root : "";
        char *s;

        if (asprintf(&s, "%s%s%s%s", r, a, b ? "/" : "", b ?: "") < 0)
                return NULL;
        return s;
}

static int write_all(int fd, const char *p, size_t n) {
        while (n > 0) {
                ssize_t k = write(fd, p, n);

                if (k < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                p += k;
                n -= (size_t) k;
        }
        return 0;
}

int write_file_atomic(const char *path, const char *text, mode_t mode) {
        char tmp[PATH_MAX];
        const char *slash = strrchr(path, '/');
        size_t dirlen = slash ? (size_t) (slash - path + 1) : 0;
        struct stat st;
        int fd, r;

        if (!slash || !slash[1])
                return -EINVAL;
        if ((size_t) snprintf(tmp, sizeof(tmp), "%.*s.%s.XXXXXX", (int) dirlen, path, path + dirlen) >= sizeof(tmp))
                return -ENAMETOOLONG;
        /* rename() replaces whatever is at path: only a regular file (or
         * nothing) may be, never a device node, FIFO, socket, symbolic
         * link or directory. */
        if (lstat(path, &st) >= 0) {
                if (S_ISLNK(st.st_mode))
                        return -ELOOP;
                if (S_ISDIR(st.st_mode))
                        return -EISDIR;
                if (!S_ISREG(st.st_mode))
                        return -EBADFD;
        } else if (errno != ENOENT)
                return -errno;
        /* mkostemp() creates with O_CREAT|O_EXCL; O_NOFOLLOW as well. */
        fd = mkostemp(tmp, O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0)
                return -errno;
        r = write_all(fd, text, strlen(text));
        if (r >= 0 && fchmod(fd, mode) < 0)
                r = -errno;
        if (r >= 0 && fsync(fd) < 0)
                r = -errno;
        if (close(fd) < 0 && r >= 0)
                r = -errno;
        if (r >= 0 && rename(tmp, path) < 0)
                r = -errno;
        if (r < 0)
                (void) unlink(tmp);
        return r;
}
