/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <ini.h>

#include "config.h"
#include "escape.h"
#include "fileio.h"
#include "macro.h"
#include "parse-util.h"

static const char *const config_dirs[] = { "/etc", "/run", "/usr/lib" };
#define CONFIG_MAIN "rng-health/rng-health.conf"
#define CONFIG_DROPIN_DIR "rng-health/rng-health.conf.d"

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

/* ---- values ---- */

/* Where a key of a cross-key check was last set (seq 0: never, the
 * default), so that its error names the later assignment. */
typedef struct KeyWhere {
        const char *section, *key;
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
        bool instructions_set, widths_set;
        /* the keys of the cross-key checks */
        KeyWhere min_attempts, max_attempts, threads, kernel_retries, degraded_min, exhausted_min;
        unsigned seq; /* order of assignments */
} ParseState;

static void note_where(ParseState *s, KeyWhere *w) {
        snprintf(w->file, sizeof(w->file), "%s", s->file);
        w->line = s->line;
        w->seq = ++s->seq;
}

typedef int (*ValueParser)(ParseState *s, const char *value, char *msg, size_t len);

/* Calls fn on each word of value, separated by spaces, tabs or commas. A
 * non-empty value without a word ("," or " , ") is refused: it is neither
 * a list nor the empty assignment that resets one. */
