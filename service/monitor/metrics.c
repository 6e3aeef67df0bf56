/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "metrics.h"

void metrics_add_probe(Metrics *m, const ProbeReport *r, uint64_t realtime_usec) {
        m->probes++;
        m->last_probe_realtime_usec = realtime_usec;
        FOREACH_RNG_SOURCE(i) {
                const ProbeSourceResult *in = &r->instr[i];

                /* Tries and failures are an instruction's (a device's run:
                 * rng_health_device_bytes_per_second). */
                if (rng_source_desc(i)->kind != RNG_KIND_CPU_INSTRUCTION)
                        continue;
                for (unsigned j = 0; j < in->n_runs && j < ELEMENTSOF(in->runs); j++) {
                        const ProbeRun *run = &in->runs[j];
                        int w = rng_width_index(run->width);
                        MetricsRun *mr;

                        if (w < 0 || (unsigned) run->mode > PROBE_CONTENTION)
                                continue;
                        mr = &m->runs[i][w][run->mode];
                        mr->seen = true;
                        mr->tries += run->attempts;
                        mr->failures += run->failures;
                        mr->values_over_retries += run->values_over_retries;
                        mr->kernel_loop_failures += run->kernel_loop_failures;
                }
        }
}

size_t metrics_escape_label(const char *s, char *buf, size_t len) {
        size_t n = 0;

        for (; *s; s++) {
                const char *e = NULL;
                char one[2] = { *s, 0 };

                if (*s == '\\')
                        e = "\\\\";
                else if (*s == '"')
                        e = "\\\"";
                else if (*s == '\n')
                        e = "\\n";
                else
                        e = one;
                for (; *e; e++, n++)
                        if (n + 1 < len)
                                buf[n] = *e;
        }
        if (len > 0)
                buf[MIN(n, len - 1)] = 0;
        return n;
}

static void header(FILE *f, const char *name, const char *type, const char *help) {
        fprintf(f, "# HELP rng_health_%s %s\n# TYPE rng_health_%s %s\n", name, help, name, type);
}

static void stateset(FILE *f, const char *name, const char *labels, Verdict current) {
        for (int v = 0; v < _VERDICT_MAX; v++)
                fprintf(f, "rng_health_%s{%sverdict=\"%s\"} %d\n", name, labels, verdict_to_string(v),
                        v == (int) current);
}

typedef uint64_t (*RunField)(const MetricsRun *r);
static uint64_t run_tries(const MetricsRun *r) { return r->tries; }
static uint64_t run_failures(const MetricsRun *r) { return r->failures; }
static uint64_t run_over(const MetricsRun *r) { return r->values_over_retries; }
static uint64_t run_loop(const MetricsRun *r) { return r->kernel_loop_failures; }

static void run_counter(FILE *f, const Metrics *m, const char *name, const char *help, RunField field) {
        header(f, name, "counter", help);
        FOREACH_RNG_SOURCE(i)
                for (int w = 0; w < RNG_N_WIDTHS; w++)
                        for (int mode = PROBE_SINGLE; mode <= PROBE_CONTENTION; mode++) {
                                const MetricsRun *r = &m->runs[i][w][mode];

                                if (!r->seen)
                                        continue;
                                fprintf(f, "rng_health_%s{instruction=\"%s\",width=\"%u\",mode=\"%s\"} %" PRIu64 "\n",
                                        name, rng_source_name(i), rng_widths[w],
                                        probe_mode_to_string(mode), field(r));
                        }
}

/* The package label of a run: ",package=\"N\"" for a contention run made
 * within one package, "" otherwise. */
static const char *package_label(const ProbeRun *r, char *buf, size_t len) {
        buf[0] = '\0';
        if (r->mode == PROBE_CONTENTION && r->package >= 0)
                snprintf(buf, len, ",package=\"%d\"", r->package);
        return buf;
}

typedef double (*RunGauge)(const ProbeRun *r);
static double run_failure_ratio(const ProbeRun *r) { return r->failure_rate; }
static double run_values_per_sec(const ProbeRun *r) { return r->values_per_sec; }
static double run_loop_ratio(const ProbeRun *r) { return r->kernel_loop_failure_rate; }

/* The last probe's runs that are evidence (single, or contended), in the
 * order they were made: per width, single then each package's. */
