/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Writes the metrics text where node_exporter's textfile collector reads
 * it, with write_file_atomic() (fileio.h): a hidden temporary file in the same directory (".NAME.XXXXXX", not
 * *.prom, so the collector never reads it half-written), mode 0644 (the
 * collector runs as another user), fsync, then rename over NAME; only a
 * regular file (or nothing) at NAME is replaced: a device node, FIFO,
 * socket, symbolic link or directory there is refused. A failed
 * write is logged once (until a write succeeds again), at notice when the
 * directory does not exist (no node_exporter installed), else at warning;
 * it never stops the daemon. The failure belongs to its path: after a
 * reload to another path, a failure there is logged again, and a success
 * there is no "writing ... again" for a file never written. */

#include <limits.h>
#include <stdbool.h>

typedef struct MetricsFile {
        bool failing;         /* the last write failed and was logged */
        char path[PATH_MAX];  /* the path that failed */
} MetricsFile;

/* path NULL or "": disabled, nothing written. Logs as above. */
int metrics_file_update(MetricsFile *mf, const char *path, const char *text);
