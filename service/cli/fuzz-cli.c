/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The command line: the input split on NUL bytes is argv. Its first word
 * picks the parser: "probe", "report" or "monitor" (the verbs' parse-only
 * entry points: nothing is probed, no daemon starts), anything else is
 * given to parse_since() (with a fixed now) as one --since value. Checked:
 * 0 or a negative errno; accepted arguments are within the bounds --help
 * gives; a relative --since lies before now by exactly what it says; the
 * parsers print nothing on success and exactly one line on an error, safe
 * to show whatever the arguments hold (escape-check.h). */

#include <errno.h>

#include "cli-monitor.h"
#include "cli-probe.h"
#include "cli-report.h"
#include "escape-check.h"
#include "fuzz-util.h"
#include "parse-util.h"

#define ARGS_MAX 64

/* Runs stmt (setting r) with stderr in memory, then checks what it printed. */
#define CAPTURE_STDERR(stmt, r)                                                            \
        do {                                                                               \
                char *_b = NULL;                                                           \
                size_t _n = 0;                                                             \
                FILE *_m = open_memstream(&_b, &_n), *_saved = stderr;                     \
                if (!_m)                                                                   \
                        abort();                                                           \
                stderr = _m;                                                               \
                stmt;                                                                      \
                stderr = _saved;                                                           \
                fclose(_m);                                                                \
                check_printed(_b, _n, (r));                                                \
                free(_b);                                                                  \
        } while (0)

static void check_printed(const char *b, size_t n, int r) {
        if (r >= 0) {
                FUZZ_ASSERT(n == 0);
                return;
        }
        FUZZ_ASSERT(n > 0 && b[n - 1] == '\n' && !memchr(b, '\n', n - 1));
        FUZZ_ASSERT(escape_check_output(b, n - 1, false));
}
#define NOW_USEC UINT64_C(1764745200000000) /* 2025-12-03 07:00:00 UTC */

static void check_probe(int argc, char **argv) {
        ProbeArgs a;
        int r;

        CAPTURE_STDERR(r = probe_parse_args(argc, argv, &a), r);
        FUZZ_ASSERT(r == 0 || r == -EINVAL);
        if (r < 0)
                return;
        FUZZ_ASSERT(a.params.instructions != 0 && a.params.instructions < (1u << _RNG_SOURCE_MAX));
        FUZZ_ASSERT(a.params.widths != 0 && a.params.widths < (1u << RNG_N_WIDTHS));
        FUZZ_ASSERT(a.params.threads <= CPU_SETSIZE);
        FUZZ_ASSERT(a.params.limits.budget_usec <= USEC_PER_DAY);
        FUZZ_ASSERT(a.params.limits.max_attempts <= (UINT64_C(1) << 32));
        /* Never both limits lifted: the probe always ends. */
        FUZZ_ASSERT(a.params.limits.budget_usec > 0 || a.params.limits.max_attempts > 0);
        FUZZ_ASSERT(a.params.verdict.kernel_retries <= 1000);
}

static void check_report(int argc, char **argv) {
        ReportArgs a;
        int r;

        CAPTURE_STDERR(r = report_parse_args(argc, argv, &a), r);
        FUZZ_ASSERT(r == 0 || r == -EINVAL);
        if (r < 0)
                return;
        FUZZ_ASSERT(!a.filter.boot_is_id || a.filter.boot);
        FUZZ_ASSERT(a.filter.boot_offset <= 0 && a.filter.boot_offset > -100000);
        /* one source; a boot offset only on this machine's journal; the
         * figure only with --fleet; the file list NULL-terminated */
        FUZZ_ASSERT(!(a.filter.directory && a.filter.n_files > 0));
        FUZZ_ASSERT(!(a.filter.directory || a.filter.n_files > 0) || !a.filter.boot || a.filter.boot_is_id);
        FUZZ_ASSERT(!a.svg || (a.fleet && a.svg[0]));
        FUZZ_ASSERT(!a.filter.directory || a.filter.directory[0]);
        FUZZ_ASSERT(a.filter.n_files == 0 || a.filter.files[a.filter.n_files] == NULL);
        for (size_t k = 0; k < a.filter.n_files; k++)
                FUZZ_ASSERT(a.filter.files[k][0]);
        report_args_done(&a);
}

static void check_monitor(int argc, char **argv) {
        MonitorArgs a;
        int r;

        CAPTURE_STDERR(r = monitor_parse_args(argc, argv, &a), r);
        FUZZ_ASSERT(r == 0 || r == -EINVAL);
        if (r == 0 && a.root) {
                bool found = false;

                FUZZ_ASSERT(a.root[0]); /* "" is refused: it is not the real root */
                for (int i = 1; i < argc; i++)
                        found = found || strstr(argv[i], a.root);
                FUZZ_ASSERT(found);
        }
}

static void check_since(const char *s) {
        uint64_t v = 0xdead, n;
        int r;

        r = parse_since(s, NOW_USEC, &v);
        FUZZ_ASSERT(r == 0 || r == -EINVAL || r == -ERANGE);
        if (r < 0) {
                FUZZ_ASSERT(v == 0xdead);
                return;
        }
        if (strcmp(s, "today") == 0)
                FUZZ_ASSERT(v <= NOW_USEC && NOW_USEC - v <= USEC_PER_DAY + 3600 * USEC_PER_SEC);
        if (s[0] == '-' && parse_duration(s + 1, 0, UINT64_MAX, &n) == 0 && n <= NOW_USEC)
                FUZZ_ASSERT(v == NOW_USEC - n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char *buf = fuzz_strndup(data, size);
        char *argv[ARGS_MAX + 1];
        int argc = 0;

        /* Words end at NUL; the last one at the end of the input. */
        for (size_t i = 0; i <= size && argc < ARGS_MAX;) {
                argv[argc++] = buf + i;
                i += strlen(buf + i) + 1;
        }
        argv[argc] = NULL;

        if (strcmp(argv[0], "probe") == 0)
                check_probe(argc, argv);
        else if (strcmp(argv[0], "report") == 0)
                check_report(argc, argv);
        else if (strcmp(argv[0], "monitor") == 0)
                check_monitor(argc, argv);
        else
                check_since(argv[0]);
        free(buf);
        return 0;
}