static void run_gauge(FILE *f, const ProbeReport *p, const char *name, const char *help, RunGauge field) {
        header(f, name, "gauge", help);
        FOREACH_RNG_SOURCE(i) {
                const ProbeSourceResult *in = &p->instr[i];

                /* An instruction's runs (a device's run:
                 * rng_health_device_bytes_per_second). */
                if (!in->selected || rng_source_desc(i)->kind != RNG_KIND_CPU_INSTRUCTION)
                        continue;
                for (unsigned j = 0; j < in->n_runs && j < ELEMENTSOF(in->runs); j++) {
                        const ProbeRun *r = &in->runs[j];
                        char pkg[32];

                        if (!(r->mode == PROBE_SINGLE || r->contended))
                                continue;
                        fprintf(f, "rng_health_%s{instruction=\"%s\",width=\"%u\",mode=\"%s\",threads=\"%u\"%s} %.9g\n",
                                name, rng_source_name(i), r->width, probe_mode_to_string(r->mode), r->threads,
                                package_label(r, pkg, sizeof(pkg)), field(r));
                }
        }
}

static void label(FILE *f, const char *name, const char *value, bool last) {
        char buf[512];

        (void) metrics_escape_label(value ?: "", buf, sizeof(buf));
        fprintf(f, "%s=\"%s\"%s", name, buf, last ? "" : ",");
}

/* The attribution labels of rng_health_info: the CPU (cpu-id.h's
 * CpuAttribution; "" where unknown) and source i's erratum status. */
static void attribution_labels(FILE *f, const ProbeReport *p, RngSourceId i) {
        const CpuId *cpu = p->have_cpu ? &p->cpu : NULL;
        CpuAttribution a;
        char status[160];

        cpu_attribution_from_id(cpu, &a);
        label(f, "cpu_vendor", a.vendor, false);
        label(f, "cpu_family", a.family, false);
        label(f, "cpu_model", a.model, false);
        label(f, "cpu_stepping", a.stepping, false);
        label(f, "cpu_microcode", a.microcode, false);
        label(f, "erratum_status", erratum_status_format(cpu, i, status, sizeof(status)), false);
}

static void format_info(FILE *f, const ProbeReport *p, const MetricsInfo *info) {
        header(f, "info", "gauge",
               "Always 1; labels: the version, the kernel's tries per call the verdicts were judged by, "
               "the confidential VM (none, tdx, sev, sev-es, sev-snp, cca, forced), the CPU (vendor, family, model, "
               "stepping, microcode; empty: unknown), the erratum status and the documented erratum matched (empty: none).");
        if (!p)
                return;
        FOREACH_RNG_SOURCE(i) {
                const ProbeSourceResult *in = &p->instr[i];
                char retries[32];

                if (!in->selected)
                        continue;
                /* A loop's tries are an instruction's. */
                if (rng_source_desc(i)->kind == RNG_KIND_CPU_INSTRUCTION)
                        snprintf(retries, sizeof(retries), "%" PRIu64, in->kernel_retries);
                else
                        retries[0] = '\0';
                fputs("rng_health_info{", f);
                label(f, "instruction", rng_source_name(i), false);
                label(f, "version", info->version, false);
                label(f, "kernel_retries", retries, false);
                label(f, "confidential_vm", info->confidential_vm, false);
                attribution_labels(f, p, i);
                label(f, "erratum", in->erratum ? in->erratum->id : NULL, true);
                fputs("} 1\n", f);
        }
}

static void format_verdicts(FILE *f, const ProbeReport *p, const Verdict *kernel_verdict) {
        char labels[64];

        if (p) {
                header(f, "verdict", "gauge",
                       "The last probe's verdict per source: 1 for the current one, 0 for the others "
                       "(ok, host-fed, degraded, exhausted, broken, hidden, unsupported; see rng-health(8)).");
                FOREACH_RNG_SOURCE(i) {
                        if (!p->instr[i].selected)
                                continue;
                        snprintf(labels, sizeof(labels), "instruction=\"%s\",", rng_source_name(i));
                        stateset(f, "verdict", labels, p->instr[i].verdict);
                }
        }
        if (kernel_verdict) {
                header(f, "kernel_verdict", "gauge",
                       "The kernel watch's verdict per instruction from the kernel's RNG messages and counters: 1 for the current one, 0 for the others.");
                FOREACH_RNG_SOURCE(i) {
                        /* Only what the kernel logs or counts has a kernel verdict. */
                        if (!rng_source_kernel_logged(i))
                                continue;
                        snprintf(labels, sizeof(labels), "instruction=\"%s\",", rng_source_name(i));
                        stateset(f, "kernel_verdict", labels, kernel_verdict[i]);
                }
        }
}

