/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Under journald (stderr is $JOURNAL_STREAM) a line starts with its syslog
 * priority and no program name; elsewhere with "rng-health: ". %m shows
 * the error a log_*_errno() call names, and errno is left as it was. */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "test-util.h"

static char path[] = "/tmp/test-log.XXXXXX";

/* Runs fn with stderr redirected to a file; returns what it wrote. */
static void capture(const char *journal_stream, void (*fn)(void), char *out, size_t len) {
        int saved = dup(STDERR_FILENO), fd = mkstemp(path);
        struct stat st;
        char env[64];
        ssize_t n;

        CHECK(fd >= 0 && saved >= 0, "mkstemp/dup");
        fflush(stderr);
        dup2(fd, STDERR_FILENO);
        fstat(fd, &st);
        if (journal_stream && strcmp(journal_stream, "self") == 0) {
                snprintf(env, sizeof(env), "%llu:%llu", (unsigned long long) st.st_dev, (unsigned long long) st.st_ino);
                setenv("JOURNAL_STREAM", env, 1);
        } else if (journal_stream)
                setenv("JOURNAL_STREAM", journal_stream, 1);
        else
                unsetenv("JOURNAL_STREAM");
        fn();
        fflush(stderr);
        dup2(saved, STDERR_FILENO);
        close(saved);
        n = pread(fd, out, len - 1, 0);
        out[n > 0 ? n : 0] = '\0';
        close(fd);
        unlink(path);
        strcpy(path, "/tmp/test-log.XXXXXX");
}

static void log_some(void) {
        log_full(LOG_ERR, "config broken");
        log_full(LOG_WARNING, "odd %d", 7);
        CHECK_EQ_INT(log_error_errno(-22, "failed: %s", "x"), -22);
        log_line(LOG_NOTICE, "plain");
}

static void log_errnos(void) {
        errno = EPERM;
        CHECK_EQ_INT(log_warning_errno(-ENOENT, "open: %m"), -ENOENT);
        CHECK_EQ_INT(errno, EPERM);
        CHECK_EQ_INT(log_error_errno(EACCES, "positive: %m"), -EACCES);
        log_notice("plain %m"); /* no error named: errno's */
        CHECK_EQ_INT(errno, EPERM);
}

int main(void) {
        char out[512];

        capture("self", log_some, out, sizeof(out));
        CHECK(strcmp(out, "<3>config broken\n<4>odd 7\n<3>failed: x\n<5>plain\n") == 0, "journal: '%s'", out);
        CHECK(log_stderr_is_journal() == false, "stderr is no longer the stream");

        capture(NULL, log_some, out, sizeof(out));
        CHECK(strcmp(out, "rng-health: config broken\nrng-health: odd 7\nrng-health: failed: x\nrng-health: plain\n") == 0,
              "terminal: '%s'", out);

        capture("self", log_errnos, out, sizeof(out));
        CHECK(strcmp(out, "<4>open: No such file or directory\n<3>positive: Permission denied\n"
                          "<5>plain Operation not permitted\n") == 0,
              "%%m: '%s'", out);

        /* Another stream, or a malformed variable: not the journal. */
        capture("1:2", log_some, out, sizeof(out));
        CHECK(strncmp(out, "rng-health: ", 12) == 0, "other stream: '%s'", out);
        capture("junk", log_some, out, sizeof(out));
        CHECK(strncmp(out, "rng-health: ", 12) == 0, "junk: '%s'", out);
        return test_result("test-log");
}
