/* SPDX-License-Identifier: GPL-2.0-or-later */

/* rng-health.conf: values, errors with file:line and key, drop-in
 * precedence, masking, FailOn= defaults; in a temporary root directory. */

#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "escape-check.h"
#include "macro.h"
#include "test-util.h"

static char root[64];

static void write_file(const char *rel, const char *text) {
        char path[PATH_MAX * 2], cmd[PATH_MAX * 3];
        FILE *f;

        snprintf(path, sizeof(path), "%s%s", root, rel);
        snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
        CHECK(system(cmd) == 0, "%s", cmd);
        f = fopen(path, "we");
        CHECK(f, "cannot write %s", path);
        if (!f)
                return;
        fputs(text, f);
        fclose(f);
}

static void write_bytes(const char *rel, const char *data, size_t len) {
        char path[PATH_MAX * 2], cmd[PATH_MAX * 3];
        FILE *f;

        snprintf(path, sizeof(path), "%s%s", root, rel);
        snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
        CHECK(system(cmd) == 0, "%s", cmd);
        f = fopen(path, "we");
        CHECK(f, "cannot write %s", path);
        if (!f)
                return;
        CHECK(fwrite(data, 1, len, f) == len, "short write");
        fclose(f);
}

static void clean(void) {
        char cmd[PATH_MAX + 32];

        snprintf(cmd, sizeof(cmd), "rm -rf '%s'/etc '%s'/run '%s'/usr", root, root, root);
        CHECK(system(cmd) == 0, "%s", cmd);
}

static void check_fail_on(const Config *c, bool cvm, const char *want) {
        FailOn f = config_fail_on(c, cvm);
        char buf[128];

        fail_on_format(&f, buf, sizeof(buf));
        CHECK(strcmp(buf, want) == 0, "FailOn (cvm %d) is '%s', expected '%s'", cvm, buf, want);
}

static int load(Config *c, ConfigError *e) {
        return config_load(root, c, e);
}

static void check_error(const ConfigError *e, const char *file, unsigned line, const char *key, const char *msg) {
        char want[PATH_MAX * 2];

        snprintf(want, sizeof(want), "%s%s", root, file);
        CHECK(strcmp(e->file, want) == 0, "file %s, expected %s", e->file, want);
        CHECK_EQ_INT(e->line, line);
        CHECK(strcmp(e->key, key) == 0, "key '%s', expected '%s'", e->key, key);
        CHECK(strstr(e->message, msg), "message '%s' lacks '%s'", e->message, msg);
}