/* The counters over every probe, and the last probe's gauges. */
static void format_probes(FILE *f, const Metrics *m, const ProbeReport *p) {
        static const struct {
                const char *name, *help;
                RunField field;
        } counters[] = {
                { "probe_tries_total",
                  "Tries of the instruction, summed over the probes since the daemon started (a counter: it only grows while the daemon runs).",
                  run_tries },
                { "probe_failures_total",
                  "Tries that returned no value (CF=0), summed over the probes since the daemon started.", run_failures },
                { "probe_values_over_kernel_retries_total",
                  "Values that needed more tries than the kernel's retry loop makes, summed over the probes since the daemon started.",
                  run_over },
                { "probe_kernel_loop_failures_total",
                  "Calls of the kernel's retry loop that would have failed, summed over the probes since the daemon started.",
                  run_loop },
        };
        static const struct {
                const char *name, *help;
                RunGauge field;
        } gauges[] = {
                { "probe_failure_ratio",
                  "The last probe's share of failed tries, per run that is evidence: a single run, or a contention "
                  "run whose threads overlapped (over its common window).",
                  run_failure_ratio },
                { "probe_kernel_loop_failure_ratio",
                  "The last probe's share of calls of the running kernel's retry loop that would have failed, per run that is evidence.",
                  run_loop_ratio },
                { "probe_values_per_second",
                  "The last probe's values delivered per second, all threads together (a contention run: over its common window), per run that is evidence.",
                  run_values_per_sec },
        };

        for (size_t k = 0; k < ELEMENTSOF(counters); k++)
                run_counter(f, m, counters[k].name, counters[k].help, counters[k].field);
        for (size_t k = 0; k < ELEMENTSOF(gauges); k++)
                run_gauge(f, p, gauges[k].name, gauges[k].help, gauges[k].field);
        header(f, "probe_overlap_ratio", "gauge",
               "The last probe's contention runs: the share of each run when all its threads drew (under 0.9: not evidence of contention).");
        FOREACH_RNG_SOURCE(i) {
                const ProbeSourceResult *in = &p->instr[i];

                for (unsigned j = 0; in->selected && j < in->n_runs && j < ELEMENTSOF(in->runs); j++) {
                        const ProbeRun *c = &in->runs[j];
                        char pkg[32];

                        if (c->mode == PROBE_CONTENTION)
                                fprintf(f, "rng_health_probe_overlap_ratio{instruction=\"%s\",width=\"%u\",threads=\"%u\"%s} %.4f\n",
                                        rng_source_name(i), c->width, c->threads, package_label(c, pkg, sizeof(pkg)),
                                        c->window.overlap);
                }
        }
        header(f, "probe_duration_seconds", "gauge", "Wall time of the last probe (a gauge: it describes one probe).");
        fprintf(f, "rng_health_probe_duration_seconds %" PRIu64 ".%09" PRIu64 "\n",
                p->wall_nsec / 1000000000u, p->wall_nsec % 1000000000u);
        header(f, "last_probe_timestamp_seconds", "gauge", "When the last probe ended, in seconds since the Unix epoch.");
        fprintf(f, "rng_health_last_probe_timestamp_seconds %" PRIu64 ".%06" PRIu64 "\n",
                m->last_probe_realtime_usec / 1000000u, m->last_probe_realtime_usec % 1000000u);
}

/* What the kernel credits, per source it reads; a device's rate; this
 * boot's CRNG. */
