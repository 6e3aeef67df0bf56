/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "probe-summary.h"
#include "format-util.h"
#include "status.h"

/* Appends to buf. */
static void append(char *buf, size_t len, const char *fmt, ...) _printf_(3, 4);
static void append(char *buf, size_t len, const char *fmt, ...) {
        size_t k = strlen(buf);
        va_list ap;

        if (k >= len)
                return;
        va_start(ap, fmt);
        (void) vsnprintf(buf + k, len - k, fmt, ap);
        va_end(ap);
}

/* What the kernel credits of a source that is no CPU instruction, as a
 * clause: "virtio_rng.0, host-fed, credited 1024/1024" (per 1024 bits). */
static void format_credit(const KernelCredit *c, char *buf, size_t len) {
        snprintf(buf, len, "%s%s%s", c->device[0] ? c->device : "", c->device[0] ? ", " : "",
                 c->host_fed ? "host-fed, " : "");
        if (!c->known)
                append(buf, len, "credit unknown");
        else if (c->credited)
                append(buf, len, "credited %u/1024", c->quality);
        else
                append(buf, len, "not credited");
}

/* A device or a seed: "D ok (virtio_rng.0, host-fed, credited 1024/1024:
 * 4.10 kB at 1.20 MB/s)", "S ABSENT", "D host-fed (...) (CONSEQUENCE;
 * remedy: ...)" (status.h). */
static void format_other(const ProbeReport *r, RngSourceId i, char *buf, size_t len) {
        const RngSourceDesc *d = rng_source_desc(i);
        const ProbeSourceResult *in = &r->instr[i];
        const ProbeRun *run = probe_source_worst_run(in);
        const char *consequence = verdict_consequence(i, in->verdict);
        char credit[256], checks[128], a[16], b[16];

        if (!in->cpuid) {
                if (probe_source_unknown(in))
                        snprintf(buf, len, "%s %s", d->display_name, in->kernel.reason ?: "unknown");
                else
                        snprintf(buf, len, "%s %s", d->display_name, d->absent);
                return;
        }
        format_credit(&in->kernel.credit, credit, sizeof(credit));
        snprintf(buf, len, "%s %s (%s", d->display_name, verdict_to_string(in->verdict), credit);
        if (in->read_error < 0)
                append(buf, len, "; not read: %s: %s", d->detect.device, strerror(-in->read_error));
        else if (run && run->delivered == 0)
                append(buf, len, "; nothing within %" PRIu64 " ms", probe_limits_device_usec(&r->limits) / 1000);
        else if (run) {
                append(buf, len, ": %sB at %sB/s", format_si((double) run->bytes, a, sizeof(a)),
                       format_si(run->bytes_per_sec, b, sizeof(b)));
                if (run->health.failed) {
                        health_result_format(&run->health, checks, sizeof(checks));
                        append(buf, len, ", output check failed (%s)", checks);
                }
        }
        append(buf, len, ")");
        if (consequence)
                append(buf, len, " (%s%s%s)", consequence, in->verdict == VERDICT_HOST_FED && d->kernel.remedy ?
                       "; remedy: " : "", in->verdict == VERDICT_HOST_FED && d->kernel.remedy ? d->kernel.remedy : "");
}