static void test_defaults(void) {
        ProbeParams p;
        ConfigError e;
        Config c;

        clean();
        CHECK_EQ_INT(load(&c, &e), 0);
        probe_params_default(&p);
        CHECK_EQ_INT(c.probe.instructions, p.instructions);
        CHECK_EQ_INT(c.probe.widths, p.widths);
        CHECK_EQ_INT(c.probe.threads, 0);
        CHECK_EQ_U64(c.probe.limits.budget_usec, 2000);
        CHECK_EQ_U64(c.probe.verdict.kernel_retries, 0); /* the running kernel's */
        CHECK_EQ_U64(c.reprobe_usec, 6ull * 3600 * 1000000);
        CHECK_EQ_INT(c.confidential_vm, CVM_SETTING_AUTO);
        check_fail_on(&c, false, "none");
        /* On a confidential VM: broken either way, RDRAND exhausted; not RDSEED
         * exhausted alone (routine: the kernel falls back to RDRAND). */
        check_fail_on(&c, true, "broken rdrand:exhausted");
        CHECK(strcmp(c.metrics_path, "/var/lib/prometheus/node-exporter/rng-health.prom") == 0, "metrics path %s", c.metrics_path);
        /* empty: off */
        write_file("/etc/rng-health/rng-health.conf.d/10.conf", "[Metrics]\nPath=\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        CHECK(c.metrics_path[0] == 0, "Path= is not off: %s", c.metrics_path);
}

static void test_values(void) {
        ConfigError e;
        Config c;

        clean();
        write_file("/etc/rng-health/rng-health.conf",
                   "# comment\n"
                   "[Probe]\n"
                   "Instructions=rdseed\n"
                   "Widths=32 64\n"
                   "Threads=2\n"
                   "BudgetSec=5ms\n"
                   "MaxAttempts=8192\n"
                   "MinAttempts=512\n"
                   "[Thresholds]\n"
                   "KernelRetries=20\n"
                   "DegradedMinFailures=3\n"
                   "ExhaustedMinLoopFailures=2\n"
                   "[Monitor]\n"
                   "ReprobeIntervalSec=30min\n"
                   "[Policy]\n"
                   "FailOn=exhausted\n"
                   "FailOn=broken\n"
                   "ConfidentialVM=no\n"
                   "[Metrics]\n"
                   "Path=/run/metrics/rng.prom\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        CHECK(strcmp(c.metrics_path, "/run/metrics/rng.prom") == 0, "metrics path %s", c.metrics_path);
        CHECK_EQ_INT(c.probe.instructions, 1u << RNG_SOURCE_RDSEED);
        CHECK_EQ_INT(c.probe.widths, (1u << 1) | (1u << 2));
        CHECK_EQ_INT(c.probe.threads, 2);
        CHECK_EQ_U64(c.probe.limits.budget_usec, 5000);
        CHECK_EQ_U64(c.probe.limits.max_attempts, 8192);
        CHECK_EQ_U64(c.probe.limits.min_attempts, 512);
        CHECK_EQ_U64(c.probe.verdict.kernel_retries, 20);
        CHECK_EQ_U64(c.probe.verdict.degraded_min_failures, 3);
        CHECK_EQ_U64(c.probe.verdict.exhausted_min_loop_failures, 2);
        CHECK_EQ_U64(c.reprobe_usec, 30ull * 60 * 1000000);
        check_fail_on(&c, false, "exhausted broken");
        CHECK_EQ_INT(c.confidential_vm, CVM_SETTING_NO);

        /* FailOn=none on a CVM turns the strict default off; empty resets it. */
        write_file("/etc/rng-health/rng-health.conf.d/10.conf", "[Policy]\nFailOn=\nFailOn=none\n[Monitor]\nReprobeIntervalSec=0\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        check_fail_on(&c, true, "none");
        CHECK_EQ_U64(c.reprobe_usec, 0);
        write_file("/etc/rng-health/rng-health.conf.d/20.conf", "[Policy]\nFailOn=\n[Probe]\nInstructions=\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        check_fail_on(&c, true, "broken rdrand:exhausted");
        CHECK_EQ_INT(c.probe.instructions, RNG_SOURCES_ALL);

        /* Per instruction: appended, a bare verdict for both. */
        write_file("/etc/rng-health/rng-health.conf.d/25.conf",
                   "[Policy]\nFailOn=rdseed:degraded rdrand:exhausted\nFailOn=broken rdseed:hidden\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        check_fail_on(&c, false, "broken rdrand:exhausted rdseed:hidden rdseed:degraded");
        CHECK_EQ_INT(c.fail_on.mask[RNG_SOURCE_RDSEED], (1u << VERDICT_DEGRADED) | (1u << VERDICT_BROKEN) | (1u << VERDICT_HIDDEN));
        {
                char path[PATH_MAX * 2];

                snprintf(path, sizeof(path), "%s/etc/rng-health/rng-health.conf.d/25.conf", root);
                CHECK(unlink(path) == 0, "unlink %s", path);
        }

        /* The largest budget accepted (the watchdog bound: the slowest probe stays inside WatchdogSec=). */
        write_file("/etc/rng-health/rng-health.conf.d/30.conf",
                   "[Probe]\nBudgetSec=1s\nMaxAttempts=4294967296\nMinAttempts=65536\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        CHECK_EQ_U64(c.probe.limits.budget_usec, PROBE_BUDGET_USEC_MAX);
        CHECK_EQ_U64(c.probe.limits.min_attempts, PROBE_MIN_ATTEMPTS_MAX);
        CHECK_EQ_U64(c.probe.limits.max_attempts, 1ull << 32);

        /* The thresholds at the edge of what a run can reach. */
        write_file("/etc/rng-health/rng-health.conf.d/40.conf",
                   "[Probe]\nThreads=1\nMaxAttempts=2048\nMinAttempts=1\n[Thresholds]\nDegradedMinFailures=2048\n"
                   "KernelRetries=10\nExhaustedMinLoopFailures=204\n[Metrics]\nPath=/run/m/.rng.prom\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        CHECK_EQ_U64(c.probe.verdict.degraded_min_failures, 2048);
        CHECK_EQ_U64(c.probe.verdict.exhausted_min_loop_failures, 204);
        CHECK(strcmp(c.metrics_path, "/run/m/.rng.prom") == 0, "Path=%s", c.metrics_path);
}

static void test_errors(void) {
        static const struct {
                const char *text;
                unsigned line;
                const char *key, *msg;
        } cases[] = {
                { "[Probe]\nWidths=16 48\n", 2, "[Probe] Widths=", "invalid width '48'" },
                { "[Probe]\n\nInstructions=rdrand rdtsc\n", 3, "[Probe] Instructions=", "invalid instruction 'rdtsc'" },
                { "[Probe]\nThreads=0\n", 2, "[Probe] Threads=", "invalid value '0'" },
                { "[Probe]\nBudgetSec=1h\n", 2, "[Probe] BudgetSec=", "invalid time '1h'" },
                /* a budget that could run past WatchdogSec= */
                { "[Probe]\nBudgetSec=10s\n", 2, "[Probe] BudgetSec=", "invalid time '10s' (expected 1us to 1s" },
                { "[Probe]\nBudgetSec=1000001us\n", 2, "[Probe] BudgetSec=", "invalid time '1000001us'" },
                { "[Probe]\nMaxAttempts=100000\nMinAttempts=65537\n", 3, "[Probe] MinAttempts=", "invalid number '65537' (expected 1 to 65536)" },
                { "[Probe]\nMaxAttempts=-1\n", 2, "[Probe] MaxAttempts=", "invalid number '-1'" },
                { "[Thresholds]\nKernelRetries=lots\n", 2, "[Thresholds] KernelRetries=", "invalid number 'lots'" },
                { "[Monitor]\nReprobeIntervalSec=soon\n", 2, "[Monitor] ReprobeIntervalSec=", "invalid interval 'soon'" },
                { "[Monitor]\nReprobeIntervalSec=10ms\n", 2, "[Monitor] ReprobeIntervalSec=", "invalid interval" },
                { "[Policy]\nFailOn=exhausted sometimes\n", 2, "[Policy] FailOn=", "invalid entry 'sometimes'" },
                { "[Policy]\nFailOn=rdrand:sometimes\n", 2, "[Policy] FailOn=", "invalid entry 'rdrand:sometimes'" },
                { "[Policy]\nFailOn=rdrnd:exhausted\n", 2, "[Policy] FailOn=", "invalid entry 'rdrnd:exhausted'" },
                { "[Policy]\nFailOn=RDRAND:exhausted\n", 2, "[Policy] FailOn=", "invalid entry 'RDRAND:exhausted'" },
                { "[Policy]\nFailOn=rdrand:\n", 2, "[Policy] FailOn=", "invalid entry 'rdrand:'" },
                { "[Policy]\nFailOn=:exhausted\n", 2, "[Policy] FailOn=", "invalid entry ':exhausted'" },
                { "[Policy]\nFailOn=rdrand:rdseed:broken\n", 2, "[Policy] FailOn=", "invalid entry 'rdrand:rdseed:broken'" },
                { "[Policy]\nFailOn=rdrand:none\n", 2, "[Policy] FailOn=", "invalid entry 'rdrand:none'" },
                { "[Policy]\nConfidentialVM=maybe\n", 2, "[Policy] ConfidentialVM=", "invalid value 'maybe'" },
                { "[Metrics]\nPath=rng-health.prom\n", 2, "[Metrics] Path=", "invalid path 'rng-health.prom'" },
                { "[Metrics]\nPath=/var/lib/prometheus/\n", 2, "[Metrics] Path=", "invalid path" },
                /* the directory itself, or a path through ".." */
                { "[Metrics]\nPath=/var/lib/prometheus/.\n", 2, "[Metrics] Path=", "invalid path '/var/lib/prometheus/.'" },
                { "[Metrics]\nPath=/var/lib/prometheus/..\n", 2, "[Metrics] Path=", "invalid path" },
                { "[Metrics]\nPath=/var/lib/../x.prom\n", 2, "[Metrics] Path=", "invalid path" },
                { "[Metrics]\nPath=/var/./x.prom\n", 2, "[Metrics] Path=", "invalid path" },
                /* thresholds no run can reach */
                { "[Probe]\nMaxAttempts=2048\n[Thresholds]\nDegradedMinFailures=4294967295\n", 4,
                  "[Thresholds] DegradedMinFailures=",
                  "DegradedMinFailures=4294967295 can never be reached: a run makes at most 2097152 tries "
                  "(MaxAttempts=2048 on 1024 threads)" },
                { "[Thresholds]\nDegradedMinFailures=2049\n[Probe]\nThreads=1\nMaxAttempts=2048\n", 5,
                  "[Probe] MaxAttempts=", "at most 2048 tries (MaxAttempts=2048 on 1 thread)" },
                { "[Probe]\nThreads=1\nMaxAttempts=1\nMinAttempts=1\n[Thresholds]\nDegradedMinFailures=2\n", 6,
                  "[Thresholds] DegradedMinFailures=", "a run makes at most 1 try (MaxAttempts=1 on 1 thread)" },
                { "[Probe]\nThreads=1\nMaxAttempts=2048\n[Thresholds]\nKernelRetries=10\nExhaustedMinLoopFailures=205\n", 6,
                  "[Thresholds] ExhaustedMinLoopFailures=", "ExhaustedMinLoopFailures=205 can never be reached" },
                { "[Probe]\nThreads=1\nMaxAttempts=2048\n[Thresholds]\nExhaustedMinLoopFailures=205\nKernelRetries=10\n", 6,
                  "[Thresholds] KernelRetries=", "10 per failed kernel loop" },
                { "[Policy]\nFailsOn=broken\n", 2, "[Policy] FailsOn=", "unknown key" },
                /* the command line's words (probe.h) */
                { "[Probe]\nWidths=8\n", 2, "[Probe] Widths=", "invalid width '8' (expected 16, 32, 64 or all)" },
                { "[Probe]\nInstructions=rdtsc\n", 2, "[Probe] Instructions=",
                  "invalid instruction 'rdtsc' (expected rdrand, rdseed, hwrng, boot-seed or all)" },
                /* within 1s to 365d, but finer than a microsecond: said so, not the range */
                { "[Monitor]\nKernelRoutineIntervalSec=1.0000001s\n", 2, "[Monitor] KernelRoutineIntervalSec=",
                  "invalid interval '1.0000001s' (finer than a microsecond, the smallest step)" },
                { "[Probe]\nBudgetSec=0.5us\n", 2, "[Probe] BudgetSec=", "(finer than a microsecond" },
                { "[Polcy]\nFailOn=broken\n", 1, "", "unknown section [Polcy]" },
                /* a section without keys is no less unknown */
                { "[Frob]\n", 1, "", "unknown section [Frob]" },
                { "[Probe]\nWidths=64\n\n[Frob]\n# nothing\n", 4, "", "unknown section [Frob]" },
                { "[]\n", 1, "", "unknown section []" },
                /* none stands alone */
                { "[Policy]\nFailOn=none hidden\n", 2, "[Policy] FailOn=", "'none' combined with verdicts" },
                { "[Policy]\nFailOn=broken,none\n", 2, "[Policy] FailOn=", "'none' combined with verdicts" },
                { "[Policy]\nFailOn=none none\n", 2, "[Policy] FailOn=", "'none' given more than once" },
                /* what the source table says a source never has */
                { "[Policy]\nFailOn=rdrand:host-fed\n", 2, "[Policy] FailOn=", "'rdrand:host-fed' can never match" },
                { "[Policy]\nFailOn=boot-seed:exhausted\n", 2, "[Policy] FailOn=",
                  "'boot-seed:exhausted' can never match" },
                { "[Policy]\nFailOn=broken hwrng:hidden\n", 2, "[Policy] FailOn=", "'hwrng:hidden' can never match" },
                { "FailOn=broken\n", 1, "", "outside of a section" },
                { "[Policy]\nFailOn broken\n", 2, "", "syntax error" },
                { "[Probe]\nMaxAttempts=100\n", 2, "[Probe] MaxAttempts=", "MinAttempts=1024 exceeds MaxAttempts=100" },
                /* the first error is reported */
                { "[Probe]\nWidths=7\nThreads=x\n", 2, "[Probe] Widths=", "invalid width '7'" },
        };
        ConfigError e;
        Config c, before;

        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                clean();
                write_file("/etc/rng-health/rng-health.conf.d/50-bad.conf", cases[i].text);
                memset(&before, 0x5a, sizeof(before));
                c = before;
                CHECK_EQ_INT(load(&c, &e), -EINVAL);
                check_error(&e, "/etc/rng-health/rng-health.conf.d/50-bad.conf", cases[i].line, cases[i].key, cases[i].msg);
                CHECK(memcmp(&c, &before, sizeof(c)) == 0, "case %zu: config changed on error", i);
        }

        /* The cross check names the later assignment: MinAttempts in a later file. */
        clean();
        write_file("/etc/rng-health/rng-health.conf", "[Probe]\nMaxAttempts=2000\n");
        write_file("/usr/lib/rng-health/rng-health.conf.d/90-min.conf", "[Probe]\n\nMinAttempts=3000\n");
        CHECK_EQ_INT(load(&c, &e), -EINVAL);
        check_error(&e, "/usr/lib/rng-health/rng-health.conf.d/90-min.conf", 3, "[Probe] MinAttempts=", "exceeds");

        {
                char buf[PATH_MAX + 512], want[PATH_MAX + 512];

                config_error_format(&e, buf, sizeof(buf));
                snprintf(want, sizeof(want),
                         "%s/usr/lib/rng-health/rng-health.conf.d/90-min.conf:3: [Probe] MinAttempts=: MinAttempts=3000 exceeds MaxAttempts=2000",
                         root);
                CHECK(strcmp(buf, want) == 0, "'%s'", buf);
        }

        /* Unreadable file: -errno, file named. (Not as root: root reads anything.) */
        if (geteuid() != 0) {
                char p[PATH_MAX * 2];

                clean();
                write_file("/etc/rng-health/rng-health.conf", "[Probe]\n");
                snprintf(p, sizeof(p), "%s/etc/rng-health/rng-health.conf", root);
                chmod(p, 0);
                CHECK_EQ_INT(load(&c, &e), -EACCES);
                CHECK(strcmp(e.file, p) == 0, "file %s", e.file);
        }
}

/* The line reader refuses what inih would cut,
 * join or drop, with the right file:line. */
static void test_strict_lines(void) {
        static const struct {
                const char *text;
                size_t len; /* 0: strlen */
                unsigned line;
                const char *msg;
                const char *key;
        } cases[] = {
                { "\0\0\0garbage[[[", 13, 1, "NUL byte in column 1", NULL },
                { "[Probe]\nThreads=1\0junk\n", 23, 2, "NUL byte in column 10", NULL },
                { "[Probe]\nThreads=1\r\n", 0, 2, "control character 0x0d in column 10", NULL },
                { "[Probe]\nInstructions=rdrand\x1b[2J\n", 0, 2, "control character 0x1b", NULL },
                { "[Probe]\nThreads=1\n  Widths=16\n", 0, 3, "indented line", NULL },
                { "[Probe]\nInstructions=rdrand\n\trdseed\n", 0, 3, "indented line", NULL },
                { "[Probe] Threads=0\n", 0, 1, "text after ']'", NULL },
                { "[Probe]junk\n", 0, 1, "text after ']'", NULL },
                { "[Probe\n", 0, 1, "without ']'", NULL },
                { "[Probe]\nInstructions=,\n", 0, 2, "empty list ','", "[Probe] Instructions=" },
                { "[Probe]\nWidths= , ,\n", 0, 2, "empty list", "[Probe] Widths=" },
                { "[Policy]\nFailOn=,\n", 0, 2, "empty list", "[Policy] FailOn=" },
                /* What inih takes as an inline comment
                 * or as a separator */
                { "[Probe]\nWidths=64 ;32 16\n", 0, 2, "';' in column 11 of a setting", NULL },
                { "[Metrics]\nPath=/x/a.prom ;b\n", 0, 2, "';' in column 16", NULL },
                { "[Metrics]\nPath=/x/a.prom;b\n", 0, 2, "';' in column 15", NULL },
                { "[Probe]\nWidths=64 #32\n", 0, 2, "'#' in column 11", NULL },
                { "[Probe]\nWidths=64# comment\n", 0, 2, "'#' in column 10", NULL },
                { "[Probe]\nInstructions: rdrand\n", 0, 2, "':' in column 13 as a separator", NULL },
                { "[Probe]\nInstructions:rdrand=x\n", 0, 2, "':' in column 13 as a separator", NULL },
                { "[Probe]\nThreads ; =3\n", 0, 2, "';' in column 9", NULL },
                /* After the file's byte-order mark, every check still sees
                 * the first line (it once saw 0xef, not '[') */
                { "\xef\xbb\xbf[Policy] junk\nFailOn=ok\n", 0, 1, "text after ']'", NULL },
                { "\xef\xbb\xbf  Threads=1\n", 0, 1, "indented line", NULL },
                { "\xef\xbb\xbf[Frob]\n", 0, 1, "unknown section [Frob]", NULL },
                { "\xef\xbb\xbf[Probe\n", 0, 1, "without ']'", NULL },
                /* a second one, which inih would drop from line 1 */
                { "\xef\xbb\xbf\xef\xbb\xbf[Frob]\n", 0, 1, "byte-order mark in column 1", NULL },
                { "[Probe]\n\xef\xbb\xbfThreads=1\n", 0, 2, "byte-order mark in column 1", NULL },
        };
        ConfigError e;
        Config c;

        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                size_t len = cases[i].len ?: strlen(cases[i].text);

                clean();
                write_bytes("/etc/rng-health/rng-health.conf", cases[i].text, len);
                CHECK_EQ_INT(load(&c, &e), -EINVAL);
                check_error(&e, "/etc/rng-health/rng-health.conf", cases[i].line, cases[i].key ?: "", cases[i].msg);
                /* nothing from the file is echoed raw: no control bytes */
                for (const char *m = e.message; *m; m++)
                        CHECK((unsigned char) *m >= 0x20, "case %zu: control byte in '%s'", i, e.message);
        }

        /* A ':' or ';' in a value after the '=' is the value's (FailOn=
         * entries such as rdrand:exhausted); comments on lines of their own
         * and after a header stay allowed. */
        clean();
        write_file("/etc/rng-health/rng-health.conf",
                   "; comment\n# comment\n[Probe] ; header comment\nWidths=64\n[Metrics]\nPath=/run/a:b.prom\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        CHECK(strcmp(c.metrics_path, "/run/a:b.prom") == 0, "Path=%s", c.metrics_path);

        /* One byte-order mark at the start of the file is allowed, as by
         * systemd: the file is read as if it were not there. */
        clean();
        write_file("/etc/rng-health/rng-health.conf", "\xef\xbb\xbf[Probe]\nThreads=5\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        CHECK_EQ_INT(c.probe.threads, 5);

        /* Allowed: comments (also indented) and a comment after a header. */
        clean();
        write_file("/etc/rng-health/rng-health.conf", "  # indented comment\n[Probe] # header comment\nThreads=3\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        CHECK_EQ_INT(c.probe.threads, 3);

        /* A long comment never becomes a setting (inih would split it), and the line
         * numbers stay right: either the line fits inih's buffer and is a
         * comment, or it is refused at its own line. */
        for (size_t n = 150; n <= 60000; n = n < 300 ? n + 1 : n * 10) {
                _cleanup_free_ char *text = malloc(n + 64);
                int r;

                CHECK(text, "malloc");
                if (!text)
                        return;
                memcpy(text, "[Probe]\n# ", 10);
                memset(text + 10, 'c', n);
                strcpy(text + 10 + n, "Threads=1\n");
                clean();
                write_file("/etc/rng-health/rng-health.conf", text);
                r = load(&c, &e);
                if (r == 0)
                        CHECK(c.probe.threads == 0, "n=%zu: the comment's tail was applied", n);
                else {
                        CHECK_EQ_INT(r, -EINVAL);
                        check_error(&e, "/etc/rng-health/rng-health.conf", 2, "", "longer than the limit");
                }
                if (n >= 60000)
                        CHECK_EQ_INT(r, -EINVAL);
        }

        /* A file past the size limit is refused as a whole. */
        {
                size_t n = 70 * 1024;
                _cleanup_free_ char *big = malloc(n);

                CHECK(big, "malloc");
                if (!big)
                        return;
                memset(big, '\n', n);
                clean();
                write_bytes("/etc/rng-health/rng-health.conf", big, n);
                CHECK_EQ_INT(load(&c, &e), -EFBIG);
                CHECK(strstr(e.message, "larger than"), "'%s'", e.message);
        }
}

static void test_precedence(void) {
        char **files = NULL, *bad = NULL, want[PATH_MAX * 2], link[PATH_MAX * 2];
        ConfigError e;
        Config c;
        size_t n = 0;

        clean();
        /* main file: /etc wins over /usr/lib */
        write_file("/usr/lib/rng-health/rng-health.conf", "[Thresholds]\nKernelRetries=11\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        CHECK_EQ_U64(c.probe.verdict.kernel_retries, 11);
        write_file("/etc/rng-health/rng-health.conf", "[Thresholds]\nKernelRetries=12\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        CHECK_EQ_U64(c.probe.verdict.kernel_retries, 12);

        /* drop-ins are read after the main file, sorted by name across dirs */
        write_file("/usr/lib/rng-health/rng-health.conf.d/10-a.conf", "[Thresholds]\nKernelRetries=13\n");
        write_file("/run/rng-health/rng-health.conf.d/20-b.conf", "[Thresholds]\nKernelRetries=14\n");
        write_file("/etc/rng-health/rng-health.conf.d/15-c.conf", "[Thresholds]\nKernelRetries=15\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        CHECK_EQ_U64(c.probe.verdict.kernel_retries, 14);

        /* same name: /etc over /run over /usr/lib */
        write_file("/usr/lib/rng-health/rng-health.conf.d/20-b.conf", "[Thresholds]\nKernelRetries=16\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        CHECK_EQ_U64(c.probe.verdict.kernel_retries, 14);
        write_file("/etc/rng-health/rng-health.conf.d/20-b.conf", "[Thresholds]\nKernelRetries=17\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        CHECK_EQ_U64(c.probe.verdict.kernel_retries, 17);

        /* not *.conf: ignored */
        write_file("/etc/rng-health/rng-health.conf.d/99-z.conf.bak", "[Thresholds]\nKernelRetries=99\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        CHECK_EQ_U64(c.probe.verdict.kernel_retries, 17);

        /* masked: a symlink to /dev/null in /etc hides the lower ones of that name */
        snprintf(link, sizeof(link), "%s/etc/rng-health/rng-health.conf.d/20-b.conf", root);
        unlink(link);
        CHECK(symlink("/dev/null", link) == 0, "symlink");
        CHECK_EQ_INT(load(&c, &e), 0);
        CHECK_EQ_U64(c.probe.verdict.kernel_retries, 15);

        CHECK_EQ_INT(config_files(root, &files, &bad), 0);
        CHECK(!bad, "a bad directory named: %s", bad);
        for (char **f = files; f && *f; f++)
                n++;
        CHECK_EQ_INT(n, 3);
        if (n == 3) {
                snprintf(want, sizeof(want), "%s/etc/rng-health/rng-health.conf", root);
                CHECK(strcmp(files[0], want) == 0, "%s", files[0]);
                snprintf(want, sizeof(want), "%s/usr/lib/rng-health/rng-health.conf.d/10-a.conf", root);
                CHECK(strcmp(files[1], want) == 0, "%s", files[1]);
                snprintf(want, sizeof(want), "%s/etc/rng-health/rng-health.conf.d/15-c.conf", root);
                CHECK(strcmp(files[2], want) == 0, "%s", files[2]);
        }
        config_files_free(files);

        /* Only /dev/null masks; a link to /dev/zero is
         * read, and refused as not a regular file. */
        unlink(link);
        CHECK(symlink("/dev/zero", link) == 0, "symlink");
        CHECK_EQ_INT(load(&c, &e), -EBADFD);
        check_error(&e, "/etc/rng-health/rng-health.conf.d/20-b.conf", 0, "", "is not a regular file");
        unlink(link);

        /* A FIFO drop-in is refused at once (alarm()
         * ends the test if the open waits for a writer), a directory is
         * named as one. */
        CHECK(mkfifo(link, 0644) == 0, "mkfifo");
        alarm(5);
        CHECK_EQ_INT(load(&c, &e), -EBADFD);
        alarm(0);
        check_error(&e, "/etc/rng-health/rng-health.conf.d/20-b.conf", 0, "",
                    "is not a regular file (a FIFO, socket or device node)");
        unlink(link);
        CHECK(mkdir(link, 0755) == 0, "mkdir");
        CHECK_EQ_INT(load(&c, &e), -EISDIR);
        check_error(&e, "/etc/rng-health/rng-health.conf.d/20-b.conf", 0, "", "is a directory, not a file");
        rmdir(link);

        /* list keys append across files, an empty assignment resets */
        clean();
        write_file("/etc/rng-health/rng-health.conf", "[Probe]\nWidths=16\n");
        write_file("/etc/rng-health/rng-health.conf.d/10.conf", "[Probe]\nWidths=64\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        CHECK_EQ_INT(c.probe.widths, (1u << 0) | (1u << 2));
        write_file("/etc/rng-health/rng-health.conf.d/20.conf", "[Probe]\nWidths=\nWidths=32\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        CHECK_EQ_INT(c.probe.widths, 1u << 1);
        /* "all", the command line's word, as well */
        write_file("/etc/rng-health/rng-health.conf.d/30.conf", "[Probe]\nWidths=all\nInstructions=rdseed\nInstructions=all\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        CHECK_EQ_INT(c.probe.widths, 7);
        CHECK_EQ_INT(c.probe.instructions, RNG_SOURCES_ALL);
}

/* A file name, an unknown key or section and a value
 * are shown escaped: no newline forging a log line, no ESC, C1 or bidi
 * control, no invalid UTF-8 (escape.h). */
static void test_escaped(void) {
        static const struct {
                const char *name, *text, *file, *key, *msg;
        } cases[] = {
                { "50-a\nrng-health: Hardware RNG verdict at boot: ok.conf", "[Probe]\nWidths=8\n",
                  "50-a\\nrng-health: Hardware RNG verdict at boot: ok.conf", "[Probe] Widths=", "invalid width '8'" },
                { "50-\x1b[8m.conf", "[Probe]\nWidths=8\n", "50-\\x1b[8m.conf", "[Probe] Widths=", "invalid width" },
                { "50-c1.conf", "[Probe]\nInstructions=rdrand\xc2\x9b" "31m\n", "50-c1.conf", "[Probe] Instructions=",
                  "invalid instruction 'rdrand\\xc2\\x9b31m'" },
                { "50-bidi.conf", "[Policy]\nConfidentialVM=\xe2\x80\xaeyes\n", "50-bidi.conf", "[Policy] ConfidentialVM=",
                  "invalid value '\\xe2\\x80\\xaeyes'" },
                { "50-utf8.conf", "[Probe]\nWidths=\xff\xfe\xc0\x80\n", "50-utf8.conf", "[Probe] Widths=",
                  "invalid width '\\xff\\xfe\\xc0\\x80'" },
                { "50-key.conf", "[Probe]\nWid\xe2\x80\xaeths=64\n", "50-key.conf", "[Probe] Wid\\xe2\\x80\\xaeths=",
                  "unknown key" },
                { "50-section.conf", "[Probe]\n[Pro\xc2\x85" "be]\n", "50-section.conf", "", "unknown section [Pro\\xc2\\x85be]" },
                { "50-backslash.conf", "[Probe]\nWidths=\\x1b\n", "50-backslash.conf", "[Probe] Widths=",
                  "invalid width '\\\\x1b'" },
        };
        ConfigError e;
        Config c;

        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                char rel[PATH_MAX], want[PATH_MAX], line[PATH_MAX + 512];

                clean();
                snprintf(rel, sizeof(rel), "/etc/rng-health/rng-health.conf.d/%s", cases[i].name);
                write_file(rel, cases[i].text);
                CHECK_EQ_INT(load(&c, &e), -EINVAL);
                snprintf(want, sizeof(want), "/etc/rng-health/rng-health.conf.d/%s", cases[i].file);
                check_error(&e, want, 2, cases[i].key, cases[i].msg);
                config_error_format(&e, line, sizeof(line));
                CHECK(escape_check_output(line, strlen(line), false), "case %zu: unsafe '%s'", i, line);
        }
}

/* FailOn= follows systemd's rule for lists (systemd.unit(5)): words add,
 * an empty assignment resets to the default, "none" alone empties the
 * list whatever earlier files said; the man page's two examples together
 * (50-strict.conf, then 60-local.conf's "only warn") only warn. */
static void test_fail_on_none(void) {
        ConfigError e;
        Config c;

        clean();
        write_file("/etc/rng-health/rng-health.conf.d/50-strict.conf", "[Policy]\nFailOn=hidden\n");
        write_file("/etc/rng-health/rng-health.conf.d/60-local.conf", "[Policy]\nFailOn=none\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        check_fail_on(&c, false, "none");
        check_fail_on(&c, true, "none"); /* given: the confidential VM's default stays off */

        write_file("/etc/rng-health/rng-health.conf.d/50-strict.conf", "[Policy]\nFailOn=broken rdrand:exhausted\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        check_fail_on(&c, true, "none");

        /* none, then a verdict: the verdict */
        write_file("/etc/rng-health/rng-health.conf.d/70-later.conf", "[Policy]\nFailOn=hidden\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        check_fail_on(&c, false, "hidden");

        /* empty: the default again (on a confidential VM, its default) */
        write_file("/etc/rng-health/rng-health.conf.d/80-reset.conf", "[Policy]\nFailOn=\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        check_fail_on(&c, false, "none");
        check_fail_on(&c, true, "broken rdrand:exhausted");

        /* within one file as well */
        clean();
        write_file("/etc/rng-health/rng-health.conf", "[Policy]\nFailOn=broken\nFailOn=none\n");
        CHECK_EQ_INT(load(&c, &e), 0);
        check_fail_on(&c, false, "none");

        /* none with other words: file:line, whichever order */
        write_file("/etc/rng-health/rng-health.conf.d/50-x.conf", "[Policy]\n\nFailOn=none hidden\n");
        CHECK_EQ_INT(load(&c, &e), -EINVAL);
        check_error(&e, "/etc/rng-health/rng-health.conf.d/50-x.conf", 3, "[Policy] FailOn=", "'none' combined");
        write_file("/etc/rng-health/rng-health.conf.d/50-x.conf", "[Policy]\nFailOn=hidden none\n");
        CHECK_EQ_INT(load(&c, &e), -EINVAL);
        check_error(&e, "/etc/rng-health/rng-health.conf.d/50-x.conf", 2, "[Policy] FailOn=", "'none' combined");
}

/* A drop-in directory that is not one is an error naming it (it was no
 * drop-ins at all), wherever it is; one that does not exist is none. */
static void test_dropin_dir(void) {
        char **files = NULL, *bad = NULL, want[PATH_MAX * 2];
        const char *dirs[] = { "/etc", "/run", "/usr/lib" };
        ConfigError e;
        Config c;

        for (size_t i = 0; i < ELEMENTSOF(dirs); i++) {
                char rel[PATH_MAX];

                clean();
                write_file("/etc/rng-health/rng-health.conf", "[Probe]\nWidths=64\n");
                snprintf(rel, sizeof(rel), "%s/rng-health/rng-health.conf.d", dirs[i]);
                write_file(rel, "[Probe]\nWidths=16\n");
                CHECK_EQ_INT(load(&c, &e), -ENOTDIR);
                check_error(&e, rel, 0, "", "is not a directory");
                CHECK_EQ_INT(config_files(root, &files, &bad), -ENOTDIR);
                snprintf(want, sizeof(want), "%s%s", root, rel);
                CHECK(bad && strcmp(bad, want) == 0, "bad directory %s, expected %s", bad ?: "(null)", want);
                free(bad);
                bad = NULL;
                CHECK(files == NULL, "files set on error");
        }
        clean();
        write_file("/etc/rng-health/rng-health.conf", "[Probe]\nWidths=64\n");
        CHECK_EQ_INT(load(&c, &e), 0);
}

int main(void) {
        char cmd[PATH_MAX + 16];

        snprintf(root, sizeof(root), "/tmp/test-config.XXXXXX");
        if (!mkdtemp(root)) {
                perror("mkdtemp");
                return EXIT_FAILURE;
        }
        test_defaults();
        test_values();
        test_errors();
        test_strict_lines();
        test_precedence();
        test_escaped();
        test_fail_on_none();
        test_dropin_dir();
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
        (void) system(cmd);
        return test_result("test-config");
}
