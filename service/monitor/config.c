/* SPDX-License-Identifier: GPL-2.0-or-later */

/* rng-health.conf(5): one table of keys, each {section, key, parser, the
 * field it sets, its bounds}, with the generic parsers of conf-parsers.c
 * (the idea of systemd's oomd-conf.c and timesyncd-gperf.gperf, without
 * gperf); the files come from conf-files.c, each line screened by
 * conf-line.c, parsed by inih; then the cross-key checks. */

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <ini.h>

#include "conf-line.h"
#include "conf-parsers.h"
#include "config.h"
#include "escape.h"
#include "fileio.h"
#include "format-util.h"
#include "macro.h"
#include "parse-util.h"

void config_default(Config *ret) {
        *ret = (Config) {
                .reprobe_usec = CONFIG_REPROBE_DEFAULT_USEC,
                .confidential_vm = CVM_SETTING_AUTO,
        };
        probe_params_default(&ret->probe);
        snprintf(ret->metrics_path, sizeof(ret->metrics_path), "%s", CONFIG_METRICS_PATH_DEFAULT);
}

FailOn config_fail_on(const Config *c, bool cvm) {
        if (c->fail_on_set)
                return c->fail_on;
        return cvm ? fail_on_cvm_default() : (FailOn) {};
}

uint64_t config_routine_usec(const Config *c) {
        if (c->routine_set)
                return c->routine_usec;
        return c->reprobe_usec ?: CONFIG_REPROBE_DEFAULT_USEC;
}

void config_error_format(const ConfigError *e, char *buf, size_t len) {
        if (e->line > 0)
                snprintf(buf, len, "%s:%u: %s%s%s", e->file, e->line, e->key, e->key[0] ? ": " : "", e->message);
        else
                snprintf(buf, len, "%s: %s", e->file, e->message);
}

/* ---- the key table ---- */

typedef struct KeyWhere {
        const ConfigKey *key;
        char file[PATH_MAX];
        unsigned line, seq;
} KeyWhere;

typedef struct ParseState {
        Config config;
        ConfigError *err;
        const char *file;
        const char *buf; /* the file being parsed, and the reader's place in it */
        size_t len, pos;
        unsigned line;
        bool failed;
        KeyWhere where[_WHERE_MAX];
        unsigned seq; /* order of assignments */
} ParseState;

#define INTERVAL_MIN USEC_PER_SEC
#define INTERVAL_MAX (365 * USEC_PER_DAY)
#define INTERVAL_EXPECT "0 or off, or 1s to 365d, e.g. 6h, 30min"

/* Designated throughout: a key without bounds leaves them 0. */
#define KEY(s, k, parser, field, ...) \
        { .section = (s), .key = (k), .parse = (parser), .offset = offsetof(Config, field), __VA_ARGS__ }