void status_format_source(const ProbeReport *r, RngSourceId i, char *buf, size_t len) {
        /* "NAME exhausted: 72 % of tries failed, 3.31k values needed >1 try (CONSEQUENCE)": the
         * verdict, its figures, and what the kernel does about it. */
        const ProbeSourceResult *in = &r->instr[i];
        char a[16], b[16], c[16], checks[128];
        const char *name = rng_source_display_name(i);
        const char *kernel = in->kernel.state == KERNEL_STATE_DISABLED ? " (disabled by the kernel)" : "";
        const ProbeSummary *s = &in->summary; /* summed once by probe_run_all() */
        const ProbeRun *worst = probe_source_worst_run(in);
        const char *consequence = probe_source_consequence(in);

        if (rng_source_desc(i)->kind != RNG_KIND_CPU_INSTRUCTION) {
                format_other(r, i, buf, len);
                return;
        }
        if (!in->executes) {
                snprintf(buf, len, "%s %s", name, rng_source_desc(i)->absent);
                return;
        }
        if (s->probed && in->verdict == VERDICT_HIDDEN) {
                /* What it does when run anyway, under its own name: nothing
                 * relies on it. */
                health_result_format(&worst->health, checks, sizeof(checks));
                snprintf(buf, len, "%s hidden by the kernel%s%s%s: run anyway, %s of tries failed%s%s%s", name,
                         in->erratum ? " (known erratum " : "", in->erratum ? in->erratum->id : "",
                         in->erratum ? ")" : "", format_percent(s->failure_rate, a, sizeof(a)),
                         checks[0] ? ", output check failed (" : "", checks, checks[0] ? ")" : "");
                return;
        }
        if (!s->probed) {
                snprintf(buf, len, "%s not probed%s", name, kernel);
                return;
        }
        switch (in->verdict) {
        case VERDICT_OK:
                snprintf(buf, len, "%s ok%s (0 of %s %s failed)", name, kernel,
                         format_si((double) s->attempts, a, sizeof(a)), plural(s->attempts, "try", "tries"));
                break;
        case VERDICT_DEGRADED:
                snprintf(buf, len, "%s degraded%s: %s of tries failed, every value within %" PRIu64 " %s",
                         name, kernel, format_percent(s->failure_rate, a, sizeof(a)),
                         in->kernel_retries, plural(in->kernel_retries, "try", "tries"));
                break;
        case VERDICT_EXHAUSTED:
                if (worst->delivered == 0) {
                        snprintf(buf, len, "%s exhausted%s: no value delivered in %s %s", name, kernel,
                                 format_si((double) worst->attempts, c, sizeof(c)),
                                 plural(worst->attempts, "try", "tries"));
                        break;
                }
                snprintf(buf, len, "%s exhausted%s: %s of tries failed, %s %s needed >%" PRIu64 " %s",
                         name, kernel, format_percent(s->failure_rate, a, sizeof(a)),
                         format_si((double) s->retry_exhausted, b, sizeof(b)),
                         plural(s->retry_exhausted, "value", "values"), in->kernel_retries,
                         plural(in->kernel_retries, "try", "tries"));
                break;
        case VERDICT_BROKEN:
                health_result_format(&worst->health, checks, sizeof(checks));
                snprintf(buf, len, "%s broken%s: output check failed (%s), %s of tries failed", name, kernel,
                         checks, format_percent(s->failure_rate, a, sizeof(a)));
                break;
        default:
                snprintf(buf, len, "%s %s%s", name, verdict_to_string(in->verdict), kernel);
                break;
        }
        /* What the running kernel does about it. */
        if (consequence) {
                size_t k = strlen(buf);

                if (k < len)
                        snprintf(buf + k, len - k, " (%s)", consequence);
        }
        if (in->erratum) {
                size_t k = strlen(buf);

                if (k < len)
                        snprintf(buf + k, len - k, " [known erratum %s]", in->erratum->id);
        }
}

void status_format_crng(const KernelBootLog *b, char *buf, size_t len) {
        if (len == 0)
                return;
        buf[0] = '\0';
        if (!b->read && !b->crng_ready)
                snprintf(buf, len, "CRNG readiness unknown (kernel log not read)");
        else if (!b->crng_ready)
                snprintf(buf, len, "CRNG not ready yet");
        else
                snprintf(buf, len, "CRNG ready %" PRIu64 ".%03" PRIu64 " s after the kernel started%s%s%s",
                         b->crng_ready_usec / 1000000u, b->crng_ready_usec / 1000u % 1000u,
                         b->crng_stage != KERNEL_CRNG_STAGE_UNKNOWN ? " (" : "",
                         b->crng_stage != KERNEL_CRNG_STAGE_UNKNOWN ? kernel_crng_stage_describe(b->crng_stage) : "",
                         b->crng_stage != KERNEL_CRNG_STAGE_UNKNOWN ? ")" : "");
        if (b->vm_forks > 0)
                append(buf, len, "; reseeded %" PRIu64 "x for a virtual machine fork", b->vm_forks);
}

