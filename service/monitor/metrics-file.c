/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <string.h>
#include <syslog.h>

#include "fileio.h"
#include "log.h"
#include "macro.h"
#include "metrics-file.h"

int metrics_file_update(MetricsFile *mf, const char *path, const char *text) {
        int r;

        if (!path || !path[0])
                return 0;
        r = write_file_atomic(path, text, 0644);
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
