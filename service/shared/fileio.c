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

int read_small_file(const char *path, size_t max, char **ret, size_t *ret_len) {
        _cleanup_fclose_ FILE *f = fopen(path, "re");
        _cleanup_free_ char *buf = NULL;
        size_t len = 0, cap = 0;

        if (!f)
                return negative_errno();
        for (;;) {
                size_t k;

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
                k = fread(buf + len, 1, cap - len, f);
                len += k;
                if (len > max)
                        return -EFBIG;
                if (k == 0) {
                        if (ferror(f))
                                return -EIO;
                        break;
                }
        }
        buf[len] = '\0';
        *ret = buf;
        buf = NULL;
        *ret_len = len;
        return 0;
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
        int fd, r;

        if (!slash || !slash[1])
                return -EINVAL;
        if ((size_t) snprintf(tmp, sizeof(tmp), "%.*s.%s.XXXXXX", (int) dirlen, path, path + dirlen) >= sizeof(tmp))
                return -ENAMETOOLONG;
        fd = mkostemp(tmp, O_CLOEXEC);
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
