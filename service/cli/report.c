/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include <systemd/sd-journal.h>

#include "escape.h"
#include "journal-ids.h"
#include "journal-sender.h"
#include "format-util.h"
#include "macro.h"
#include "parse-util.h"
#include "probe-json.h"
#include "probe-table.h"
#include "cvm.h"
#include "report.h"
#include "status.h"

static const char *const report_mids[] = {
        RNG_MID_PROBE_RESULT_STR,  RNG_MID_VERDICT_BOOT_STR,   RNG_MID_VERDICT_CHANGED_STR,
        RNG_MID_OUTPUT_CHECK_STR,  RNG_MID_UNAVAILABLE_STR,    RNG_MID_CONFIG_INVALID_STR,
        RNG_MID_POLICY_FAILURE_STR,
        /* the kernel watch's, in the order of KernelRngMsgKind */
        RNG_MID_KERNEL_EXHAUSTED_STR, RNG_MID_KERNEL_FAILED_STR, RNG_MID_KERNEL_DISABLED_STR,
        RNG_MID_KERNEL_DEFECTIVE_STR,
};

/* Every string report shows comes from the journal: kept escaped
 * (escape.h), so that text and JSON (valid UTF-8) show it safely. */
static void copy(char *dst, size_t len, const char *src) {
        escape_to(dst, len, src ?: "", src ? strlen(src) : 0);
}

/* Validated by entry_valid() before use: absent is 0. */
static uint64_t field_u64(const EventFields *f, const char *name) {
        const char *v = event_fields_get(f, name);
        uint64_t u = 0;

        if (v)
                (void) parse_u64(v, &u);
        return u;
}

