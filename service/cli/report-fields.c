/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The journal fields report reads, each checked as the daemon writes it:
 * an entry is taken whole or not at all (entry_valid()). */

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "cvm.h"
#include "fail-on.h"
#include "macro.h"
#include "parse-util.h"
#include "probe-summary.h"
#include "report-fields.h"
#include "report.h"

/* Validated by entry_valid() before use: absent is 0. */
uint64_t field_u64(const EventFields *f, const char *name) {
        const char *v = event_fields_get(f, name);
        uint64_t u = 0;

        if (v)
                (void) parse_u64(v, &u);
        return u;
}

/* The numeric fields report reads, and their upper bounds. */
static const struct {
        const char *name;
        uint64_t max;
} numeric_fields[] = {
        { "RNG_TOTAL_ATTEMPTS", UINT64_MAX },
        { "RNG_TOTAL_FAILURES", UINT64_MAX },
        { "RNG_TOTAL_RETRY_EXHAUSTED", UINT64_MAX },
        { "RNG_MAX_FAIL_STREAK", UINT64_MAX },
        { "RNG_KERNEL_RETRIES", UINT32_MAX },
        { "RNG_EXIT_STATUS", 255 },
        { "RNG_COUNT", UINT64_MAX },
        { "RNG_OWN_PROBE", 1 },
        { "RNG_ROUTINE", 1 },
        { "RNG_INTERVAL_USEC", UINT64_MAX },
        { "RNG_PACKAGE", INT32_MAX },
        { "RNG_PACKAGES", 4096 },
        { "RNG_CRNG_INIT_USEC", UINT64_MAX },
        { "RNG_CREDIT_QUALITY", 1024 },
        { "RNG_BYTES", UINT64_MAX },
        { "RNG_BYTES_PER_SEC", UINT64_MAX },
        { "RNG_NEW", UINT64_MAX },
        { "RNG_KERNEL_USEC", UINT64_MAX },
};

/* RNG_FAIL_ON as the daemon writes it: "none", or FailOn= words separated
 * by one space. */
static bool fail_on_valid(const char *v) {
        char word[32];
        FailOn f = {};

        if (strcmp(v, "none") == 0)
                return true;
        for (const char *p = v;;) {
                size_t n = strcspn(p, " ");

                if (n == 0 || n >= sizeof(word))
                        return false;
                memcpy(word, p, n);
                word[n] = '\0';
                if (fail_on_add_word(&f, word) < 0)
                        return false;
                if (!p[n])
                        return true;
                p += n + 1;
        }
}

/* RNG_CONFIDENTIAL_VM: a detected kind, none, or forced (ConfidentialVM=yes). */
static bool cvm_name_valid(const char *v) {
        if (strcmp(v, "forced") == 0)
                return true;
        for (int k = 0; k < _CVM_MAX; k++)
                if (cvm_to_string(k) && strcmp(v, cvm_to_string(k)) == 0)
                        return true;
        return false;
}

/* RNG_REASON of an unavailable source (probe-summary.h's names). */
static bool reason_valid(const char *v) {
        return probe_unavailable_from_string(v) >= 0;
}

static bool yes_no_valid(const char *v) {
        return strcmp(v, "yes") == 0 || strcmp(v, "no") == 0;
}

static bool stage_valid(const char *v) {
        for (KernelCrngStage s = 0; s < _KERNEL_CRNG_STAGE_MAX; s++)
                if (strcmp(v, kernel_crng_stage_to_string(s)) == 0)
                        return true;
        return false;
}

static bool kind_valid(const char *v) {
        for (RngSourceKind k = 0; k < _RNG_SOURCE_KIND_MAX; k++)
                if (strcmp(v, rng_source_kind_to_string(k)) == 0)
                        return true;
        return false;
}

static bool verdict_valid(const char *v) {
        return verdict_from_string(v) >= 0;
}

static bool rates_valid(const char *v) {
        return report_parse_rates(v, NULL, NULL) >= 0;
}

/* A word of 1..max letters and digits: the CPU's identity is a key the
 * fleet groups machines by ("0x1a", "r1p1" on arm64). */
static bool token_valid(const char *v, size_t max) {
        size_t n = strlen(v);

        if (n == 0 || n > max)
                return false;
        for (; *v; v++)
                if (!((*v >= '0' && *v <= '9') || (*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z')))
                        return false;
        return true;
}

static bool vendor_valid(const char *v) { return token_valid(v, 15); }
static bool fms_valid(const char *v) { return token_valid(v, 11); }
static bool microcode_valid(const char *v) { return token_valid(v, 19); }

/* uname -r: printable, no space. */
static bool release_valid(const char *v) {
        size_t n = strlen(v);

        if (n == 0 || n > 95)
                return false;
        for (; *v; v++)
                if ((unsigned char) *v <= 0x20 || (unsigned char) *v >= 0x7f)
                        return false;
        return true;
}

/* The word fields report reads, and what the daemon writes in them. */
static const struct {
        const char *name;
        bool (*valid)(const char *v);
} word_fields[] = {
        { "RNG_VERDICT", verdict_valid },
        { "RNG_FAIL_ON", fail_on_valid },
        { "RNG_CONFIDENTIAL_VM", cvm_name_valid },
        { "RNG_REASON", reason_valid },
        { "RNG_RUN_FAILURE_RATES", rates_valid },
        { "RNG_CPU_VENDOR", vendor_valid },
        { "RNG_CPU_FAMILY", fms_valid },
        { "RNG_CPU_MODEL", fms_valid },
        { "RNG_CPU_STEPPING", fms_valid },
        { "RNG_CPU_MICROCODE", microcode_valid },
        { "RNG_KERNEL_RELEASE", release_valid },
        { "RNG_CREDITED", yes_no_valid },
        { "RNG_HOST_FED", yes_no_valid },
        { "RNG_CRNG_READY", yes_no_valid },
        { "RNG_CRNG_STAGE", stage_valid },
        { "RNG_KIND", kind_valid },
};

/* An entry is taken whole or not at all: every numeric field it has is an
 * unsigned decimal within bounds ("RNG_COUNT=-3" used to subtract),
 * failures never exceed attempts, and every word field (verdict, FailOn=,
 * confidential VM, unavailable reason) is one the daemon writes.
 * -EBADMSG with the first bad field's name in *ret_field. */
int entry_valid(const EventFields *f, const char **ret_field) {
        const char *v;
        uint64_t u;

        for (size_t i = 0; i < ELEMENTSOF(numeric_fields); i++) {
                v = event_fields_get(f, numeric_fields[i].name);
                if (v && (parse_u64(v, &u) < 0 || u > numeric_fields[i].max)) {
                        *ret_field = numeric_fields[i].name;
                        return -EBADMSG;
                }
        }
        if (field_u64(f, "RNG_TOTAL_FAILURES") > field_u64(f, "RNG_TOTAL_ATTEMPTS")) {
                *ret_field = "RNG_TOTAL_FAILURES";
                return -EBADMSG;
        }
        for (size_t i = 0; i < ELEMENTSOF(word_fields); i++) {
                v = event_fields_get(f, word_fields[i].name);
                if (v && !word_fields[i].valid(v)) {
                        *ret_field = word_fields[i].name;
                        return -EBADMSG;
                }
        }
        return 0;
}