static void format_credit(FILE *f, const ProbeReport *p) {
        header(f, "credit_ratio", "gauge",
               "How much of each bit of the source the kernel credits to its CRNG until the CRNG is ready "
               "(an hwrng device's rng_quality/1024; 1 or 0 for the CPU's instructions and a boot loader's seed).");
        FOREACH_RNG_SOURCE(i) {
                const ProbeSourceResult *in = &p->instr[i];

                if (in->selected && in->cpuid && in->kernel.credit.known)
                        fprintf(f, "rng_health_credit_ratio{instruction=\"%s\"} %.6g\n", rng_source_name(i),
                                in->kernel.credit.quality / 1024.0);
        }
        header(f, "host_fed", "gauge",
               "1 where the host controls the source's input in a VM (an hwrng device the host feeds, a boot "
               "loader's seed), 0 otherwise; the verdict host-fed where the kernel credits it on a confidential VM.");
        FOREACH_RNG_SOURCE(i) {
                const ProbeSourceResult *in = &p->instr[i];

                if (in->selected && in->cpuid && in->kernel.credit.known)
                        fprintf(f, "rng_health_host_fed{instruction=\"%s\"} %d\n", rng_source_name(i),
                                in->kernel.credit.host_fed);
        }
        header(f, "device_bytes_per_second", "gauge", "The last probe's bytes per second read from a device.");
        FOREACH_RNG_SOURCE(i) {
                const ProbeSourceResult *in = &p->instr[i];

                if (in->selected && rng_source_desc(i)->kind == RNG_KIND_HWRNG_DEVICE && in->n_runs > 0)
                        fprintf(f, "rng_health_device_bytes_per_second{instruction=\"%s\"} %.6g\n",
                                rng_source_name(i), in->runs[0].bytes_per_sec);
        }
}

/* This boot's CRNG, and the kernel watch's count of virtual machine forks. */
static void format_crng(FILE *f, const MetricsInfo *info) {
        const KernelBootLog *b = info->crng;

        if (b) {
                header(f, "crng_ready", "gauge", "1 once this boot's kernel logged \"random: crng init done\", else 0.");
                fprintf(f, "rng_health_crng_ready %d\n", b->crng_ready);
        }
        if (b && b->crng_ready) {
                header(f, "crng_init_seconds", "gauge",
                       "Seconds from the kernel's start to \"random: crng init done\" this boot (the kernel log's own "
                       "timestamp).");
                fprintf(f, "rng_health_crng_init_seconds %" PRIu64 ".%06" PRIu64 "\n", b->crng_ready_usec / 1000000u,
                        b->crng_ready_usec % 1000000u);
        }
        if (info->vm_forks) {
                header(f, "vm_forks_total", "counter",
                       "Times the kernel reseeded its CRNG for a virtual machine fork this boot (vmgenid: a clone, or "
                       "a restored snapshot).");
                fprintf(f, "rng_health_vm_forks_total %" PRIu64 "\n", *info->vm_forks);
        }
}

static void format_kernel_counters(FILE *f, const KernelCounters *c) {
        header(f, "kernel_retried_total", "counter",
               "Calls of the kernel's retry loop that needed more than one try, since boot (/sys/devices/system/cpu/rng/*_retried).");
        FOREACH_RNG_SOURCE(i)
                if (rng_source_desc(i)->kernel.counters)
                        fprintf(f, "rng_health_kernel_retried_total{instruction=\"%s\"} %" PRIu64 "\n",
                                rng_source_name(i), c->retried[i]);
        header(f, "kernel_exhausted_total", "counter",
               "Calls of the kernel's retry loop that ran out of tries (the kernel got no value), since boot (/sys/devices/system/cpu/rng/*_exhausted).");
        FOREACH_RNG_SOURCE(i)
                if (rng_source_desc(i)->kernel.counters)
                        fprintf(f, "rng_health_kernel_exhausted_total{instruction=\"%s\"} %" PRIu64 "\n",
                                rng_source_name(i), c->exhausted[i]);
}

char *metrics_format(const Metrics *m, const MetricsInfo *info) {
        /* The last probe's lines only once a probe was added. */
        const ProbeReport *p = m->probes > 0 ? info->probe : NULL;
        _cleanup_free_ char *text = NULL;
        size_t size = 0;
        FILE *f;
        int r;

        f = open_memstream(&text, &size);
        if (!f)
                return NULL;
        format_info(f, p, info);
        format_verdicts(f, p, info->kernel_verdict);
        header(f, "probes_total", "counter", "Probes made since the daemon started (boot, reload, re-probe).");
        fprintf(f, "rng_health_probes_total %" PRIu64 "\n", m->probes);
        if (p) {
                format_probes(f, m, p);
                format_credit(f, p);
        }
        format_crng(f, info);
        if (info->kernel_counters)
                format_kernel_counters(f, info->kernel_counters);
        r = ferror(f);
        if (fclose(f) != 0 || r)
                return NULL;
        return TAKE_PTR(text);
}
