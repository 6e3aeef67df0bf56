/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The generic parsers of rng-health.conf(5)'s values (systemd's
 * conf-parser.c idea): each takes its key's table entry, a value and the
 * field it sets; config.c holds the table. On a bad value each returns
 * -EINVAL and says why in msg, the value quoted (the caller escapes it). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"

/* The keys of the cross-key checks (config.c): where each was last set (seq 0: never,
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

/* A value into its field (CONFIG_FIELD(c, k)) of the Config c. */
typedef int (*ConfigParser)(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len);

/* One entry of the key table. */
struct ConfigKey {
        const char *section, *key;
        ConfigParser parse;
        size_t offset;               /* of the field in Config */
        uint64_t min, max;           /* bounds: of a number, of a duration (µs); a list's "all" mask (max) */
        const char *what, *expect;   /* for the error: "invalid WHAT 'value' (expected EXPECT)" */
        /* a list's EXPECT made from a table into a buffer (NULL: expect) */
        const char *(*expect_words)(char *buf, size_t len);
        int (*word)(const char *w);  /* a list's words: the bit, or -EINVAL */
        size_t set;                  /* of its "given" flag in Config (the parsers that keep one) */
        KeyWhereId where;            /* WHERE_NONE: no cross-key check reads it */
};

#define CONFIG_FIELD(c, k) ((void *) ((char *) (c) + (k)->offset))
#define CONFIG_GIVEN(c, k) ((bool *) ((char *) (c) + (k)->set))

/* A list key with a default (unsigned mask, words by k->word): the first
 * assignment replaces the default, later ones add, an empty one resets
 * it to k->max. */
int config_parse_mask(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len);
/* An unsigned number (uint64_t) within [k->min, k->max]. */
int config_parse_count(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len);
/* "all" or empty: every usable CPU (0); else a number of threads (unsigned). */
int config_parse_threads(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len);
/* A duration (uint64_t µs) within [k->min, k->max]. */
int config_parse_time(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len);
/* "0"/"off": 0; else a duration as config_parse_time(). */
int config_parse_interval(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len);
/* The same, and the key's "given" flag set. */
int config_parse_given_interval(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len);
/* FailOn= words added to a FailOn; "none" alone: empty (and given);
 * empty: not given (the default). "none" with other words is an error. */
int config_parse_fail_on(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len);
/* auto, yes or no (ConfidentialVmSetting). */
int config_parse_cvm(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len);
/* "": off; else an absolute file name without "." or ".." components. */
int config_parse_metrics_path(const ConfigKey *k, const char *value, void *field, Config *c, char *msg, size_t len);