char *status_format_probe(const ProbeReport *r) {
        char out[2048] = "", part[768], names[256], cpu_names[256];
        unsigned cpu_mask = 0, known_mask = 0;
        bool any_cpuid = false;

        FOREACH_RNG_SOURCE(i) {
                if (rng_source_desc(i)->kind == RNG_KIND_CPU_INSTRUCTION)
                        cpu_mask |= 1u << i;
                if (!probe_source_unknown(&r->instr[i]))
                        known_mask |= 1u << i; /* "no NAMES on this machine" names only these */
        }
        rng_source_names_join(cpu_mask, true, "", "/", "/", cpu_names, sizeof(cpu_names));
        rng_source_names_join(known_mask, true, "", "/", "/", names, sizeof(names));
        FOREACH_RNG_SOURCE(i)
                any_cpuid = any_cpuid || (r->instr[i].selected && r->instr[i].cpuid);
        if (!r->arch_supported && cpu_mask) {
                /* Built without draw code for its instructions: say whose. */
                const char *arch = rng_architecture_to_string(rng_source_desc(__builtin_ctz(cpu_mask))->architecture);

                snprintf(out, sizeof(out), "%s: not an %s machine, nothing to check", cpu_names, arch);
        } else if (!any_cpuid)
                snprintf(out, sizeof(out), "no %s on this machine: nothing to check", names);
        FOREACH_RNG_SOURCE(i) {
                size_t k = strlen(out);

                if (!r->instr[i].selected || (!any_cpuid && !probe_source_unknown(&r->instr[i])) ||
                    (!r->arch_supported && rng_source_desc(i)->kind == RNG_KIND_CPU_INSTRUCTION))
                        continue;
                status_format_source(r, i, part, sizeof(part));
                snprintf(out + k, sizeof(out) - k, "%s%s", k ? "; " : "", part);
        }
        return strdup(out);
}

char *status_format_kernel(const StatusKernelSource src[_RNG_SOURCE_MAX], bool have_counters, bool no_journal) {
        char buf[768], note[96];
        size_t k = 0;
        char *status;

        FOREACH_RNG_SOURCE(i) {
                const StatusKernelSource *s = &src[i];
                const char *name = rng_source_display_name(i);

                if (s->waiting > 0)
                        (void) snprintf(note, sizeof(note), "; %" PRIu64 " of them recorded in the journal "
                                        "when the routine interval ends", s->waiting);
                else
                        note[0] = '\0';
                if (s->failures > 0)
                        k += snprintf(buf + k, sizeof(buf) - MIN(k, sizeof(buf)), "%s%s exhausted %" PRIu64 "x (%s%s)",
                                      k ? ", " : "", name, s->failures, verdict_consequence(i, VERDICT_EXHAUSTED), note);
                if (s->own > 0)
                        k += snprintf(buf + k, sizeof(buf) - MIN(k, sizeof(buf)),
                                      "%s%s exhausted %" PRIu64 "x during rng-health's own probe", k ? ", " : "",
                                      name, s->own);
                if (s->disabled)
                        k += snprintf(buf + k, sizeof(buf) - MIN(k, sizeof(buf)), "%s%s disabled",
                                      k ? ", " : "", name);
                if (s->defective)
                        k += snprintf(buf + k, sizeof(buf) - MIN(k, sizeof(buf)), "%s%s defective",
                                      k ? ", " : "", name);
                if (k >= sizeof(buf))
                        break;
        }

        if (asprintf(&status, "kernel: %s%s",
                     k > 0 ? buf : have_counters ? "no RNG failures" : "no RNG failures logged",
                     no_journal ? "; no journal: kernel messages not followed" : "") < 0)
                return NULL;
        return status;
}

char *status_join(const char *const *fragments, size_t n) {
        size_t len = 1;
        char *s;

        for (size_t i = 0; i < n; i++)
                if (fragments[i] && fragments[i][0])
                        len += strlen(fragments[i]) + 2;
        s = malloc(len);
        if (!s)
                return NULL;
        s[0] = '\0';
        for (size_t i = 0; i < n; i++)
                if (fragments[i] && fragments[i][0]) {
                        if (s[0])
                                strcat(s, "; ");
                        strcat(s, fragments[i]);
                }
        return s;
}

char *status_format_line(const char *fragments, const char *fail_on, const char *crng, const char *cvm,
                         bool reload_failed) {
        char *line;

        if (asprintf(&line, "%s%s%s%s%s%s%s%s%s", fail_on ? "FAILED (FailOn=" : "", fail_on ?: "", fail_on ? "): " : "",
                     fragments ?: "", crng && crng[0] && fragments && fragments[0] ? "; " : "", crng ?: "",
                     cvm ? "; confidential VM: " : "", cvm ?: "",
                     reload_failed ? "; configuration error on reload, previous configuration kept "
                                     "(see journalctl -u rng-health)" : "") < 0)
                return NULL;
        return line;
}

const char *status_probing(char *buf, size_t len) {
        char names[256];

        snprintf(buf, len, "Probing %s...", rng_source_names_join(RNG_SOURCES_ALL, true, "", "/", "/", names,
                                                                   sizeof(names)));
        return buf;
}
