/* SPDX-License-Identifier: GPL-2.0-or-later */

/* report's output: a block per boot, or JSON (schema rng-health.report/1). */

#include <errno.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "format-util.h"
#include "journal-sender.h"
#include "json-util.h"
#include "macro.h"
#include "probe-summary.h"
#include "report.h"

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

/* An RNG_REASON (report.c accepts only probe-summary.h's) in words. */
static const char *unavailable_words(const char *reason, RngSourceId k) {
        switch (probe_unavailable_from_string(reason)) {
        case PROBE_UNAVAILABLE_KERNEL:
                return "disabled by the kernel";
        case PROBE_UNAVAILABLE_HIDDEN:
                return "hidden by the kernel";
        case PROBE_UNAVAILABLE_ABSENT:
                return rng_source_desc(k)->absent;
        case PROBE_UNAVAILABLE_UNREADABLE:
                return "not readable";
        case PROBE_UNAVAILABLE_UNKNOWN:
                return "unknown (what would show it was not read)";
        default:
                return rng_source_desc(k)->detect.not_advertised.absent ?: "not advertised";
        }
}

static void print_instruction(const ReportInstruction *in, RngSourceId k, FILE *f) {
        char a[16], fl[16], x[16], pct[16];

        fprintf(f, "  %-22s ", rng_source_display_name(k));
        if (in->verdict[0] && in->other) {
                fprintf(f, "%s (worst %s): %s%s%s%s", in->verdict, in->worst_verdict, in->device[0] ? in->device : "",
                        in->device[0] ? ", " : "", strcmp(in->host_fed, "yes") == 0 ? "host-fed, " : "",
                        strcmp(in->credited, "yes") == 0 ? "credited" : "not credited");
                if (strcmp(in->credited, "yes") == 0)
                        fprintf(f, " %" PRIu64 "/1024", in->credit_quality);
                if (in->bytes_per_sec)
                        fprintf(f, ", %sB/s", format_si((double) in->bytes_per_sec, a, sizeof(a)));
        } else if (in->verdict[0])
                fprintf(f, "%s (worst %s): %s of %s %s failed (%s), %s %s needed >%" PRIu64 " %s, longest streak %" PRIu64,
                        in->verdict, in->worst_verdict, format_si((double) in->failures, fl, sizeof(fl)),
                        format_si((double) in->attempts, a, sizeof(a)), plural(in->attempts, "try", "tries"),
                        format_percent(in->failure_rate, pct, sizeof(pct)),
                        format_si((double) in->retry_exhausted, x, sizeof(x)),
                        plural(in->retry_exhausted, "value", "values"), in->kernel_retries,
                        plural(in->kernel_retries, "try", "tries"), in->max_fail_streak);
        else
                fprintf(f, "not probed");
        if (in->erratum_status[0] && strcmp(in->erratum_status, "none") != 0 && strcmp(in->erratum_status, "unknown") != 0)
                fprintf(f, "; erratum %s", in->erratum_status);
        if (in->unavailable[0])
                fprintf(f, "%s%s", in->verdict[0] ? "; " : ": ", unavailable_words(in->unavailable, k));
        fputc('\n', f);
}

/* The kernel watch's events and counts of a boot. */
static void print_kernel(const ReportBoot *b, FILE *f) {
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
                char label[128], sources[96], fallbacks[96];
                unsigned routine = 0, fallback = 0;

                /* The sources whose failures are routine, and what the
                 * kernel uses instead (the source table's). */
                FOREACH_RNG_SOURCE(i)
                        if (rng_source_desc(i)->kernel.has_fallback) {
                                routine |= 1u << i;
                                fallback |= 1u << rng_source_desc(i)->kernel.fallback;
                        }
                snprintf(label, sizeof(label), "Routine (%s):",
                         rng_source_names_join(routine, true, "", "/", "/", sources, sizeof(sources)));
                fprintf(f, "  %-22s %" PRIu64 " exhaustions, the kernel seeded from %s instead", label,
                        b->routine_failures, rng_source_names_join(fallback, true, "", "/", "/", fallbacks, sizeof(fallbacks)));
                if (b->routine_interval_usec > 0)
                        fprintf(f, "; %.3g per hour over %.1f h", b->routine_rated / (b->routine_interval_usec / 3.6e9),
                                b->routine_interval_usec / 3.6e9);
                fputc('\n', f);
        }
}