static const ConfigKey config_keys[] = {
        KEY("Probe", "Instructions", config_parse_mask, probe.instructions, .max = RNG_SOURCES_ALL,
            .what = "instruction", .expect_words = probe_instructions_expect, .word = rng_source_from_name,
            .set = offsetof(Config, instructions_set)),
        KEY("Probe", "Widths", config_parse_mask, probe.widths, .max = RNG_WIDTHS_ALL, .what = "width",
            .expect = probe_widths_expect, .word = rng_width_from_string, .set = offsetof(Config, widths_set)),
        KEY("Probe", "Threads", config_parse_threads, probe.threads, .where = WHERE_THREADS),
        KEY("Probe", "BudgetSec", config_parse_time, probe.limits.budget_usec, .min = 1, .max = PROBE_BUDGET_USEC_MAX,
            .what = "time", .expect = "1us to 1s per run, e.g. 2ms"),
        KEY("Probe", "MaxAttempts", config_parse_count, probe.limits.max_attempts, .min = 1, .max = PROBE_MAX_ATTEMPTS_MAX,
            .expect = probe_max_attempts_expect, .where = WHERE_MAX_ATTEMPTS),
        KEY("Probe", "MinAttempts", config_parse_count, probe.limits.min_attempts, .min = 1, .max = PROBE_MIN_ATTEMPTS_MAX,
            .where = WHERE_MIN_ATTEMPTS),
        KEY("Thresholds", "KernelRetries", config_parse_count, probe.verdict.kernel_retries, .min = 1,
            .max = PROBE_KERNEL_RETRIES_MAX, .expect = probe_kernel_retries_expect, .where = WHERE_KERNEL_RETRIES),
        KEY("Thresholds", "DegradedMinFailures", config_parse_count, probe.verdict.degraded_min_failures, .min = 1,
            .max = UINT32_MAX, .where = WHERE_DEGRADED_MIN),
        KEY("Thresholds", "ExhaustedMinLoopFailures", config_parse_count, probe.verdict.exhausted_min_loop_failures,
            .min = 1, .max = UINT32_MAX, .where = WHERE_EXHAUSTED_MIN),
        KEY("Monitor", "ReprobeIntervalSec", config_parse_interval, reprobe_usec, .min = INTERVAL_MIN, .max = INTERVAL_MAX,
            .what = "interval", .expect = INTERVAL_EXPECT),
        KEY("Monitor", "KernelRoutineIntervalSec", config_parse_given_interval, routine_usec, .min = INTERVAL_MIN,
            .max = INTERVAL_MAX, .what = "interval", .expect = INTERVAL_EXPECT, .set = offsetof(Config, routine_set)),
        KEY("Policy", "FailOn", config_parse_fail_on, fail_on, .set = offsetof(Config, fail_on_set)),
        KEY("Policy", "ConfidentialVM", config_parse_cvm, confidential_vm),
        KEY("Metrics", "Path", config_parse_metrics_path, metrics_path),
};

/* ---- parsing the files ---- */

static void set_error(ParseState *s, const char *file, unsigned line, const char *section, const char *key,
                      const char *msg) {
        if (s->failed)
                return; /* the first error is the one reported */
        s->failed = true;
        /* The file name, an unknown key and the values quoted in msg come
         * from outside: escaped (escape.h), once, for every consumer of
         * the error (the log line, the journal event). msg's own text is
         * printable ASCII without backslashes, which escaping keeps. */
        escape_to(s->err->file, sizeof(s->err->file), file, strlen(file));
        s->err->line = line;
        if (section && key) {
                char k[sizeof(s->err->key)];

                snprintf(k, sizeof(k), "[%s] %s=", section, key);
                escape_to(s->err->key, sizeof(s->err->key), k, strlen(k));
        } else
                s->err->key[0] = '\0';
        escape_to(s->err->message, sizeof(s->err->message), msg, strlen(msg));
}

static void note_where(ParseState *s, KeyWhere *w) {
        snprintf(w->file, sizeof(w->file), "%s", s->file);
        w->line = s->line;
        w->seq = ++s->seq;
}

/* Whether the key table has a section of this name (len bytes). */
static bool section_known(const char *name, size_t len) {
        for (size_t i = 0; i < ELEMENTSOF(config_keys); i++)
                if (strlen(config_keys[i].section) == len && memcmp(config_keys[i].section, name, len) == 0)
                        return true;
        return false;
}

static int handler(void *user, const char *section, const char *name, const char *value) {
        ParseState *s = user;
        char msg[256] = "out of memory";

        /* Every section header was checked by the reader: an unknown
         * section is refused there, also one without keys. */
        for (size_t i = 0; i < ELEMENTSOF(config_keys); i++) {
                const ConfigKey *k = &config_keys[i];

                if (strcmp(section, k->section) != 0 || strcmp(name, k->key) != 0)
                        continue;
                if (k->where != WHERE_NONE)
                        note_where(s, &s->where[k->where]);
                if (k->parse(k, value, CONFIG_FIELD(&s->config, k), &s->config, msg, sizeof(msg)) < 0) {
                        set_error(s, s->file, s->line, section, name, msg);
                        return 0;
                }
                return 1;
        }
        if (!section[0])
                set_error(s, s->file, s->line, NULL, NULL, "assignment outside of a section");
        else
                set_error(s, s->file, s->line, section, name, "unknown key");
        return 0;
}

