/* SPDX-License-Identifier: GPL-2.0-or-later */

/* rng-health.conf(5): one table of keys, each {section, key, parser, the
 * field it sets, its bounds}, with generic parsers (the idea of systemd's
 * oomd-conf.c and timesyncd-gperf.gperf, without gperf); the files come
 * from conf-files.c, each line screened by conf-line.c, parsed by inih. */

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <ini.h>

#include "conf-line.h"
#include "config.h"
#include "escape.h"
#include "fileio.h"
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
        return cvm ? FAIL_ON_CVM_DEFAULT : (FailOn) {};
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

/* The keys of the cross-key checks: where each was last set (seq 0: never,
 * the default), so that a check's error names the later assignment. */
typedef enum KeyWhereId {
        WHERE_NONE,
        WHERE_THREADS,
        WHERE_MAX_ATTEMPTS,
        WHERE_MIN_ATTEMPTS,
        WHERE_KERNEL_RETRIES,
        WHERE_DEGRADED_MIN,
        WHERE_EXHAUSTED_MIN,
        _WHERE_MAX,
} KeyWhereId;

typedef struct ConfigKey ConfigKey;

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

/* A value into the field at offset `offset` of the Config (field); msg
 * says what is wrong (the value quoted: set_error() escapes it). */
typedef int (*ConfigParser)(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len);

struct ConfigKey {
        const char *section, *key;
        ConfigParser parse;
        size_t offset;               /* of the field in Config */
        uint64_t min, max;           /* bounds: of a number, of a duration (µs); a list's "all" mask (max) */
        const char *what, *expect;   /* for the error: "invalid WHAT 'value' (expected EXPECT)" */
        int (*word)(const char *w);  /* a list's words: the bit, or -EINVAL */
        size_t set;                  /* of its "given" flag in Config (the parsers that keep one) */
        KeyWhereId where;            /* WHERE_NONE: no cross-key check reads it */
};

#define FIELD(c, k) ((void *) ((char *) (c) + (k)->offset))
#define GIVEN(c, k) ((bool *) ((char *) (c) + (k)->set))

/* Calls fn on each word of value, separated by spaces, tabs or commas. A
 * non-empty value without a word ("," or " , ") is refused: it is neither
 * a list nor the empty assignment that resets one. */