/* "CPU: AuthenticAMD 0x19/0x11/0x1 (AMD EPYC), microcode 0x1000065; kernel 6.12.57" */
static void print_cpu(const ReportBoot *b, FILE *f) {
        const ReportCpu *c = &b->cpu;

        if (!c->vendor[0] && !c->kernel_release[0])
                return;
        fprintf(f, "  CPU:                   %s %s/%s/%s%s%s%s, microcode %s; kernel %s\n", c->vendor[0] ? c->vendor : "unknown",
                c->family[0] ? c->family : "?", c->model[0] ? c->model : "?", c->stepping[0] ? c->stepping : "?",
                c->model_name[0] ? " (" : "", c->model_name, c->model_name[0] ? ")" : "",
                c->microcode[0] ? c->microcode : "unknown", c->kernel_release[0] ? c->kernel_release : "unknown");
}

static void print_boot(const ReportBoot *b, bool first, sd_id128_t current_boot, FILE *f) {
        char id[SD_ID128_STRING_MAX], t1[64], t2[64];

        fprintf(f, "%sBoot %s%s: %s .. %s\n", first ? "" : "\n", sd_id128_to_string(b->boot_id, id),
                sd_id128_equal(b->boot_id, current_boot) ? " (current)" : "",
                format_time(b->first_usec, t1, sizeof(t1)), format_time(b->last_usec, t2, sizeof(t2)));
        fprintf(f, "  Verdict at boot:       %s\n", b->boot_verdict[0] ? b->boot_verdict : "n/a");
        fprintf(f, "  Last verdict:          %s\n", b->verdict[0] ? b->verdict : "n/a");
        fprintf(f, "  Confidential VM:       %s\n", b->cvm[0] ? b->cvm : "n/a");
        fprintf(f, "  FailOn:                %s\n", b->fail_on[0] ? b->fail_on : "none");
        print_cpu(b, f);
        FOREACH_RNG_SOURCE(k)
                if (b->instr[k].seen)
                        print_instruction(&b->instr[k], k, f);
        if (strcmp(b->crng_ready, "yes") == 0)
                fprintf(f, "  CRNG ready:            %" PRIu64 ".%03" PRIu64 " s after the kernel started (%s)\n",
                        b->crng_init_usec / 1000000u, b->crng_init_usec / 1000u % 1000u,
                        b->crng_stage[0] ? b->crng_stage : "unknown");
        else
                fprintf(f, "  CRNG ready:            %s\n", b->crng_ready[0] ? "not when said" : "n/a");
        fprintf(f, "  VM forks:              %" PRIu64 "\n", b->vm_forks);
        fprintf(f, "  Probes:                %u\n", b->probes);
        fprintf(f, "  Verdict changes:       %u\n", b->verdict_changes);
        fprintf(f, "  Output-check failures: %u\n", b->output_check_failures);
        fprintf(f, "  Configuration errors:  %u\n", b->config_errors);
        if (b->policy_failures)
                fprintf(f, "  FailOn= failures:      %u (exit status %d)\n", b->policy_failures, b->exit_status);
        else
                fprintf(f, "  FailOn= failures:      0\n");
        print_kernel(b, f);
}

/* Every boot of the machine of boots[first] (the same machine ID), from
 * first on, in the order first seen; done[] marks them. */
static void print_machine(const Report *r, size_t first, bool *done, sd_id128_t current_boot, FILE *f) {
        const ReportBoot *m = &r->boots[first];
        char id[SD_ID128_STRING_MAX];
        const char *host = m->hostname;
        unsigned n = 0;

        /* the hostname of its latest boot */
        for (size_t i = first; i < r->n_boots; i++)
                if (sd_id128_equal(r->boots[i].machine_id, m->machine_id) && r->boots[i].last_usec >= m->last_usec &&
                    r->boots[i].hostname[0])
                        host = r->boots[i].hostname;
        for (size_t i = first; i < r->n_boots; i++)
                n += sd_id128_equal(r->boots[i].machine_id, m->machine_id);
        fprintf(f, "%sMachine %s (%s): %u boot%s\n", first == 0 ? "" : "\n",
                sd_id128_is_null(m->machine_id) ? "unknown" : sd_id128_to_string(m->machine_id, id),
                host[0] ? host : "no hostname", n, n == 1 ? "" : "s");
        for (size_t i = first; i < r->n_boots; i++)
                if (!done[i] && sd_id128_equal(r->boots[i].machine_id, m->machine_id)) {
                        done[i] = true;
                        fputc('\n', f);
                        print_boot(&r->boots[i], true, current_boot, f);
                }
}

