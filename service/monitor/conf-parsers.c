/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf-parsers.h"
#include "macro.h"
#include "parse-util.h"

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
        char expect[256];
        int bit;

        /* the command line's word for every one */
        if (strcmp(w, "all") == 0) {
                *(unsigned *) field = (unsigned) k->max;
                return 0;
        }
        bit = k->word(w);
        if (bit < 0) {
                snprintf(msg, len, "invalid %s '%s' (expected %s)", k->what, w,
                         k->expect_words ? k->expect_words(expect, sizeof(expect)) : k->expect);
                return -EINVAL;
        }
        *(unsigned *) field |= 1u << bit;
        return 0;
}

/* A list key with a default (unsigned mask): the first assignment replaces
 * the default, later ones add, an empty one resets to the default. */
int config_parse_mask(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len) {
        bool *set = CONFIG_GIVEN(c, k);

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

/* An unsigned number (uint64_t) within [min, max]; the error in the
 * command line's words where the key has its option (k->expect). */
int config_parse_count(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len) {
        if (parse_u64_range(value, k->min, k->max, field) < 0) {
                if (k->expect)
                        snprintf(msg, len, "invalid number '%s' (expected %s)", value, k->expect);
                else
                        snprintf(msg, len, "invalid number '%s' (expected %llu to %llu)", value,
                                 (unsigned long long) k->min, (unsigned long long) k->max);
                return -EINVAL;
        }
        return 0;
}

/* "all" or empty: every usable CPU (0); else a number of threads. */
int config_parse_threads(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len) {
        if (!value[0]) {
                *(unsigned *) field = 0;
                return 0;
        }
        if (probe_threads_from_string(value, field) < 0) {
                snprintf(msg, len, "invalid value '%s' (expected %s)", value, probe_threads_expect);
                return -EINVAL;
        }
        return 0;
}

/* A duration (uint64_t µs) within [min, max]. */
int config_parse_time(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len) {
        int r = parse_duration(value, k->min, k->max, field);

        if (r == -EDOM) {
                /* within the bounds or not, the problem is the precision */
                snprintf(msg, len, "invalid %s '%s' (finer than a microsecond, the smallest step)", k->what, value);
                return -EINVAL;
        }
        if (r < 0) {
                snprintf(msg, len, "invalid %s '%s' (expected %s)", k->what, value, k->expect);
                return -EINVAL;
        }
        return 0;
}

/* "0"/"off": 0; else a duration as parse_time(). */
int config_parse_interval(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len) {
        if (strcmp(value, "off") == 0 || strcmp(value, "0") == 0) {
                *(uint64_t *) field = 0;
                return 0;
        }
        return config_parse_time(k, value, field, c, msg, len);
}

/* An interval that, once given, replaces a default taken from elsewhere
 * (KernelRoutineIntervalSec=: the re-probe interval's). */
int config_parse_given_interval(const ConfigKey *k, const char *value, void *field, Config *c, char *msg,
                                size_t len) {
        *CONFIG_GIVEN(c, k) = true;
        return config_parse_interval(k, value, field, c, msg, len);
}

static int fail_on_word(const ConfigKey *k, const char *w, void *field, char *msg, size_t len) {
        char expect[384];
        int r;

        if (strcmp(w, "none") == 0) {
                snprintf(msg, len, "'none' combined with verdicts (none stands alone: it empties the list; "
                         "give it on a line of its own, then the verdicts)");
                return -EINVAL;
        }
        r = fail_on_add_word(field, w);
        if (r >= 0)
                return 0;
        if (r == -EDOM) {
                snprintf(msg, len, "entry '%s' can never match (that source never has that verdict)", w);
                return -EINVAL;
        }
        snprintf(msg, len, "invalid entry '%s' (expected %s; or none alone)", w,
                 fail_on_words_expect(expect, sizeof(expect)));
        return -EINVAL;
}

/* Whether every word of value is "none" (and there is one). */
static bool only_none(const char *value) {
        size_t n = 0;

        for (const char *p = value + strspn(value, " \t,"); *p; p += strspn(p, " \t,"), n++) {
                size_t w = strcspn(p, " \t,");

                if (w != 4 || memcmp(p, "none", 4) != 0)
                        return false;
                p += w;
        }
        return n > 0;
}

/* systemd's rule for a list (systemd.unit(5)): an empty assignment resets
 * it to the default; "none" alone empties it, whatever earlier lines and
 * files set (and, being given, keeps the confidential VM's default off);
 * other words add to it. */
int config_parse_fail_on(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len) {
        *CONFIG_GIVEN(c, k) = value[0] != '\0'; /* empty: the default again */
        if (!value[0] || strcmp(value, "none") == 0) {
                *(FailOn *) field = (FailOn) {};
                return 0;
        }
        /* "none none": not verdicts after none, none twice */
        if (strspn(value, " \t,") < strlen(value) && only_none(value)) {
                snprintf(msg, len, "'none' given more than once (none stands alone: once, on a line of its own)");
                return -EINVAL;
        }
        return for_each_word(k, value, field, msg, len, fail_on_word);
}

int config_parse_cvm(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len) {
        static const char *const names[_CVM_SETTING_MAX] = { "auto", "yes", "no" };
        int i = string_table_lookup(names, ELEMENTSOF(names), value);

        if (i < 0) {
                snprintf(msg, len, "invalid value '%s' (expected auto, yes or no)", value);
                return -EINVAL;
        }
        *(ConfidentialVmSetting *) field = i;
        return 0;
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
int config_parse_metrics_path(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len) {
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
