/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>

#include "escape.h"
#include "fileio.h"
#include "log.h"
#include "macro.h"
#include "metrics-file.h"

/* Whether the directory of path (absolute) does not exist: what ENOENT
 * means there, unless the directory refuses new files (/proc). */
static bool directory_missing(const char *path) {
        const char *slash = strrchr(path, '/');
        _cleanup_free_ char *dir = slash ? strndup(path, (size_t) (slash - path)) : NULL;
        struct stat st;

        return dir && stat(dir[0] ? dir : "/", &st) < 0 && (errno == ENOENT || errno == ENOTDIR);
}

int metrics_file_update(MetricsFile *mf, const char *path, const char *text) {
        bool same;
        int r;

        if (!path || !path[0])
                return 0;
        /* The failure belongs to its path: a new path that fails is said,
         * a new path that works is not a recovery. */
        same = mf->failing && strcmp(mf->path, path) == 0;
        r = write_file_atomic(path, text, 0644);
        if (r < 0 && !same) {
                _cleanup_free_ char *p = escape_str(path);

                mf->failing = true;
                snprintf(mf->path, sizeof(mf->path), "%s", path);
                if (r == -ENOENT && directory_missing(path))
                        log_notice("metrics: cannot write %s: its directory does not exist "
                                 "(prometheus-node-exporter not installed?); not logged again until a write succeeds",
                                 p ?: "(out of memory)");
                else if (r == -ELOOP || r == -EISDIR || r == -EBADFD)
                        log_warning("metrics: cannot write %s: it %s; not logged again until a write succeeds",
                                    p ?: "(out of memory)", input_error_to_string(r));
                else if (r == -ENOENT)
                        log_warning("metrics: cannot write %s: its directory takes no new file (%m); "
                                    "not logged again until a write succeeds", p ?: "(out of memory)");
                else
                        log_warning_errno(r, "metrics: cannot write %s: %m; not logged again until a write succeeds",
                                          p ?: "(out of memory)");
        } else if (r >= 0 && mf->failing) {
                mf->failing = false;
                if (same) {
                        _cleanup_free_ char *p = escape_str(path);

                        log_info("metrics: writing %s again", p ?: "(out of memory)");
                }
        }
        return r;
}