void report_print(const Report *r, sd_id128_t current_boot, FILE *f) {
        if (r->n_boots == 0)
                fputs("No rng-health events in the journal.\n", f);
        if (r->by_machine) {
                _cleanup_free_ bool *done = calloc(MAX(r->n_boots, 1u), sizeof(bool));

                for (size_t i = 0; i < r->n_boots; i++)
                        if (!done || !done[i]) {
                                if (!done) { /* out of memory: ungrouped */
                                        print_boot(&r->boots[i], i == 0, current_boot, f);
                                        continue;
                                }
                                print_machine(r, i, done, current_boot, f);
                        }
        } else
                for (size_t i = 0; i < r->n_boots; i++)
                        print_boot(&r->boots[i], i == 0, current_boot, f);
        print_foreign(r, f);
}

/* A string field of report: "" (not in the journal) is JSON null. */
static struct json_object *str_or_null(const char *s) {
        return s && s[0] ? json_object_new_string(s) : NULL;
}

static int kernel_to_json(const ReportBoot *b, struct json_object **ret) {
        _cleanup_json_ struct json_object *kernel = NULL;
        int r;

        r = json_new_object(&kernel);
        if (r < 0)
                return r;
        for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                JSON_ADD(kernel, kernel_rng_msg_kind_to_string(k), JSON_U64(b->kernel_events[k]));
        JSON_ADD(kernel, "failures", JSON_U64(b->kernel_failures));
        JSON_ADD(kernel, "own_probe_failures", JSON_U64(b->kernel_own_failures));
        JSON_ADD(kernel, "routine_failures", JSON_U64(b->routine_failures));
        JSON_ADD(kernel, "routine_rate_per_hour",
                 b->routine_interval_usec > 0 ? JSON_DBL(b->routine_rated / (b->routine_interval_usec / 3.6e9)) : NULL);
        *ret = TAKE_PTR(kernel);
        return 0;
}

/* The CPU of a boot's probe results; *ret NULL (JSON null) where none named it. */
static int cpu_to_json(const ReportCpu *c, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL;
        int r;

        *ret = NULL;
        if (!c->vendor[0] && !c->family[0])
                return 0;
        r = json_new_object(&o);
        if (r < 0)
                return r;
        JSON_ADD(o, "vendor", str_or_null(c->vendor));
        JSON_ADD(o, "family", str_or_null(c->family));
        JSON_ADD(o, "model", str_or_null(c->model));
        JSON_ADD(o, "stepping", str_or_null(c->stepping));
        JSON_ADD(o, "microcode", str_or_null(c->microcode));
        JSON_ADD(o, "model_name", str_or_null(c->model_name));
        *ret = TAKE_PTR(o);
        return 0;
}

static int instruction_to_json(const ReportInstruction *in, struct json_object **ret) {
        _cleanup_json_ struct json_object *i = NULL;
        int r;

        r = json_new_object(&i);
        if (r < 0)
                return r;
        JSON_ADD(i, "verdict", str_or_null(in->verdict));
        JSON_ADD(i, "worst_verdict", str_or_null(in->worst_verdict));
        JSON_ADD(i, "attempts", JSON_U64(in->attempts));
        JSON_ADD(i, "failures", JSON_U64(in->failures));
        JSON_ADD(i, "failure_rate", JSON_DBL(in->failure_rate));
        JSON_ADD(i, "retry_exhausted", JSON_U64(in->retry_exhausted));
        JSON_ADD(i, "kernel_retries", JSON_U64(in->kernel_retries));
        JSON_ADD(i, "max_fail_streak", JSON_U64(in->max_fail_streak));
        JSON_ADD(i, "unavailable", str_or_null(in->unavailable));
        JSON_ADD(i, "erratum_status", str_or_null(in->erratum_status));
        JSON_ADD(i, "device", str_or_null(in->device));
        JSON_ADD(i, "credited", in->credited[0] ? json_object_new_boolean(strcmp(in->credited, "yes") == 0) : NULL);
        JSON_ADD(i, "credit_quality", in->credited[0] ? JSON_U64(in->credit_quality) : NULL);
        JSON_ADD(i, "host_fed", in->host_fed[0] ? json_object_new_boolean(strcmp(in->host_fed, "yes") == 0) : NULL);
        JSON_ADD(i, "bytes_per_sec", in->other ? JSON_U64(in->bytes_per_sec) : NULL);
        *ret = TAKE_PTR(i);
        return 0;
}