static int for_each_word(ParseState *s, const char *value, char *msg, size_t len,
                         int (*fn)(ParseState *s, const char *word, char *msg, size_t len)) {
        _cleanup_free_ char *copy = strdup(value);
        char *save = NULL;
        unsigned n = 0;
        int r;

        if (!copy)
                return -ENOMEM;
        for (char *w = strtok_r(copy, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
                r = fn(s, w, msg, len);
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

static int word_instruction(ParseState *s, const char *w, char *msg, size_t len) {
        int i = rng_instruction_from_string(w);

        if (i < 0) {
                snprintf(msg, len, "invalid instruction '%s' (expected rdrand, rdseed)", w);
                return -EINVAL;
        }
        s->config.probe.instructions |= 1u << i;
        return 0;
}

static int word_width(ParseState *s, const char *w, char *msg, size_t len) {
        uint64_t u;

        if (parse_u64(w, &u) < 0 || u > 64 || rng_width_index((unsigned) u) < 0) {
                snprintf(msg, len, "invalid width '%s' (expected 16, 32, 64)", w);
                return -EINVAL;
        }
        s->config.probe.widths |= 1u << rng_width_index((unsigned) u);
        return 0;
}

/* A list key with a default: the first assignment replaces the default,
 * later ones add, an empty one resets to the default. */
static int parse_mask_list(ParseState *s, const char *value, char *msg, size_t len, unsigned *mask, bool *set,
                           unsigned all, int (*word)(ParseState *s, const char *w, char *msg, size_t len)) {
        if (!value[0]) {
                *mask = all;
                *set = false;
                return 0;
        }
        if (!*set)
                *mask = 0;
        *set = true;
        return for_each_word(s, value, msg, len, word);
}

static int parse_instructions(ParseState *s, const char *value, char *msg, size_t len) {
        return parse_mask_list(s, value, msg, len, &s->config.probe.instructions, &s->instructions_set,
                               (1u << _RNG_INSTRUCTION_MAX) - 1, word_instruction);
}

static int parse_widths(ParseState *s, const char *value, char *msg, size_t len) {
        return parse_mask_list(s, value, msg, len, &s->config.probe.widths, &s->widths_set, (1u << RNG_N_WIDTHS) - 1,
                               word_width);
}

static int parse_threads(ParseState *s, const char *value, char *msg, size_t len) {
        uint64_t u;

        note_where(s, &s->threads);
        if (strcmp(value, "all") == 0 || !value[0]) {
                s->config.probe.threads = 0;
                return 0;
        }
        if (parse_u64(value, &u) < 0 || u < 1 || u > CPU_SETSIZE) {
                snprintf(msg, len, "invalid value '%s' (expected all or a number of threads from 1 to %d)", value,
                         CPU_SETSIZE);
                return -EINVAL;
        }
        s->config.probe.threads = (unsigned) u;
        return 0;
}

static int parse_budget(ParseState *s, const char *value, char *msg, size_t len) {
        uint64_t u;

        if (parse_duration(value, 1, PROBE_BUDGET_USEC_MAX, &u) < 0) {
                snprintf(msg, len, "invalid time '%s' (expected 1us to 1s per run, e.g. 2ms)", value);
                return -EINVAL;
        }
        s->config.probe.limits.budget_usec = u;
        return 0;
}

static int parse_count(const char *value, uint64_t min, uint64_t max, uint64_t *ret, char *msg, size_t len) {
        uint64_t u;

        if (parse_u64(value, &u) < 0 || u < min || u > max) {
                snprintf(msg, len, "invalid number '%s' (expected %llu to %llu)", value, (unsigned long long) min,
                         (unsigned long long) max);
                return -EINVAL;
        }
        *ret = u;
        return 0;
}

static int parse_max_attempts(ParseState *s, const char *value, char *msg, size_t len) {
        note_where(s, &s->max_attempts);
        return parse_count(value, 1, 1ull << 32, &s->config.probe.limits.max_attempts, msg, len);
}

static int parse_min_attempts(ParseState *s, const char *value, char *msg, size_t len) {
        note_where(s, &s->min_attempts);
        return parse_count(value, 1, PROBE_MIN_ATTEMPTS_MAX, &s->config.probe.limits.min_attempts, msg, len);
}

static int parse_kernel_retries(ParseState *s, const char *value, char *msg, size_t len) {
        note_where(s, &s->kernel_retries);
        return parse_count(value, 1, 1000, &s->config.probe.verdict.kernel_retries, msg, len);
}

static int parse_degraded_min(ParseState *s, const char *value, char *msg, size_t len) {
        note_where(s, &s->degraded_min);
        return parse_count(value, 1, UINT32_MAX, &s->config.probe.verdict.degraded_min_failures, msg, len);
}

static int parse_exhausted_min(ParseState *s, const char *value, char *msg, size_t len) {
        note_where(s, &s->exhausted_min);
        return parse_count(value, 1, UINT32_MAX, &s->config.probe.verdict.exhausted_min_loop_failures, msg, len);
}

/* "0"/"off": off; else a duration from 1s to 365d (default unit s). */
static int parse_interval(ParseState *s, const char *value, char *msg, size_t len) {
        if (strcmp(value, "off") == 0 || strcmp(value, "0") == 0) {
                s->config.reprobe_usec = 0;
                return 0;
        }
        if (parse_duration(value, USEC_PER_SEC, 365 * USEC_PER_DAY, &s->config.reprobe_usec) >= 0)
                return 0;
        snprintf(msg, len, "invalid interval '%s' (expected 0 or off, or 1s to 365d, e.g. 6h, 30min)", value);
        return -EINVAL;
}

/* "0"/"off": each at once; else 1s to 365d, as ReprobeIntervalSec=. */
static int parse_routine(ParseState *s, const char *value, char *msg, size_t len) {
        s->config.routine_set = true;
        if (strcmp(value, "off") == 0 || strcmp(value, "0") == 0) {
                s->config.routine_usec = 0;
                return 0;
        }
        if (parse_duration(value, USEC_PER_SEC, 365 * USEC_PER_DAY, &s->config.routine_usec) >= 0)
                return 0;
        snprintf(msg, len, "invalid interval '%s' (expected 0 or off, or 1s to 365d, e.g. 6h, 30min)", value);
        return -EINVAL;
}

static int word_fail_on(ParseState *s, const char *w, char *msg, size_t len) {
        if (fail_on_add_word(&s->config.fail_on, w) >= 0)
                return 0;
        snprintf(msg, len, "invalid entry '%s' (expected a verdict: degraded, exhausted, broken, hidden, "
                 "unsupported or ok, optionally after rdrand: or rdseed:; or none)", w);
        return -EINVAL;
}

static int parse_fail_on(ParseState *s, const char *value, char *msg, size_t len) {
        if (!value[0]) {
                s->config.fail_on_set = false;
                s->config.fail_on = (FailOn) {};
                return 0;
        }
        s->config.fail_on_set = true;
        return for_each_word(s, value, msg, len, word_fail_on);
}

static int parse_cvm(ParseState *s, const char *value, char *msg, size_t len) {
        static const char *const names[_CVM_SETTING_MAX] = { "auto", "yes", "no" };

        for (int i = 0; i < _CVM_SETTING_MAX; i++)
                if (strcmp(value, names[i]) == 0) {
                        s->config.confidential_vm = i;
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
static int parse_metrics_path(ParseState *s, const char *value, char *msg, size_t len) {
        size_t n = strlen(value);

        if (n > 0 && (value[0] != '/' || value[n - 1] == '/' || n >= sizeof(s->config.metrics_path) ||
                      path_has_dot_component(value))) {
                snprintf(msg, len, "invalid path '%s' (expected empty for off, or an absolute file name, e.g. %s)",
                         value, CONFIG_METRICS_PATH_DEFAULT);
                return -EINVAL;
        }
        memcpy(s->config.metrics_path, value, n + 1);
        return 0;
}

static const struct {
        const char *section, *key;
        ValueParser parse;
} config_keys[] = {
        { "Probe", "Instructions", parse_instructions },
        { "Probe", "Widths", parse_widths },
        { "Probe", "Threads", parse_threads },
        { "Probe", "BudgetSec", parse_budget },
        { "Probe", "MaxAttempts", parse_max_attempts },
        { "Probe", "MinAttempts", parse_min_attempts },
        { "Thresholds", "KernelRetries", parse_kernel_retries },
        { "Thresholds", "DegradedMinFailures", parse_degraded_min },
        { "Thresholds", "ExhaustedMinLoopFailures", parse_exhausted_min },
        { "Monitor", "ReprobeIntervalSec", parse_interval },
        { "Monitor", "KernelRoutineIntervalSec", parse_routine },
        { "Policy", "FailOn", parse_fail_on },
        { "Policy", "ConfidentialVM", parse_cvm },
        { "Metrics", "Path", parse_metrics_path },
};

/* ---- files ---- */

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

static int handler(void *user, const char *section, const char *name, const char *value) {
        ParseState *s = user;
        char msg[256] = "out of memory";
        bool section_known = false;

        for (size_t i = 0; i < ELEMENTSOF(config_keys); i++) {
                if (strcmp(section, config_keys[i].section) != 0)
                        continue;
                section_known = true;
                if (strcmp(name, config_keys[i].key) != 0)
                        continue;
                if (config_keys[i].parse(s, value, msg, sizeof(msg)) < 0) {
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

/* The one line reader of the configuration, in front of inih: every line
 * is checked here, so that inih only ever sees what it parses completely.
 * Refused, with file:line: a NUL byte or another control character (the
 * value would be cut or echoed), a line longer than inih's buffer (it
 * would split it: the tail would become a line of its own), an indented
 * setting (inih would take it as a continuation of the previous value),
 * text after a section header's "]" (inih would drop it), and in a
 * setting a ';' or '#' (inih cuts the value at " ;" as an inline comment:
 * "Widths=64 ;32 16" would probe 64 only) or a ':' before the '=' (inih
 * takes ':' as '=': "Instructions: rdrand"). */
static bool line_fits(const char *line, size_t len, int num) {
        /* inih's buffer holds the line, its newline and the NUL. */
        return num > 2 && len <= (size_t) num - 2;
}

static int check_line(ParseState *s, const char *line, size_t len, int num) {
        char msg[256];
        size_t i = 0;

        for (size_t k = 0; k < len; k++) {
                unsigned char c = (unsigned char) line[k];

                if (c == '\0') {
                        snprintf(msg, sizeof(msg), "NUL byte in column %zu", k + 1);
                        goto fail;
                }
                if ((c < 0x20 && c != '\t') || c == 0x7f) {
                        snprintf(msg, sizeof(msg), "control character 0x%02x in column %zu", c, k + 1);
                        goto fail;
                }
        }
        if (!line_fits(line, len, num)) {
                snprintf(msg, sizeof(msg), "line of %zu bytes, longer than the limit of %d", len, num - 2);
                goto fail;
        }
        while (i < len && (line[i] == ' ' || line[i] == '\t'))
                i++;
        if (i == len || line[i] == '#' || line[i] == ';')
                return 0; /* empty or a comment */
        if (i > 0) {
                snprintf(msg, sizeof(msg), "indented line (settings and sections start in column 1; "
                                           "continuation lines are not supported)");
                goto fail;
        }
        if (line[0] == '[') {
                const char *close = memchr(line, ']', len);
                size_t k;

                if (!close) {
                        snprintf(msg, sizeof(msg), "section header without ']'");
                        goto fail;
                }
                for (k = (size_t) (close - line) + 1; k < len && (line[k] == ' ' || line[k] == '\t'); k++)
                        ;
                if (k < len && line[k] != '#' && line[k] != ';') {
                        snprintf(msg, sizeof(msg), "text after ']' of the section header");
                        goto fail;
                }
        } else {
                const char *eq = memchr(line, '=', len), *colon = memchr(line, ':', len);

                if (colon && (!eq || colon < eq)) {
                        snprintf(msg, sizeof(msg), "':' in column %zu as a separator (settings are Key=value)",
                                 (size_t) (colon - line) + 1);
                        goto fail;
                }
                for (size_t k = 0; k < len; k++)
                        if (line[k] == ';' || line[k] == '#') {
                                snprintf(msg, sizeof(msg),
                                         "'%c' in column %zu of a setting (a comment must be a line of its own)",
                                         line[k], k + 1);
                                goto fail;
                        }
        }
        return 0;
fail:
        set_error(s, s->file, s->line, NULL, NULL, msg);
        return -EINVAL;
}

/* inih's reader: the next line of the buffer, checked; NULL at the end
 * or at the first bad line (the error is in s). */
static char *reader(char *str, int num, void *stream) {
        ParseState *s = stream;
        const char *line, *nl;
        size_t len;

        if (s->failed || s->pos >= s->len)
                return NULL;
        line = s->buf + s->pos;
        nl = memchr(line, '\n', s->len - s->pos);
        len = nl ? (size_t) (nl - line) : s->len - s->pos;
        s->pos += len + (nl ? 1 : 0);
        s->line++;
        if (check_line(s, line, len, num) < 0)
                return NULL;
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

/* Masked: empty, or /dev/null (what a symlink to /dev/null resolves to).
 * Only /dev/null: a link to another device (/dev/zero) does not mask, and
 * is refused when read (open_input()). */
static bool is_masked(const char *path) {
        struct stat st, null;

        if (stat(path, &st) < 0)
                return false;
        if (S_ISREG(st.st_mode))
                return st.st_size == 0;
        return S_ISCHR(st.st_mode) && stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode) &&
               st.st_rdev == null.st_rdev;
}

static bool exists(const char *path) {
        struct stat st;

        return lstat(path, &st) == 0;
}

static int strcmp_ptr(const void *a, const void *b) {
        return strcmp(*(char *const *) a, *(char *const *) b);
}

void config_files_free(char **files) {
        if (!files)
                return;
        for (char **f = files; *f; f++)
                free(*f);
        free(files);
}

DEFINE_TRIVIAL_CLEANUP_FUNC(char **, config_files_free);


static int list_push(char ***list, size_t *n, char *s) {
        char **l;

        if (!s)
                return -ENOMEM;
        l = realloc(*list, (*n + 2) * sizeof(char *));
        if (!l) {
                free(s);
                return -ENOMEM;
        }
        l[(*n)++] = s;
        l[*n] = NULL;
        *list = l;
        return 0;
}

/* Of ROOT/{etc,run,usr/lib}/REL, the first that exists wins: appended to
 * files unless it masks. */
static int push_highest(const char *root, const char *rel, char ***files, size_t *n_files) {
        for (size_t d = 0; d < ELEMENTSOF(config_dirs); d++) {
                _cleanup_free_ char *p = path_join(root, config_dirs[d], rel);


                if (!p)
                        return -ENOMEM;
                if (!exists(p))
                        continue;
                if (is_masked(p))
                        return 0;
                return list_push(files, n_files, TAKE_PTR(p)); /* takes it, or frees it */

        }
        return 0;
}

int config_files(const char *root, char ***ret) {
        _cleanup_(config_files_freep) char **names = NULL, **files = NULL;
        size_t n_names = 0, n_files = 0;
        int r;

        /* Main file: the first one that exists. */
        r = push_highest(root, CONFIG_MAIN, &files, &n_files);
        if (r < 0)
                return r;

        /* Drop-in names across the three directories, each once. */
        for (size_t d = 0; d < ELEMENTSOF(config_dirs); d++) {
                _cleanup_free_ char *dir = path_join(root, config_dirs[d], CONFIG_DROPIN_DIR);
                DIR *dp;
                struct dirent *de;

                if (!dir)
                        return -ENOMEM;
                dp = opendir(dir);
                if (!dp) {
                        if (errno == ENOENT || errno == ENOTDIR)
                                continue;
                        return negative_errno();
                }
                while ((de = readdir(dp))) {
                        size_t l = strlen(de->d_name);
                        bool dup = false;

                        if (de->d_name[0] == '.' || l < 6 || strcmp(de->d_name + l - 5, ".conf") != 0)
                                continue;
                        for (size_t i = 0; i < n_names; i++)
                                dup = dup || strcmp(names[i], de->d_name) == 0;
                        if (dup)
                                continue;
                        r = list_push(&names, &n_names, strdup(de->d_name));
                        if (r < 0) {
                                closedir(dp);
                                return r;
                        }
                }
                closedir(dp);
        }
        if (n_names > 0)
                qsort(names, n_names, sizeof(char *), strcmp_ptr);

        /* For each name, the directory with the highest precedence wins. */
        for (size_t i = 0; i < n_names; i++) {
                _cleanup_free_ char *rel = NULL;

                if (asprintf(&rel, "%s/%s", CONFIG_DROPIN_DIR, names[i]) < 0)
                        return -ENOMEM;
                r = push_highest(root, rel, &files, &n_files);
                if (r < 0)
                        return r;
        }

        if (!files) {
                files = calloc(1, sizeof(char *));
                if (!files)
                        return -ENOMEM;
        }
        *ret = TAKE_PTR(files);
        return 0;

}

/* A cross-key error, reported where the latest of the keys was set. */
static int cross_error(ParseState *s, KeyWhere *const *keys, size_t n, const char *msg) {
        const KeyWhere *last = keys[0];

        for (size_t i = 1; i < n; i++)
                if (keys[i]->seq > last->seq)
                        last = keys[i];
        set_error(s, last->file, last->line, last->section, last->key, msg);
        return -EINVAL;
}

/* Values that are each within bounds but together useless: MinAttempts=
 * above MaxAttempts=, and thresholds no run can reach. A run makes at most
 * MaxAttempts= tries per thread, on Threads= threads (all: at most
 * CPU_SETSIZE); a kernel-loop failure takes KernelRetries= failed tries
 * (the running kernel's: at least 1). */
static int cross_check(ParseState *s) {
        const ProbeParams *p = &s->config.probe;
        uint64_t threads = p->threads > 0 ? p->threads : CPU_SETSIZE;
        uint64_t tries = p->limits.max_attempts * threads; /* <= 2^32 * 2^10 */
        uint64_t retries = MAX(p->verdict.kernel_retries, 1u); /* <= 1000 */
        char msg[256];

        if (p->limits.min_attempts > p->limits.max_attempts) {
                snprintf(msg, sizeof(msg), "MinAttempts=%llu exceeds MaxAttempts=%llu",
                         (unsigned long long) p->limits.min_attempts, (unsigned long long) p->limits.max_attempts);
                return cross_error(s, (KeyWhere *[]) { &s->min_attempts, &s->max_attempts }, 2, msg);
        }
        if (p->verdict.degraded_min_failures > tries) {
                snprintf(msg, sizeof(msg),
                         "DegradedMinFailures=%llu can never be reached: a run makes at most %llu tries "
                         "(MaxAttempts=%llu on %llu thread%s)",
                         (unsigned long long) p->verdict.degraded_min_failures, (unsigned long long) tries,
                         (unsigned long long) p->limits.max_attempts, (unsigned long long) threads,
                         threads == 1 ? "" : "s");
                return cross_error(s, (KeyWhere *[]) { &s->degraded_min, &s->max_attempts, &s->threads }, 3, msg);
        }
        if (p->verdict.exhausted_min_loop_failures > tries / retries) {
                snprintf(msg, sizeof(msg),
                         "ExhaustedMinLoopFailures=%llu can never be reached: a run makes at most %llu tries "
                         "(MaxAttempts=%llu on %llu thread%s), %llu per failed kernel loop",
                         (unsigned long long) p->verdict.exhausted_min_loop_failures, (unsigned long long) tries,
                         (unsigned long long) p->limits.max_attempts, (unsigned long long) threads,
                         threads == 1 ? "" : "s", (unsigned long long) retries);
                return cross_error(s,
                                   (KeyWhere *[]) { &s->exhausted_min, &s->max_attempts, &s->threads,
                                                    &s->kernel_retries },
                                   4, msg);
        }
        return 0;
}

int config_load(const char *root, Config *ret, ConfigError *err) {
        _cleanup_(config_files_freep) char **files = NULL;
        ParseState s = {
                .err = err,
                .min_attempts = { .section = "Probe", .key = "MinAttempts" },
                .max_attempts = { .section = "Probe", .key = "MaxAttempts" },
                .threads = { .section = "Probe", .key = "Threads" },
                .kernel_retries = { .section = "Thresholds", .key = "KernelRetries" },
                .degraded_min = { .section = "Thresholds", .key = "DegradedMinFailures" },
                .exhausted_min = { .section = "Thresholds", .key = "ExhaustedMinLoopFailures" },
        };
        int r;

        *err = (ConfigError) {};
        config_default(&s.config);

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