/* inih's reader: the next line of the buffer, screened (conf-line.h); NULL
 * at the end or at the first bad line (the error is in s). */
static char *reader(char *str, int num, void *stream) {
        ParseState *s = stream;
        const char *line, *nl;
        char msg[256];
        size_t len;

        if (s->failed || s->pos >= s->len)
                return NULL;
        line = s->buf + s->pos;
        nl = memchr(line, '\n', s->len - s->pos);
        len = nl ? (size_t) (nl - line) : s->len - s->pos;
        s->pos += len + (nl ? 1 : 0);
        s->line++;
        if (config_line_check(line, len, num, msg, sizeof(msg)) < 0) {
                set_error(s, s->file, s->line, NULL, NULL, msg);
                return NULL;
        }
        /* A section header (config_line_check() found its ']'): inih
         * calls the handler only for keys, so "[Frob]" alone would pass. */
        if (line[0] == '[') {
                size_t n = (size_t) ((const char *) memchr(line, ']', len) - line) - 1;

                if (!section_known(line + 1, n)) {
                        snprintf(msg, sizeof(msg), "unknown section [%.*s]", (int) n, line + 1);
                        set_error(s, s->file, s->line, NULL, NULL, msg);
                        return NULL;
                }
        }
        memcpy(str, line, len);
        str[len] = '\n';
        str[len + 1] = '\0';
        return str;
}

#define CONFIG_FILE_MAX (64u * 1024)
#define UTF8_BOM "\xef\xbb\xbf"

static int parse_file(ParseState *s, const char *path) {
        _cleanup_free_ char *buf = NULL;
        size_t len;
        int r;

        r = read_small_file(path, CONFIG_FILE_MAX, &buf, &len);
        if (r < 0) {
                char msg[256];

                if (r == -EFBIG)
                        snprintf(msg, sizeof(msg), "larger than %u bytes", CONFIG_FILE_MAX);
                else
                        snprintf(msg, sizeof(msg), "%s", input_error_to_string(r));
                set_error(s, path, 0, NULL, NULL, msg);
                return r;
        }
        s->buf = buf;
        s->len = len;
        /* A UTF-8 byte-order mark at the start is dropped before any check
         * (as systemd's own parser does): every check then sees the first
         * line as written after it. inih would drop it only after the
         * reader's checks had looked at "\xef..." instead of the line. */
        s->pos = len >= 3 && memcmp(buf, UTF8_BOM, 3) == 0 ? 3 : 0;
        s->file = path;
        s->line = 0;
        r = ini_parse_stream(reader, s, handler, s);
        s->buf = NULL;
        if (s->failed)
                return -EINVAL;
        if (r < 0) {
                set_error(s, path, 0, NULL, NULL, "out of memory");
                return -ENOMEM;
        }
        if (r > 0) {
                /* A syntax error the handler never saw (e.g. no "="). */
                set_error(s, path, (unsigned) r, NULL, NULL, "syntax error (expected [Section] or Key=value)");
                return -EINVAL;
        }
        return 0;
}

/* ---- values that are each within bounds but together useless ---- */

/* A cross-key error, reported where the latest of the keys was set. */
static int cross_error(ParseState *s, const KeyWhereId *ids, size_t n, const char *msg) {
        const KeyWhere *last = &s->where[ids[0]];

        for (size_t i = 1; i < n; i++)
                if (s->where[ids[i]].seq > last->seq)
                        last = &s->where[ids[i]];
        set_error(s, last->file, last->line, last->key->section, last->key->key, msg);
        return -EINVAL;
}