static int boot_to_json(const ReportBoot *b, sd_id128_t current, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL, *instr = NULL, *kernel = NULL, *cpu = NULL;
        char id[SD_ID128_STRING_MAX];
        int r;

        if ((r = json_new_object(&o)) < 0 || (r = json_new_object(&instr)) < 0 || (r = kernel_to_json(b, &kernel)) < 0 ||
            (r = cpu_to_json(&b->cpu, &cpu)) < 0)
                return r;
        JSON_ADD(o, "machine_id", sd_id128_is_null(b->machine_id) ? NULL : json_object_new_string(sd_id128_to_string(b->machine_id, id)));
        JSON_ADD(o, "hostname", str_or_null(b->hostname));
        JSON_ADD(o, "boot_id", json_object_new_string(sd_id128_to_string(b->boot_id, id)));
        JSON_ADD(o, "current", json_object_new_boolean(sd_id128_equal(b->boot_id, current)));
        JSON_ADD(o, "first_usec", JSON_U64(b->first_usec));
        JSON_ADD(o, "last_usec", JSON_U64(b->last_usec));
        JSON_ADD(o, "boot_verdict", str_or_null(b->boot_verdict));
        JSON_ADD(o, "verdict", str_or_null(b->verdict));
        JSON_ADD(o, "confidential_vm", str_or_null(b->cvm));
        JSON_ADD(o, "fail_on", json_object_new_string(b->fail_on));
        JSON_ADD(o, "probes", JSON_U64(b->probes));
        JSON_ADD(o, "verdict_changes", JSON_U64(b->verdict_changes));
        JSON_ADD(o, "output_check_failures", JSON_U64(b->output_check_failures));
        JSON_ADD(o, "config_errors", JSON_U64(b->config_errors));
        JSON_ADD(o, "policy_failures", JSON_U64(b->policy_failures));
        JSON_ADD(o, "exit_status", b->exit_status >= 0 ? json_object_new_int(b->exit_status) : NULL);
        JSON_ADD(o, "kernel", TAKE_PTR(kernel));
        JSON_ADD(o, "cpu", TAKE_PTR(cpu));
        JSON_ADD(o, "kernel_release", str_or_null(b->cpu.kernel_release));
        JSON_ADD(o, "crng_ready", b->crng_ready[0] ? json_object_new_boolean(strcmp(b->crng_ready, "yes") == 0) : NULL);
        JSON_ADD(o, "crng_init_usec", strcmp(b->crng_ready, "yes") == 0 ? JSON_U64(b->crng_init_usec) : NULL);
        JSON_ADD(o, "crng_stage", str_or_null(b->crng_stage));
        JSON_ADD(o, "vm_forks", JSON_U64(b->vm_forks));
        FOREACH_RNG_SOURCE(k) {
                struct json_object *i = NULL;

                if (!b->instr[k].seen)
                        continue;
                r = instruction_to_json(&b->instr[k], &i);
                if (r < 0)
                        return r;
                JSON_ADD(instr, rng_source_display_name(k), i);
        }
        JSON_ADD(o, "instructions", TAKE_PTR(instr));
        *ret = TAKE_PTR(o);
        return 0;
}

int report_to_json(const Report *r, sd_id128_t current_boot, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL, *boots = NULL;
        int k;

        if ((k = json_new_object(&o)) < 0 || (k = json_new_array(&boots)) < 0)
                return k;
        JSON_ADD(o, "schema", json_object_new_string("rng-health.report/1"));
        for (size_t i = 0; i < r->n_boots; i++) {
                struct json_object *b = NULL;

                k = boot_to_json(&r->boots[i], current_boot, &b);
                if (k < 0)
                        return k;
                JSON_ADD(boots, NULL, b);
        }
        JSON_ADD(o, "boots", TAKE_PTR(boots));
        JSON_ADD(o, "malformed_entries", JSON_U64(r->malformed));
        JSON_ADD(o, "foreign_entries", JSON_U64(r->foreign));
        *ret = TAKE_PTR(o);
        return 0;
}
