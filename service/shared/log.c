/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "parse-util.h"

bool log_stderr_is_journal(void) {
        const char *e = getenv("JOURNAL_STREAM");
        unsigned long long dev, ino;
        struct stat st;
        char tail;

        /* "DEV:INO", both decimal */
        if (!e || sscanf(e, "%llu:%llu%c", &dev, &ino, &tail) != 2)
                return false;
        if (fstat(STDERR_FILENO, &st) < 0)
                return false;
        return st.st_dev == dev && st.st_ino == ino;
}

/* error > 0: what %m shows, set last (the prefix may touch errno). */
static void log_va(int priority, int error, const char *fmt, va_list ap) {
        if (log_stderr_is_journal())
                fprintf(stderr, "<%d>", priority & LOG_PRIMASK);
        else
                fputs("rng-health: ", stderr);
        if (error > 0)
                errno = error;
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
}

int log_full_errno(int priority, int error, const char *fmt, ...) {
        int saved = errno, e = error < 0 ? -error : error;
        va_list ap;

        va_start(ap, fmt);
        log_va(priority, e != 0 ? e : saved, fmt, ap);
        va_end(ap);
        errno = saved;
        return -e;
}

void log_line(int priority, const char *line) {
        log_full(priority, "%s", line);
}