static uint64_t sat_add(uint64_t a, uint64_t b) {
        return b > UINT64_MAX - a ? UINT64_MAX : a + b;
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
                if (strcmp(word, "none") == 0 || fail_on_add_word(&f, word) < 0)
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

/* RNG_REASON of an unavailable instruction, as journal-event.c writes it. */
static bool reason_valid(const char *v) {
        return strcmp(v, "cpuid") == 0 || strcmp(v, "kernel") == 0 || strcmp(v, "hidden") == 0;
}

static bool verdict_valid(const char *v) {
        return verdict_from_string(v) >= 0;
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
};

/* An entry is taken whole or not at all: every numeric field it has is an
 * unsigned decimal within bounds ("RNG_COUNT=-3" used to subtract),
 * failures never exceed attempts, and every word field (verdict, FailOn=,
 * confidential VM, unavailable reason) is one the daemon writes.
 * -EBADMSG with the first bad field's name in *ret_field. */
static int entry_valid(const EventFields *f, const char **ret_field) {
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

static ReportBoot *find_boot(Report *r, sd_id128_t boot_id) {
        ReportBoot *b;

        for (size_t i = 0; i < r->n_boots; i++)
                if (sd_id128_equal(r->boots[i].boot_id, boot_id))
                        return &r->boots[i];
        b = realloc(r->boots, (r->n_boots + 1) * sizeof(ReportBoot));
        if (!b)
                return NULL;
        r->boots = b;
        b = &r->boots[r->n_boots++];
        *b = (ReportBoot) { .boot_id = boot_id, .exit_status = -1 };
        return b;
}

static ReportInstruction *find_instruction(ReportBoot *b, const EventFields *f) {
        const char *name = event_fields_get(f, "RNG_INSTRUCTION");

        for (int i = 0; name && i < _RNG_INSTRUCTION_MAX; i++)
                if (strcmp(name, rng_instruction_upper_to_string(i)) == 0)
                        return &b->instr[i];
        return NULL;
}

static void add_verdict(ReportBoot *b, const EventFields *f) {
        copy(b->verdict, sizeof(b->verdict), event_fields_get(f, "RNG_VERDICT"));
        copy(b->cvm, sizeof(b->cvm), event_fields_get(f, "RNG_CONFIDENTIAL_VM"));
        copy(b->fail_on, sizeof(b->fail_on), event_fields_get(f, "RNG_FAIL_ON"));
}

int report_add_entry(Report *r, sd_id128_t boot_id, uint64_t realtime_usec, const EventFields *f) {
        const char *mid = event_fields_get(f, "MESSAGE_ID"), *bad = NULL;
        ReportInstruction *in;
        ReportBoot *b;

        if (!mid)
                return -EINVAL;
        if (entry_valid(f, &bad) < 0) {
                if (r->malformed++ == 0)
                        copy(r->first_malformed_field, sizeof(r->first_malformed_field), bad);
                return -EBADMSG;
        }
        b = find_boot(r, boot_id);
        if (!b)
                return -ENOMEM;
        if (b->first_usec == 0 || realtime_usec < b->first_usec)
                b->first_usec = realtime_usec;
        b->last_usec = MAX(b->last_usec, realtime_usec);
        in = find_instruction(b, f);

        if (strcmp(mid, RNG_MID_PROBE_RESULT_STR) == 0 && in) {
                const char *v = event_fields_get(f, "RNG_VERDICT") ?: "";

                in->seen = true;
                copy(in->verdict, sizeof(in->verdict), v);
                /* Ranked by the one verdict parser; "" (none yet) below all. */
                if (verdict_from_string(v) > verdict_from_string(in->worst_verdict))
                        copy(in->worst_verdict, sizeof(in->worst_verdict), v);
                in->attempts = field_u64(f, "RNG_TOTAL_ATTEMPTS");
                in->failures = field_u64(f, "RNG_TOTAL_FAILURES");
                in->retry_exhausted = field_u64(f, "RNG_TOTAL_RETRY_EXHAUSTED");
                in->max_fail_streak = field_u64(f, "RNG_MAX_FAIL_STREAK");
                in->kernel_retries = field_u64(f, "RNG_KERNEL_RETRIES");
                in->failure_rate = in->attempts ? (double) in->failures / (double) in->attempts : 0;
                /* One result per instruction and probe. */
                in->results++;
                b->probes = MAX(b->probes, in->results);
        } else if (strcmp(mid, RNG_MID_VERDICT_BOOT_STR) == 0) {
                copy(b->boot_verdict, sizeof(b->boot_verdict), event_fields_get(f, "RNG_VERDICT"));
                add_verdict(b, f);
        } else if (strcmp(mid, RNG_MID_VERDICT_CHANGED_STR) == 0) {
                b->verdict_changes++;
                add_verdict(b, f);
        } else if (strcmp(mid, RNG_MID_OUTPUT_CHECK_STR) == 0)
                b->output_check_failures++;
        else if (strcmp(mid, RNG_MID_UNAVAILABLE_STR) == 0 && in) {
                in->seen = true;
                copy(in->unavailable, sizeof(in->unavailable), event_fields_get(f, "RNG_REASON"));
        } else if (strcmp(mid, RNG_MID_CONFIG_INVALID_STR) == 0)
                b->config_errors++;
        else if (strcmp(mid, RNG_MID_POLICY_FAILURE_STR) == 0) {
                b->policy_failures++;
                b->exit_status = (int) field_u64(f, "RNG_EXIT_STATUS");
        } else
                for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                        if (strcmp(mid, rng_kernel_message_id(k)) == 0) {
                                b->kernel_events[k]++;
                                /* The kinds that mean failed calls carry their count. */
                                if (kernel_rng_msg_kind_verdict(k) == VERDICT_EXHAUSTED) {
                                        uint64_t n = field_u64(f, "RNG_COUNT");

                                        /* saturating */
                                        b->kernel_failures = n > UINT64_MAX - b->kernel_failures ?
                                                                     UINT64_MAX : b->kernel_failures + n;
                                        if (field_u64(f, "RNG_OWN_PROBE") == 1)
                                                b->kernel_own_failures = n > UINT64_MAX - b->kernel_own_failures ?
                                                                                 UINT64_MAX : b->kernel_own_failures + n;
                                        if (field_u64(f, "RNG_ROUTINE") == 1) {
                                                uint64_t iv = field_u64(f, "RNG_INTERVAL_USEC");

                                                b->routine_failures = sat_add(b->routine_failures, n);
                                                if (iv > 0) {
                                                        b->routine_rated = sat_add(b->routine_rated, n);
                                                        b->routine_interval_usec = sat_add(b->routine_interval_usec, iv);
                                                }
                                        }
                                }
                        }
        return 0;
}

void report_done(Report *r) {
        free(r->boots);
        *r = (Report) {};
}

/* ---- reading the journal ---- */

static int entry_fields(sd_journal *j, EventFields *f) {
        const void *data;
        size_t len;
        int r;

        SD_JOURNAL_FOREACH_DATA(j, data, len) {
                const char *d = data;

                if (!((len > 4 && memcmp(d, "RNG_", 4) == 0) || (len > 11 && memcmp(d, "MESSAGE_ID=", 11) == 0)))
                        continue;
                r = event_fields_addf(f, "%.*s", (int) len, d);
                if (r == -E2BIG)
                        break;
                if (r < 0)
                        return r;
        }
        return 0;
}

static int add_matches(sd_journal *j, const sd_id128_t *boot_id) {
        char m[64];
        int r;

        for (size_t i = 0; i < ELEMENTSOF(report_mids); i++) {
                snprintf(m, sizeof(m), "MESSAGE_ID=%s", report_mids[i]);
                r = sd_journal_add_match(j, m, 0);
                if (r < 0)
                        return r;
        }
        if (boot_id) {
                char s[SD_ID128_STRING_MAX];

                snprintf(m, sizeof(m), "_BOOT_ID=%s", sd_id128_to_string(*boot_id, s));
                r = sd_journal_add_match(j, m, 0); /* another field: ANDed */
                if (r < 0)
                        return r;
        }
        return 0;
}

static int read_entries(const sd_id128_t *boot_id, uint64_t since_usec, Report *ret) {
        _cleanup_(sd_journal_closep) sd_journal *j = NULL;
        int r;

        r = sd_journal_open(&j, SD_JOURNAL_LOCAL_ONLY);
        if (r < 0)
                return r;
        r = add_matches(j, boot_id);
        if (r < 0)
                return r;
        r = since_usec ? sd_journal_seek_realtime_usec(j, since_usec) : sd_journal_seek_head(j);
        if (r < 0)
                return r;

        for (;;) {
                EventFields f = {};
                sd_id128_t boot;
                uint64_t t;

                r = sd_journal_next(j);
                if (r < 0)
                        return r;
                if (r == 0)
                        break;
                r = sd_journal_get_realtime_usec(j, &t);
                if (r < 0)
                        return r;
                if (t < since_usec)
                        continue;
                r = sd_journal_get_monotonic_usec(j, NULL, &boot);
                if (r < 0)
                        return r;
                /* Only rng-health.service's own entries (journal-sender.h):
                 * the others are counted, never used. */
                r = journal_entry_from(j, &(JournalSender) { RNG_HEALTH_UNIT, JOURNAL_SENDER_ANY_UID });
                if (r < 0)
                        return r;
                if (r == 0) {
                        ret->foreign++;
                        continue;
                }
                r = entry_fields(j, &f);
                if (r >= 0)
                        r = report_add_entry(ret, boot, t, &f);
                event_fields_done(&f);
                /* not ours (-EINVAL) or malformed (-EBADMSG, counted) */
                if (r < 0 && r != -EINVAL && r != -EBADMSG)
                        return r;
        }
        return 0;
}

int report_read_journal(const ReportFilter *filter, Report *ret) {
        sd_id128_t current;
        Report all = {};
        int r;

        *ret = (Report) {};
        if (!filter->boot)
                return read_entries(NULL, filter->since_usec, ret);
        if (filter->boot_is_id) {
                r = read_entries(&filter->boot_id, filter->since_usec, ret);
                if (r >= 0 && ret->n_boots == 0) {
                        report_done(ret);
                        return -ENXIO; /* an unknown boot, or one without events */
                }
                return r;
        }

        r = sd_id128_get_boot(&current);
        if (r < 0)
                return r;
        if (filter->boot_offset == 0)
                return read_entries(&current, filter->since_usec, ret);

        /* A negative offset counts back over the boots that have rng-health
         * events, from the current one (or the last one before it). */
        r = read_entries(NULL, filter->since_usec, &all);
        if (r >= 0) {
                size_t last = all.n_boots;

                if (last > 0 && sd_id128_equal(all.boots[last - 1].boot_id, current))
                        last--;
                /* boot_offset -1 is the last boot before the current; read
                 * again for that boot alone, so that what was ignored is
                 * that boot's too. */
                if ((size_t) -filter->boot_offset <= last)
                        r = read_entries(&all.boots[last + filter->boot_offset].boot_id, filter->since_usec, ret);
                else
                        r = -ENXIO;
        }
        report_done(&all);
        return r;
}

/* ---- output ---- */

static char *format_time(uint64_t usec, char *buf, size_t len) {
        time_t t = (time_t) (usec / 1000000);
        struct tm tm;

        if (usec == 0 || !localtime_r(&t, &tm) || strftime(buf, len, "%Y-%m-%d %H:%M:%S %Z", &tm) == 0)
                snprintf(buf, len, "n/a");
        return buf;
}

static void print_foreign(const Report *r, FILE *f) {
        if (r->foreign > 0)
                fprintf(f, "\n%u entr%s from other senders ignored (not from %s, see rng-health(8))\n", r->foreign,
                        r->foreign == 1 ? "y" : "ies", RNG_HEALTH_UNIT);
}

void report_print(const Report *r, sd_id128_t current_boot, FILE *f) {
        if (r->n_boots == 0) {
                fputs("No rng-health events in the journal.\n", f);
                print_foreign(r, f);
                return;
        }
        for (size_t i = 0; i < r->n_boots; i++) {
                const ReportBoot *b = &r->boots[i];
                char id[SD_ID128_STRING_MAX], t1[64], t2[64];

                fprintf(f, "%sBoot %s%s: %s .. %s\n", i ? "\n" : "", sd_id128_to_string(b->boot_id, id),
                        sd_id128_equal(b->boot_id, current_boot) ? " (current)" : "",
                        format_time(b->first_usec, t1, sizeof(t1)), format_time(b->last_usec, t2, sizeof(t2)));
                fprintf(f, "  Verdict at boot:       %s\n", b->boot_verdict[0] ? b->boot_verdict : "n/a");
                fprintf(f, "  Last verdict:          %s\n", b->verdict[0] ? b->verdict : "n/a");
                fprintf(f, "  Confidential VM:       %s\n", b->cvm[0] ? b->cvm : "n/a");
                fprintf(f, "  FailOn:                %s\n", b->fail_on[0] ? b->fail_on : "none");
                for (int k = 0; k < _RNG_INSTRUCTION_MAX; k++) {
                        const ReportInstruction *in = &b->instr[k];
                        char a[16], fl[16], x[16], pct[16];

                        if (!in->seen)
                                continue;
                        fprintf(f, "  %-22s ", rng_instruction_upper_to_string(k));
                        if (in->verdict[0])
                                fprintf(f, "%s (worst %s): %s of %s tries failed (%s), %s values needed >%" PRIu64 " tries, longest streak %" PRIu64,
                                        in->verdict, in->worst_verdict, format_si((double) in->failures, fl, sizeof(fl)),
                                        format_si((double) in->attempts, a, sizeof(a)),
                                        format_percent(in->failure_rate, pct, sizeof(pct)),
                                        format_si((double) in->retry_exhausted, x, sizeof(x)), in->kernel_retries,
                                        in->max_fail_streak);
                        else
                                fprintf(f, "not probed");
                        if (in->unavailable[0])
                                fprintf(f, "%s%s", in->verdict[0] ? "; " : ": ",
                                        strcmp(in->unavailable, "kernel") == 0   ? "disabled by the kernel"
                                        : strcmp(in->unavailable, "hidden") == 0 ? "hidden by the kernel"
                                                                                  : "not in CPUID");
                        fputc('\n', f);
                }
                fprintf(f, "  Probes:                %u\n", b->probes);
                fprintf(f, "  Verdict changes:       %u\n", b->verdict_changes);
                fprintf(f, "  Output-check failures: %u\n", b->output_check_failures);
                fprintf(f, "  Configuration errors:  %u\n", b->config_errors);
                if (b->policy_failures)
                        fprintf(f, "  FailOn= failures:      %u (exit status %d)\n", b->policy_failures, b->exit_status);
                else
                        fprintf(f, "  FailOn= failures:      0\n");
                fprintf(f, "  Kernel events:        ");
                for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++) {
                        fprintf(f, "%s %u %s", k ? "," : "", b->kernel_events[k], kernel_rng_msg_kind_to_string(k));
                        if (k == KERNEL_RNG_MSG_FAILED && b->kernel_own_failures)
                                fprintf(f, " (%" PRIu64 " failures counted, %" PRIu64 " of them during rng-health's own probe)",
                                        b->kernel_failures, b->kernel_own_failures);
                        else if (k == KERNEL_RNG_MSG_FAILED)
                                fprintf(f, " (%" PRIu64 " failures counted)", b->kernel_failures);
                }
                fputc('\n', f);
                if (b->routine_failures > 0) {
                        fprintf(f, "  Routine (RDSEED):      %" PRIu64 " exhaustions, the kernel seeded from RDRAND instead",
                                b->routine_failures);
                        if (b->routine_interval_usec > 0)
                                fprintf(f, "; %.3g per hour over %.1f h", b->routine_rated / (b->routine_interval_usec / 3.6e9),
                                        b->routine_interval_usec / 3.6e9);
                        fputc('\n', f);
                }
        }
        print_foreign(r, f);
}

/* v may be NULL: JSON null. */
#define JSON_ADD(o, k, v)                                               \
        do {                                                            \
                struct json_object *_v = (v);                           \
                if (json_object_object_add((o), (k), _v) < 0) {         \
                        json_object_put(_v);                            \
                        return -ENOMEM;                                 \
                }                                                       \
        } while (0)

static struct json_object *str_or_null(const char *s) {
        return s && s[0] ? json_object_new_string(s) : NULL;
}

static int boot_to_json(const ReportBoot *b, sd_id128_t current, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = json_object_new_object(), *instr = json_object_new_object();
        struct json_object *kernel;
        char id[SD_ID128_STRING_MAX];

        if (!o || !instr)
                return -ENOMEM;
        JSON_ADD(o, "boot_id", json_object_new_string(sd_id128_to_string(b->boot_id, id)));
        JSON_ADD(o, "current", json_object_new_boolean(sd_id128_equal(b->boot_id, current)));
        JSON_ADD(o, "first_usec", json_object_new_uint64(b->first_usec));
        JSON_ADD(o, "last_usec", json_object_new_uint64(b->last_usec));
        JSON_ADD(o, "boot_verdict", str_or_null(b->boot_verdict));
        JSON_ADD(o, "verdict", str_or_null(b->verdict));
        JSON_ADD(o, "confidential_vm", str_or_null(b->cvm));
        JSON_ADD(o, "fail_on", json_object_new_string(b->fail_on));
        JSON_ADD(o, "probes", json_object_new_uint64(b->probes));
        JSON_ADD(o, "verdict_changes", json_object_new_uint64(b->verdict_changes));
        JSON_ADD(o, "output_check_failures", json_object_new_uint64(b->output_check_failures));
        JSON_ADD(o, "config_errors", json_object_new_uint64(b->config_errors));
        JSON_ADD(o, "policy_failures", json_object_new_uint64(b->policy_failures));
        JSON_ADD(o, "exit_status", b->exit_status >= 0 ? json_object_new_int(b->exit_status) : NULL);
        kernel = json_object_new_object();
        if (!kernel)
                return -ENOMEM;
        JSON_ADD(o, "kernel", kernel);
        for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                JSON_ADD(kernel, kernel_rng_msg_kind_to_string(k), json_object_new_uint64(b->kernel_events[k]));
        JSON_ADD(kernel, "failures", json_object_new_uint64(b->kernel_failures));
        JSON_ADD(kernel, "own_probe_failures", json_object_new_uint64(b->kernel_own_failures));
        JSON_ADD(kernel, "routine_failures", json_object_new_uint64(b->routine_failures));
        JSON_ADD(kernel, "routine_rate_per_hour",
                 b->routine_interval_usec > 0 ? json_object_new_double(b->routine_rated / (b->routine_interval_usec / 3.6e9))
                                              : NULL);
        for (int k = 0; k < _RNG_INSTRUCTION_MAX; k++) {
                const ReportInstruction *in = &b->instr[k];
                struct json_object *i;

                if (!in->seen)
                        continue;
                i = json_object_new_object();
                if (!i)
                        return -ENOMEM;
                json_object_object_add(instr, rng_instruction_upper_to_string(k), i);
                JSON_ADD(i, "verdict", str_or_null(in->verdict));
                JSON_ADD(i, "worst_verdict", str_or_null(in->worst_verdict));
                JSON_ADD(i, "attempts", json_object_new_uint64(in->attempts));
                JSON_ADD(i, "failures", json_object_new_uint64(in->failures));
                JSON_ADD(i, "failure_rate", json_object_new_double(in->failure_rate));
                JSON_ADD(i, "retry_exhausted", json_object_new_uint64(in->retry_exhausted));
                JSON_ADD(i, "kernel_retries", json_object_new_uint64(in->kernel_retries));
                JSON_ADD(i, "max_fail_streak", json_object_new_uint64(in->max_fail_streak));
                JSON_ADD(i, "unavailable", str_or_null(in->unavailable));
        }
        json_object_object_add(o, "instructions", TAKE_PTR(instr));
        *ret = TAKE_PTR(o);
        return 0;
}

int report_to_json(const Report *r, sd_id128_t current_boot, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = json_object_new_object(), *boots = json_object_new_array();
        int k;

        if (!o || !boots)
                return -ENOMEM;
        JSON_ADD(o, "schema", json_object_new_string("rng-health.report/1"));
        for (size_t i = 0; i < r->n_boots; i++) {
                struct json_object *b;

                k = boot_to_json(&r->boots[i], current_boot, &b);
                if (k < 0)
                        return k;
                json_object_array_add(boots, b);
        }
        json_object_object_add(o, "boots", TAKE_PTR(boots));
        JSON_ADD(o, "malformed_entries", json_object_new_int64(r->malformed));
        JSON_ADD(o, "foreign_entries", json_object_new_int64(r->foreign));
        *ret = TAKE_PTR(o);

        return 0;
}
