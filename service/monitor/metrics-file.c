/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "log.h"
#include "macro.h"
#include "metrics-file.h"

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

int metrics_file_write_atomic(const char *path, const char *text) {
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
        if (r >= 0 && fchmod(fd, 0644) < 0)
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

int metrics_file_update(MetricsFile *mf, const char *path, const char *text) {
        int r;

        if (!path || !path[0])
                return 0;
        r = metrics_file_write_atomic(path, text);
        if (r < 0 && !mf->failing) {
                mf->failing = true;
                if (r == -ENOENT)
                        log_full(LOG_NOTICE, "metrics: cannot write %s: its directory does not exist "
                                 "(prometheus-node-exporter not installed?); not logged again until a write succeeds", path);
                else
                        log_full(LOG_WARNING, "metrics: cannot write %s: %s; not logged again until a write succeeds",
                                 path, strerror(-r));
        } else if (r >= 0 && mf->failing) {
                mf->failing = false;
                log_full(LOG_INFO, "metrics: writing %s again", path);
        }
        return r;
}
