/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "journal-ids.h"
#include "macro.h"
#include "parse-util.h"
#include "report-fields.h"
#include "report.h"

/* Every string report shows comes from the journal: kept escaped
 * (escape.h), so that text and JSON (valid UTF-8) show it safely. */
static void copy(char *dst, size_t len, const char *src) {
        escape_to(dst, len, src ?: "", src ? strlen(src) : 0);
}

static uint64_t sat_add(uint64_t a, uint64_t b) {
        return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

static size_t boot_hash(sd_id128_t id, size_t size) {
        uint64_t h;

        memcpy(&h, id.bytes, sizeof(h)); /* boot IDs are random */
        return (size_t) (h ^ (h >> 29)) & (size - 1);
}

/* The index of boots by ID, rebuilt at twice the size when half full. */
static int index_grow(Report *r) {
        size_t size = r->index_size ? r->index_size * 2 : 64, *index;

        index = malloc(size * sizeof(size_t));
        if (!index)
                return -ENOMEM;
        for (size_t k = 0; k < size; k++)
                index[k] = SIZE_MAX;
        for (size_t i = 0; i < r->n_boots; i++) {
                size_t k = boot_hash(r->boots[i].boot_id, size);

                while (index[k] != SIZE_MAX)
                        k = (k + 1) & (size - 1);
                index[k] = i;
        }
        free(r->index);
        r->index = index;
        r->index_size = size;
        return 0;
}

static ReportBoot *find_boot(Report *r, sd_id128_t machine_id, sd_id128_t boot_id) {
        ReportBoot *b;
        size_t k;

        if ((r->n_boots + 1) * 2 > r->index_size && index_grow(r) < 0)
                return NULL;
        for (k = boot_hash(boot_id, r->index_size); r->index[k] != SIZE_MAX; k = (k + 1) & (r->index_size - 1))
                if (sd_id128_equal(r->boots[r->index[k]].boot_id, boot_id))
                        return &r->boots[r->index[k]];
        if (r->n_boots == r->boots_allocated) {
                /* Doubling: adding n boots copies O(n) entries, not O(n^2). */
                size_t n = MAX(r->boots_allocated * 2, (size_t) 16);

                if (n > SIZE_MAX / sizeof(ReportBoot))
                        return NULL;
                b = realloc(r->boots, n * sizeof(ReportBoot));
                if (!b)
                        return NULL;
                r->boots = b;
                r->boots_allocated = n;
        }
        r->index[k] = r->n_boots;
        b = &r->boots[r->n_boots++];
        *b = (ReportBoot) { .machine_id = machine_id, .boot_id = boot_id, .exit_status = -1 };
        return b;
}

static ReportInstruction *find_instruction(ReportBoot *b, const EventFields *f) {
        const char *name = event_fields_get(f, "RNG_INSTRUCTION");

        if (!name)
                return NULL;
        FOREACH_RNG_SOURCE(i)
                if (strcmp(name, rng_source_display_name(i)) == 0)
                        return &b->instr[i];
        return NULL;
}

/* One of the kernel watch's events: counted per kind; the kinds that mean
 * failed calls carry their count (sums saturate). */
static void add_kernel_event(ReportBoot *b, KernelRngMsgKind k, const EventFields *f) {
        uint64_t n;

        b->kernel_events[k]++;
        if (kernel_rng_msg_kind_verdict(k) != VERDICT_EXHAUSTED)
                return;
        n = field_u64(f, "RNG_COUNT");
        b->kernel_failures = sat_add(b->kernel_failures, n);
        if (field_u64(f, "RNG_OWN_PROBE") == 1)
                b->kernel_own_failures = sat_add(b->kernel_own_failures, n);
        if (field_u64(f, "RNG_ROUTINE") == 1) {
                uint64_t iv = field_u64(f, "RNG_INTERVAL_USEC");

                b->routine_failures = sat_add(b->routine_failures, n);
                if (iv > 0) {
                        b->routine_rated = sat_add(b->routine_rated, n);
                        b->routine_interval_usec = sat_add(b->routine_interval_usec, iv);
                }
        }
}

/* This boot's CRNG, where an event says it (the latest says most). */
static void add_crng(ReportBoot *b, const EventFields *f) {
        const char *ready = event_fields_get(f, "RNG_CRNG_READY");

        if (!ready || (strcmp(b->crng_ready, "yes") == 0 && strcmp(ready, "yes") != 0))
                return;
        copy(b->crng_ready, sizeof(b->crng_ready), ready);
        copy(b->crng_stage, sizeof(b->crng_stage), event_fields_get(f, "RNG_CRNG_STAGE"));
        b->crng_init_usec = field_u64(f, "RNG_CRNG_INIT_USEC");
}

static void add_verdict(ReportBoot *b, const EventFields *f) {
        copy(b->verdict, sizeof(b->verdict), event_fields_get(f, "RNG_VERDICT"));
        copy(b->cvm, sizeof(b->cvm), event_fields_get(f, "RNG_CONFIDENTIAL_VM"));
        copy(b->fail_on, sizeof(b->fail_on), event_fields_get(f, "RNG_FAIL_ON"));
        add_crng(b, f);
}

/* The CPU and kernel of a probe result, where it names them. */
static void add_cpu(ReportBoot *b, const EventFields *f) {
        static const struct {
                const char *field;
                size_t offset, size;
        } fields[] = {
#define CPU_FIELD(name, member) { name, offsetof(ReportCpu, member), sizeof(((ReportCpu *) NULL)->member) }
                CPU_FIELD("RNG_CPU_VENDOR", vendor),
                CPU_FIELD("RNG_CPU_FAMILY", family),
                CPU_FIELD("RNG_CPU_MODEL", model),
                CPU_FIELD("RNG_CPU_STEPPING", stepping),
                CPU_FIELD("RNG_CPU_MICROCODE", microcode),
                CPU_FIELD("RNG_CPU_MODEL_NAME", model_name),
                CPU_FIELD("RNG_KERNEL_RELEASE", kernel_release),
#undef CPU_FIELD
        };
        bool any = false;

        for (size_t k = 0; k < ELEMENTSOF(fields); k++)
                any = any || event_fields_get(f, fields[k].field);
        if (!any)
                return;
        /* all of them from the same entry: an absent one is unknown */
        for (size_t k = 0; k < ELEMENTSOF(fields); k++)
                copy((char *) &b->cpu + fields[k].offset, fields[k].size, event_fields_get(f, fields[k].field));
}

int report_add_entry(Report *r, sd_id128_t boot_id, uint64_t realtime_usec, const EventFields *f) {
        return report_add_machine_entry(r, SD_ID128_NULL, NULL, boot_id, realtime_usec, f);
}

int report_add_machine_entry(Report *r, sd_id128_t machine_id, const char *hostname, sd_id128_t boot_id,
                             uint64_t realtime_usec, const EventFields *f) {
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
        b = find_boot(r, machine_id, boot_id);
        if (!b)
                return -ENOMEM;
        if (hostname && realtime_usec >= b->last_usec)
                copy(b->hostname, sizeof(b->hostname), hostname);
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
                copy(in->erratum_status, sizeof(in->erratum_status), event_fields_get(f, "RNG_ERRATUM_STATUS"));
                in->last_usec = realtime_usec;
                in->n_rates = 0;
                if (event_fields_get(f, "RNG_RUN_FAILURE_RATES"))
                        (void) report_parse_rates(event_fields_get(f, "RNG_RUN_FAILURE_RATES"), in->rates, &in->n_rates);
                add_cpu(b, f);
                /* A device or a seed: what it is and what the kernel credits. */
                in->other = event_fields_get(f, "RNG_KIND") != NULL;
                copy(in->device, sizeof(in->device), event_fields_get(f, "RNG_DEVICE"));
                copy(in->credited, sizeof(in->credited), event_fields_get(f, "RNG_CREDITED"));
                copy(in->host_fed, sizeof(in->host_fed), event_fields_get(f, "RNG_HOST_FED"));
                in->credit_quality = field_u64(f, "RNG_CREDIT_QUALITY");
                in->bytes_per_sec = field_u64(f, "RNG_BYTES_PER_SEC");
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
        else if (strcmp(mid, RNG_MID_CRNG_READY_STR) == 0)
                add_crng(b, f);
        else if (strcmp(mid, RNG_MID_VM_FORK_STR) == 0)
                b->vm_forks = MAX(b->vm_forks, field_u64(f, "RNG_COUNT"));
        else if (strcmp(mid, RNG_MID_POLICY_FAILURE_STR) == 0) {
                b->policy_failures++;
                b->exit_status = (int) field_u64(f, "RNG_EXIT_STATUS");
        } else
                for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                        if (strcmp(mid, rng_kernel_message_id(k)) == 0)
                                add_kernel_event(b, k, f);
        return 0;
}

/* A decimal in [0, 1] spanning [p, end): "0.9840", "1", "0". */
static int parse_ratio(const char *p, const char *end, double *ret) {
        const char *dot = memchr(p, '.', end - p);
        double v = 0, scale = 1;

        if (p == end || (dot && (dot == p || dot + 1 == end)) || end - p > 12)
                return -EBADMSG;
        for (const char *c = p; c < end; c++) {
                if (c == dot)
                        continue;
                if (*c < '0' || *c > '9')
                        return -EBADMSG;
                if (dot && c > dot)
                        v += (*c - '0') * (scale /= 10);
                else
                        v = v * 10 + (*c - '0');
        }
        if (v > 1)
                return -EBADMSG;
        *ret = v;
        return 0;
}

/* An unsigned decimal spanning [p, end), at most max. */
static int parse_uint(const char *p, const char *end, uint64_t max, uint64_t *ret) {
        char buf[16];

        if (end - p < 1 || (size_t) (end - p) >= sizeof(buf) || (p[0] == '0' && end - p > 1))
                return -EBADMSG; /* as the daemon writes it: no leading zero */
        memcpy(buf, p, end - p);
        buf[end - p] = '\0';
        if (parse_u64(buf, ret) < 0 || *ret > max)
                return -EBADMSG;
        return 0;
}

int report_parse_rates(const char *s, ReportRate *ret, unsigned *ret_n) {
        unsigned n = 0;

        if (!s || !*s)
                return -EBADMSG;
        for (const char *p = s;;) {
                const char *end = p + strcspn(p, " "), *s1, *s2, *at, *eq;
                ReportRate rate = { .package = -1 };
                char word[16];
                uint64_t u;
                int w;

                if (n >= REPORT_RATES_MAX)
                        return -EBADMSG;
                s1 = memchr(p, '/', end - p);
                s2 = s1 ? memchr(s1 + 1, '/', end - s1 - 1) : NULL;
                eq = s2 ? memchr(s2 + 1, '=', end - s2 - 1) : NULL;
                if (!eq)
                        return -EBADMSG;
                at = memchr(s2 + 1, '@', eq - s2 - 1);
                /* WIDTH */
                if (s1 - p < 1 || (size_t) (s1 - p) >= sizeof(word))
                        return -EBADMSG;
                memcpy(word, p, s1 - p);
                word[s1 - p] = '\0';
                w = word[0] == '0' ? -EINVAL : rng_width_from_string(word);
                if (w < 0)
                        return -EBADMSG;
                rate.width = rng_widths[w];
                /* MODE */
                if (s2 - s1 - 1 == 6 && memcmp(s1 + 1, "single", 6) == 0)
                        rate.contention = false;
                else if (s2 - s1 - 1 == 10 && memcmp(s1 + 1, "contention", 10) == 0)
                        rate.contention = true;
                else
                        return -EBADMSG;
                /* THREADS[@PACKAGE] */
                if (parse_uint(s2 + 1, at ?: eq, 1024, &u) < 0 || u == 0)
                        return -EBADMSG;
                rate.threads = (unsigned) u;
                if (at) {
                        if (parse_uint(at + 1, eq, INT32_MAX, &u) < 0)
                                return -EBADMSG;
                        rate.package = (int) u;
                }
                if (!rate.contention && (rate.threads != 1 || at))
                        return -EBADMSG;
                if (parse_ratio(eq + 1, end, &rate.ratio) < 0)
                        return -EBADMSG;
                if (ret)
                        ret[n] = rate;
                n++;
                if (!*end)
                        break;
                p = end + 1; /* one space, then the next entry */
                if (!*p)
                        return -EBADMSG;
        }
        if (ret_n)
                *ret_n = n;
        return 0;
}

void report_done(Report *r) {
        free(r->index);
        free(r->boots);
        *r = (Report) {};
}