/* MinAttempts= above MaxAttempts=, and thresholds no run can reach. A run
 * makes at most MaxAttempts= tries per thread, on Threads= threads (all: at
 * most CPU_SETSIZE); a kernel-loop failure takes KernelRetries= failed
 * tries (the running kernel's: at least 1). */
static int cross_check(ParseState *s) {
        const ProbeParams *p = &s->config.probe;
        uint64_t threads = p->threads > 0 ? p->threads : CPU_SETSIZE;
        uint64_t tries = p->limits.max_attempts * threads; /* <= 2^32 * 2^10 */
        uint64_t retries = MAX(p->verdict.kernel_retries, 1u); /* <= 1000 */
        char msg[256];

        if (p->limits.min_attempts > p->limits.max_attempts) {
                snprintf(msg, sizeof(msg), "MinAttempts=%llu exceeds MaxAttempts=%llu",
                         (unsigned long long) p->limits.min_attempts, (unsigned long long) p->limits.max_attempts);
                return cross_error(s, (KeyWhereId[]) { WHERE_MIN_ATTEMPTS, WHERE_MAX_ATTEMPTS }, 2, msg);
        }
        if (p->verdict.degraded_min_failures > tries) {
                snprintf(msg, sizeof(msg),
                         "DegradedMinFailures=%llu can never be reached: a run makes at most %llu %s "
                         "(MaxAttempts=%llu on %llu thread%s)",
                         (unsigned long long) p->verdict.degraded_min_failures, (unsigned long long) tries,
                         plural(tries, "try", "tries"), (unsigned long long) p->limits.max_attempts,
                         (unsigned long long) threads, threads == 1 ? "" : "s");
                return cross_error(s, (KeyWhereId[]) { WHERE_DEGRADED_MIN, WHERE_MAX_ATTEMPTS, WHERE_THREADS }, 3,
                                   msg);
        }
        if (p->verdict.exhausted_min_loop_failures > tries / retries) {
                snprintf(msg, sizeof(msg),
                         "ExhaustedMinLoopFailures=%llu can never be reached: a run makes at most %llu %s "
                         "(MaxAttempts=%llu on %llu thread%s), %llu per failed kernel loop",
                         (unsigned long long) p->verdict.exhausted_min_loop_failures, (unsigned long long) tries,
                         plural(tries, "try", "tries"), (unsigned long long) p->limits.max_attempts,
                         (unsigned long long) threads, threads == 1 ? "" : "s", (unsigned long long) retries);
                return cross_error(s,
                                   (KeyWhereId[]) { WHERE_EXHAUSTED_MIN, WHERE_MAX_ATTEMPTS, WHERE_THREADS,
                                                    WHERE_KERNEL_RETRIES },
                                   4, msg);
        }
        return 0;
}

int config_load(const char *root, Config *ret, ConfigError *err) {
        _cleanup_(config_files_freep) char **files = NULL;
        _cleanup_free_ char *bad_dir = NULL;
        ParseState s = { .err = err };
        int r;

        *err = (ConfigError) {};
        config_default(&s.config);
        for (size_t i = 0; i < ELEMENTSOF(config_keys); i++)
                if (config_keys[i].where != WHERE_NONE)
                        s.where[config_keys[i].where].key = &config_keys[i];

        r = config_files(root, &files, &bad_dir);
        if (r < 0) {
                char msg[256];

                if (r == -ENOTDIR)
                        snprintf(msg, sizeof(msg), "is not a directory (drop-ins are *.conf files in a directory)");
                else
                        snprintf(msg, sizeof(msg), "cannot list the drop-ins: %s", strerror(-r));
                set_error(&s, bad_dir ?: "configuration", 0, NULL, NULL, msg);
                return r;
        }
        for (char **f = files; *f; f++) {
                r = parse_file(&s, *f);
                if (r < 0)
                        return r;
        }

        r = cross_check(&s);
        if (r < 0)
                return r;

        *ret = s.config;
        return 0;
}