static int for_each_word(const ConfigKey *k, const char *value, void *field, char *msg, size_t len,
                         int (*fn)(const ConfigKey *k, const char *word, void *field, char *msg, size_t len)) {
        _cleanup_free_ char *copy = strdup(value);
        char *save = NULL;
        unsigned n = 0;
        int r;

        if (!copy)
                return -ENOMEM;
        for (char *w = strtok_r(copy, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
                r = fn(k, w, field, msg, len);
                if (r < 0)
                        return r;
                n++;
        }
        if (n == 0) {
                snprintf(msg, len, "empty list '%s' (give at least one value, or nothing to reset to the default)",
                         value);
                return -EINVAL;
        }
        return 0;
}

static int mask_word(const ConfigKey *k, const char *w, void *field, char *msg, size_t len) {
        int bit = k->word(w);

        if (bit < 0) {
                snprintf(msg, len, "invalid %s '%s' (expected %s)", k->what, w, k->expect);
                return -EINVAL;
        }
        *(unsigned *) field |= 1u << bit;
        return 0;
}

/* A list key with a default (unsigned mask): the first assignment replaces
 * the default, later ones add, an empty one resets to the default. */
static int parse_mask(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len) {
        bool *set = GIVEN(c, k);

        if (!value[0]) {
                *(unsigned *) field = (unsigned) k->max;
                *set = false;
                return 0;
        }
        if (!*set)
                *(unsigned *) field = 0;
        *set = true;
        return for_each_word(k, value, field, msg, len, mask_word);
}

/* An unsigned number (uint64_t) within [min, max]. */
static int parse_count(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len) {
        if (parse_u64_range(value, k->min, k->max, field) < 0) {
                snprintf(msg, len, "invalid number '%s' (expected %llu to %llu)", value, (unsigned long long) k->min,
                         (unsigned long long) k->max);
                return -EINVAL;
        }
        return 0;
}

/* "all" or empty: every usable CPU (0); else a number of threads. */
static int parse_threads(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len) {
        if (!value[0]) {
                *(unsigned *) field = 0;
                return 0;
        }
        if (probe_threads_from_string(value, field) < 0) {
                snprintf(msg, len, "invalid value '%s' (expected all or a number of threads from 1 to %d)", value,
                         PROBE_THREADS_MAX);
                return -EINVAL;
        }
        return 0;
}

/* A duration (uint64_t µs) within [min, max]. */
static int parse_time(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len) {
        if (parse_duration(value, k->min, k->max, field) < 0) {
                snprintf(msg, len, "invalid %s '%s' (expected %s)", k->what, value, k->expect);
                return -EINVAL;
        }
        return 0;
}

/* "0"/"off": 0; else a duration as parse_time(). */
static int parse_interval(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len) {
        if (strcmp(value, "off") == 0 || strcmp(value, "0") == 0) {
                *(uint64_t *) field = 0;
                return 0;
        }
        return parse_time(k, value, field, c, msg, len);
}

/* An interval that, once given, replaces a default taken from elsewhere
 * (KernelRoutineIntervalSec=: the re-probe interval's). */
static int parse_given_interval(const ConfigKey *k, const char *value, void *field, Config *c, char *msg,
                                size_t len) {
        *GIVEN(c, k) = true;
        return parse_interval(k, value, field, c, msg, len);
}

static int fail_on_word(const ConfigKey *k, const char *w, void *field, char *msg, size_t len) {
        if (fail_on_add_word(field, w) >= 0)
                return 0;
        snprintf(msg, len, "invalid entry '%s' (expected a verdict: degraded, exhausted, broken, hidden, "
                 "unsupported or ok, optionally after rdrand: or rdseed:; or none)", w);
        return -EINVAL;
}

static int parse_fail_on(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len) {
        *GIVEN(c, k) = value[0] != '\0'; /* empty: the default again */
        if (!value[0]) {
                *(FailOn *) field = (FailOn) {};
                return 0;
        }
        return for_each_word(k, value, field, msg, len, fail_on_word);
}

static int parse_cvm(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len) {
        static const char *const names[_CVM_SETTING_MAX] = { "auto", "yes", "no" };

        for (int i = 0; i < _CVM_SETTING_MAX; i++)
                if (strcmp(value, names[i]) == 0) {
                        *(ConfidentialVmSetting *) field = i;
                        return 0;
                }
        snprintf(msg, len, "invalid value '%s' (expected auto, yes or no)", value);
        return -EINVAL;
}

/* Whether path has a "." or ".." component ("/dir/." names the directory:
 * the rename over it fails later with EBUSY). */
static bool path_has_dot_component(const char *path) {
        for (const char *p = path; *p;) {
                size_t k = strcspn(p, "/");

                if ((k == 1 && p[0] == '.') || (k == 2 && p[0] == '.' && p[1] == '.'))
                        return true;
                p += k;
                p += strspn(p, "/");
        }
        return false;
}

/* "": off; else an absolute path of a file (node_exporter reads *.prom),
 * without "." or ".." components. */
static int parse_metrics_path(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len) {
        size_t n = strlen(value);

        if (n > 0 && (value[0] != '/' || value[n - 1] == '/' || n >= sizeof(c->metrics_path) ||
                      path_has_dot_component(value))) {
                snprintf(msg, len, "invalid path '%s' (expected empty for off, or an absolute file name, e.g. %s)",
                         value, CONFIG_METRICS_PATH_DEFAULT);
                return -EINVAL;
        }
        memcpy(field, value, n + 1);
        return 0;
}

#define INTERVAL_MIN USEC_PER_SEC
#define INTERVAL_MAX (365 * USEC_PER_DAY)
#define INTERVAL_EXPECT "0 or off, or 1s to 365d, e.g. 6h, 30min"

static const ConfigKey config_keys[] = {
        { "Probe", "Instructions", parse_mask, offsetof(Config, probe.instructions),
          .max = (1u << _RNG_INSTRUCTION_MAX) - 1, .what = "instruction", .expect = "rdrand, rdseed",
          .word = rng_instruction_from_string, .set = offsetof(Config, instructions_set) },
        { "Probe", "Widths", parse_mask, offsetof(Config, probe.widths),
          .max = (1u << RNG_N_WIDTHS) - 1, .what = "width", .expect = "16, 32, 64", .word = rng_width_from_string,
          .set = offsetof(Config, widths_set) },
        { "Probe", "Threads", parse_threads, offsetof(Config, probe.threads), .where = WHERE_THREADS },
        { "Probe", "BudgetSec", parse_time, offsetof(Config, probe.limits.budget_usec),
          .min = 1, .max = PROBE_BUDGET_USEC_MAX, .what = "time", .expect = "1us to 1s per run, e.g. 2ms" },
        { "Probe", "MaxAttempts", parse_count, offsetof(Config, probe.limits.max_attempts),
          .min = 1, .max = PROBE_MAX_ATTEMPTS_MAX, .where = WHERE_MAX_ATTEMPTS },
        { "Probe", "MinAttempts", parse_count, offsetof(Config, probe.limits.min_attempts),
          .min = 1, .max = PROBE_MIN_ATTEMPTS_MAX, .where = WHERE_MIN_ATTEMPTS },
        { "Thresholds", "KernelRetries", parse_count, offsetof(Config, probe.verdict.kernel_retries),
          .min = 1, .max = PROBE_KERNEL_RETRIES_MAX, .where = WHERE_KERNEL_RETRIES },
        { "Thresholds", "DegradedMinFailures", parse_count, offsetof(Config, probe.verdict.degraded_min_failures),
          .min = 1, .max = UINT32_MAX, .where = WHERE_DEGRADED_MIN },
        { "Thresholds", "ExhaustedMinLoopFailures", parse_count,
          offsetof(Config, probe.verdict.exhausted_min_loop_failures), .min = 1, .max = UINT32_MAX,
          .where = WHERE_EXHAUSTED_MIN },
        { "Monitor", "ReprobeIntervalSec", parse_interval, offsetof(Config, reprobe_usec),
          .min = INTERVAL_MIN, .max = INTERVAL_MAX, .what = "interval", .expect = INTERVAL_EXPECT },
        { "Monitor", "KernelRoutineIntervalSec", parse_given_interval, offsetof(Config, routine_usec),
          .min = INTERVAL_MIN, .max = INTERVAL_MAX, .what = "interval", .expect = INTERVAL_EXPECT,
          .set = offsetof(Config, routine_set) },
        { "Policy", "FailOn", parse_fail_on, offsetof(Config, fail_on), .set = offsetof(Config, fail_on_set) },
        { "Policy", "ConfidentialVM", parse_cvm, offsetof(Config, confidential_vm) },
        { "Metrics", "Path", parse_metrics_path, offsetof(Config, metrics_path) },
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

static int handler(void *user, const char *section, const char *name, const char *value) {
        ParseState *s = user;
        char msg[256] = "out of memory";
        bool section_known = false;

        for (size_t i = 0; i < ELEMENTSOF(config_keys); i++) {
                const ConfigKey *k = &config_keys[i];

                if (strcmp(section, k->section) != 0)
                        continue;
                section_known = true;
                if (strcmp(name, k->key) != 0)
                        continue;
                if (k->where != WHERE_NONE)
                        note_where(s, &s->where[k->where]);
                if (k->parse(k, value, FIELD(&s->config, k), &s->config, msg, sizeof(msg)) < 0) {
                        set_error(s, s->file, s->line, section, name, msg);
                        return 0;
                }
                return 1;
        }
        if (!section[0])
                set_error(s, s->file, s->line, NULL, NULL, "assignment outside of a section");
        else if (!section_known) {
                snprintf(msg, sizeof(msg), "unknown section [%s]", section);
                set_error(s, s->file, s->line, NULL, NULL, msg);
        } else
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
        memcpy(str, line, len);
        str[len] = '\n';
        str[len + 1] = '\0';
        return str;
}

#define CONFIG_FILE_MAX (64u * 1024)

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
        s->pos = 0;
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
                         "DegradedMinFailures=%llu can never be reached: a run makes at most %llu tries "
                         "(MaxAttempts=%llu on %llu thread%s)",
                         (unsigned long long) p->verdict.degraded_min_failures, (unsigned long long) tries,
                         (unsigned long long) p->limits.max_attempts, (unsigned long long) threads,
                         threads == 1 ? "" : "s");
                return cross_error(s, (KeyWhereId[]) { WHERE_DEGRADED_MIN, WHERE_MAX_ATTEMPTS, WHERE_THREADS }, 3,
                                   msg);
        }
        if (p->verdict.exhausted_min_loop_failures > tries / retries) {
                snprintf(msg, sizeof(msg),
                         "ExhaustedMinLoopFailures=%llu can never be reached: a run makes at most %llu tries "
                         "(MaxAttempts=%llu on %llu thread%s), %llu per failed kernel loop",
                         (unsigned long long) p->verdict.exhausted_min_loop_failures, (unsigned long long) tries,
                         (unsigned long long) p->limits.max_attempts, (unsigned long long) threads,
                         threads == 1 ? "" : "s", (unsigned long long) retries);
                return cross_error(s,
                                   (KeyWhereId[]) { WHERE_EXHAUSTED_MIN, WHERE_MAX_ATTEMPTS, WHERE_THREADS,
                                                    WHERE_KERNEL_RETRIES },
                                   4, msg);
        }
        return 0;
}

int config_load(const char *root, Config *ret, ConfigError *err) {
        _cleanup_(config_files_freep) char **files = NULL;
        ParseState s = { .err = err };
        int r;

        *err = (ConfigError) {};
        config_default(&s.config);
        for (size_t i = 0; i < ELEMENTSOF(config_keys); i++)
                if (config_keys[i].where != WHERE_NONE)
                        s.where[config_keys[i].where].key = &config_keys[i];

        r = config_files(root, &files);
        if (r < 0) {
                char dir[sizeof(err->file)];

                snprintf(dir, sizeof(dir), "%s%s/%s", root ?: "", config_dirs[0], CONFIG_DROPIN_DIR);
                escape_to(err->file, sizeof(err->file), dir, strlen(dir));
                snprintf(err->message, sizeof(err->message), "cannot list configuration: %s", strerror(-r));
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
