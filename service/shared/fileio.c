/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
