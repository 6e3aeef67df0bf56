/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "kernel-counters.h"
#include "macro.h"

int kernel_counter_parse(const char *text, size_t len, uint64_t *ret) {
        uint64_t v = 0;

        if (!text || !ret)
                return -EINVAL;
        if (len > 0 && text[len - 1] == '\n')
                len--;
        if (len == 0 || len > 20)
                return -EINVAL;
        for (size_t i = 0; i < len; i++) {
                unsigned d;

                if (text[i] < '0' || text[i] > '9')
                        return -EINVAL;
                d = (unsigned) (text[i] - '0');
                if (v > (UINT64_MAX - d) / 10)
                        return -EINVAL;
                v = v * 10 + d;
        }
        *ret = v;
        return 0;
}

int kernel_counter_path(const char *root, RngSourceId i, const char *name, char *buf, size_t size) {
        const RngSourceDesc *d = rng_source_desc(i);

        if (!d || !d->kernel.counters)
                return -ENOENT;
        if (!root || (root[0] == '/' && root[1] == '\0'))
                root = "";
        if ((size_t) snprintf(buf, size, "%s%s/%s_%s", root, KERNEL_COUNTERS_DIR,
                              d->kernel.counters, name) >= size)
                return -ENAMETOOLONG;
        return 0;
}

static int read_counter(const char *root, RngSourceId i, const char *name, uint64_t *ret) {
        char path[4096], buf[32];
        _cleanup_close_ int fd = -EBADF;
        ssize_t n;
        int r;

        r = kernel_counter_path(root, i, name, path, sizeof(path));
        if (r < 0)
                return r;
        fd = open_input(path, 0); /* never a FIFO below --root */
        if (fd < 0)
                return fd;
        n = read(fd, buf, sizeof(buf));
        if (n < 0)
                return negative_errno();
        if ((size_t) n == sizeof(buf)) /* longer than any counter */
                return -EINVAL;
        return kernel_counter_parse(buf, (size_t) n, ret);
}

int kernel_counters_read(const char *root, KernelCounters *ret) {
        KernelCounters c = {};
        bool any = false;
        int r;

        if (!ret)
                return -EINVAL;
        /* exhausted first: the kernel counts a call as retried before it
         * counts it as exhausted, so reading in this order keeps
         * retried >= exhausted while both grow. */
        FOREACH_RNG_SOURCE(i) {
                if (!rng_source_desc(i)->kernel.counters)
                        continue;
                r = read_counter(root, i, "exhausted", &c.exhausted[i]);
                if (r < 0)
                        return r;
                r = read_counter(root, i, "retried", &c.retried[i]);
                if (r < 0)
                        return r;
                any = true;
        }
        if (!any)
                return -ENOENT; /* no source has counters */
        *ret = c;
        return 0;
}

int kernel_counter_open_poll(const char *root, RngSourceId i) {
        char path[4096], buf[32];
        int fd, r;

        r = kernel_counter_path(root, i, "exhausted", path, sizeof(path));
        if (r < 0)
                return r;
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0)
                return negative_errno();
        (void) pread(fd, buf, sizeof(buf), 0); /* arm */
        return fd;
}
