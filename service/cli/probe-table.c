/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "macro.h"
#include "format-util.h"
#include "probe-summary.h"
#include "probe-table.h"
#include "status.h"

/* "0-3,8" */
static void format_cpu_set(const cpu_set_t *set, char *buf, size_t len) {
        size_t k = 0;

        buf[0] = '\0';
        for (int c = 0; c < CPU_SETSIZE && k < len; c++) {
                int e = c;

                if (!CPU_ISSET(c, set))
                        continue;
                while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
                        e++;
                k += e == c ? snprintf(buf + k, len - k, "%s%d", k ? "," : "", c)
                            : snprintf(buf + k, len - k, "%s%d-%d", k ? "," : "", c, e);
                c = e;
        }
}

static const char *kernel_summary(const KernelSourceState *k, char *buf, size_t len) {
        const KernelCredit *c = &k->credit;

        /* A device or a seed: which, and what the kernel credits. */
        if (k->state == KERNEL_STATE_ENABLED && (c->device[0] || c->host_fed)) {
                snprintf(buf, len, "%s%s%s", c->device, c->host_fed ? ", host-fed" : "",
                         !c->known ? ", credit unknown" : c->credited ? ", credited " : ", not credited");
                if (c->known && c->credited) {
                        size_t n = strlen(buf);

                        snprintf(buf + n, len - n, "%u/1024", c->quality);
                }
                if (c->why) {
                        size_t n = strlen(buf);

                        snprintf(buf + n, len - n, " (%s)", c->why);
                }
                return buf;
        }
        if (k->state == KERNEL_STATE_ENABLED)
                return "enabled";
        /* "unknown (why)" says its state itself */
        if (k->state == KERNEL_STATE_UNKNOWN && k->reason && strncmp(k->reason, "unknown", 7) == 0)
                return k->reason;
        snprintf(buf, len, "%s%s%s%s%s%s", kernel_state_kind_to_string(k->state), k->reason ? ": " : "",
                 k->reason ?: "", k->reason_source == KERNEL_REASON_ERRATA ? " (" : "",
                 k->reason_source == KERNEL_REASON_ERRATA ? "from the errata table" : "",
                 k->reason_source == KERNEL_REASON_ERRATA ? ")" : "");
        return buf;
}

/* "97%", "43% <90%" (not a contention result), "-" for single runs. */
static const char *overlap_column(const ProbeRun *run, char *buf, size_t len) {
        if (run->mode != PROBE_CONTENTION)
                return "-";
        snprintf(buf, len, "%.0f%%%s", run->window.overlap * 100, run->contended ? "" : " <90%");
        return buf;
}

/* "CPU: GenuineIntel family 0x6 model 0x8f stepping 0x8, microcode
 * 0x2b000620 (Intel(R) Xeon(R) ...); kernel 6.12.57" where known, and the
 * packages. */
static void print_cpu(const ProbeReport *r, FILE *f) {
        CpuAttribution a;

        cpu_attribution_from_id(r->have_cpu ? &r->cpu : NULL, &a);
        if (a.vendor[0] || a.family[0]) {
                fprintf(f, "CPU: %s", a.vendor[0] ? a.vendor : "unknown vendor");
                if (a.family[0])
                        fprintf(f, " family %s model %s stepping %s", a.family, a.model, a.stepping);
                fprintf(f, ", microcode %s", a.microcode[0] ? a.microcode : "unknown");
                if (a.model_name[0])
                        fprintf(f, " (%s)", a.model_name);
                if (r->kernel_release[0])
                        fprintf(f, "; kernel %s", r->kernel_release);
                fputc('\n', f);
        }
        if (r->cpus.n_packages > 1) {
                fprintf(f, "Packages:");
                for (unsigned p = 0; p < r->cpus.n_packages; p++) {
                        char list[256];

                        format_cpu_set(&r->cpus.package_cpus[p], list, sizeof(list));
                        fprintf(f, "%s %d (CPUs %s)", p ? "," : "", r->cpus.package_id[p], list);
                }
                fputc('\n', f);
        }
}

/* "single", "contention", "contention@1": within package 1. */
static const char *mode_column(const ProbeRun *run, char *buf, size_t len) {
        snprintf(buf, len, "%s", probe_mode_to_string(run->mode));
        if (run->mode == PROBE_CONTENTION && run->package >= 0)
                snprintf(buf, len, "%s@%d", probe_mode_to_string(run->mode), run->package);
        return buf;
}

/* Where the worst verdict fails nothing (probe_report_exit_status(): the
 * kernel works around it, as on a Xeon whose seed instruction runs dry),
 * what the kernel does instead, after the verdict: ", routine: NAME: " and
 * the source's verdict_consequence(). */
static void print_weight(const ProbeReport *r, FILE *f) {
        bool first = true;

        if (r->verdict < VERDICT_DEGRADED || probe_report_exit_status(r, NULL) != 0)
                return;
        FOREACH_RNG_SOURCE(i) {
                const char *c = verdict_consequence(i, r->verdict);

                if (!r->instr[i].selected || r->instr[i].verdict != r->verdict || !c)
                        continue;
                fprintf(f, "%s%s: %s", first ? ", routine: " : "; ", rng_source_display_name(i), c);
                first = false;
        }
}

/* The report's worst verdict; where that is unsupported because a
 * selected device or seed could not be read or seen, what its row says
 * ("unreadable", "unknown"): not "not there". */
static const char *headline_word(const ProbeReport *r) {
        const char *unsupported = verdict_to_string(VERDICT_UNSUPPORTED);

        if (r->verdict == VERDICT_UNSUPPORTED)
                FOREACH_RNG_SOURCE(i) {
                        const char *w = probe_source_verdict_word(&r->instr[i]);

                        if (r->instr[i].selected && strcmp(w, unsupported) != 0)
                                return w;
                }
        return verdict_to_string(r->verdict);
}

static unsigned contention_runs(const ProbeReport *r) {
        unsigned n = 0;

        FOREACH_RNG_SOURCE(i)
                for (unsigned j = 0; j < r->instr[i].n_runs; j++)
                        n += r->instr[i].runs[j].mode == PROBE_CONTENTION;
        return n;
}

/* "Verdict: ..." and the CPUs a contention run skipped. */
static void print_header(const ProbeReport *r, unsigned n_runs, FILE *f) {
        fprintf(f, "Verdict: %s", headline_word(r));
        print_weight(r, f);
        fprintf(f, "  (%u run%s in %.1f ms; ", n_runs, n_runs == 1 ? "" : "s", r->wall_nsec / 1e6);
        if (n_runs == 0)
                fprintf(f, "nothing to probe)\n\n");
        else if (contention_runs(r) == 0 && r->cpus.contention)
                /* only sources that are not drawn from every CPU (a device) */
                fprintf(f, "no contention run: no source probed that contends)\n");
        else if (r->cpus.contention && r->cpus.n_packages > 1)
                fprintf(f, "contention runs per package on %d CPUs of %u packages)\n", CPU_COUNT(&r->cpus.used),
                        r->cpus.n_packages);
        else if (r->cpus.contention)
                fprintf(f, "contention runs on %d CPU%s)\n", CPU_COUNT(&r->cpus.used),
                        CPU_COUNT(&r->cpus.used) == 1 ? "" : "s");
        else if (r->cpus.n_packages > 1)
                fprintf(f, "no contention run: no package has 2 used CPUs)\n");
        else
                fprintf(f, "no contention run)\n");
        print_cpu(r, f);
        fputc('\n', f);

        static const struct {
                const char *what;
                size_t offset;
        } skipped[] = {
                { "offline", offsetof(ProbeCpus, skipped_offline) },
                { "not allowed (sched_getaffinity)", offsetof(ProbeCpus, skipped_forbidden) },
                { "could not be pinned", offsetof(ProbeCpus, skipped_pin_failed) },
        };
        bool any_skipped = false;

        for (size_t i = 0; i < ELEMENTSOF(skipped); i++) {
                const cpu_set_t *set = (const cpu_set_t *) ((const char *) &r->cpus + skipped[i].offset);
                char list[512];

                if (CPU_COUNT(set) == 0)
                        continue;
                format_cpu_set(set, list, sizeof(list));
                fprintf(f, "Skipped CPUs, %s: %s\n", skipped[i].what, list);
                any_skipped = true;
        }
        if (any_skipped)
                fputc('\n', f);
}

/* One line per instruction, then what its verdict does not say: hidden,
 * a known erratum, or one whose fix the microcode has. */
static void print_instructions(const ProbeReport *r, FILE *f) {
        char kbuf[256];

        fprintf(f, "%-12s %-9s %-6s %-6s %s\n", "VERDICT", "SOURCE", "THERE", "KTRIES", "KERNEL");
        FOREACH_RNG_SOURCE(i) {
                const ProbeSourceResult *in = &r->instr[i];

                if (!in->selected)
                        continue;
                if (rng_source_desc(i)->kind != RNG_KIND_CPU_INSTRUCTION)
                        fprintf(f, "%-12s %-9s %-6s %-6s %s\n", probe_source_verdict_word(in),
                                rng_source_display_name(i),
                                in->cpuid ? "yes" : probe_source_unknown(in) ? "?" : "no", "-",
                                kernel_summary(&in->kernel, kbuf, sizeof(kbuf)));
                else
                        fprintf(f, "%-12s %-9s %-6s %-6" PRIu64 " %s\n", verdict_to_string(in->verdict),
                                rng_source_display_name(i), in->cpuid ? "yes" : "no", in->kernel_retries,
                                kernel_summary(&in->kernel, kbuf, sizeof(kbuf)));
        }
        if (r->boot.read) {
                status_format_crng(&r->boot, kbuf, sizeof(kbuf));
                /* status_format_crng() counts the forks; the table says what they are. */
                fprintf(f, "\n%s%s.\n", kbuf, r->boot.vm_forks ? " (a clone, or a restored snapshot)" : "");
        }

        FOREACH_RNG_SOURCE(i) {
                const ProbeSourceResult *in = &r->instr[i];

                if (in->selected && in->verdict == VERDICT_HOST_FED)
                        fprintf(f, "\n%s is host-fed: %s. Remedy: %s.\n", rng_source_display_name(i),
                                verdict_consequence(i, in->verdict), rng_source_desc(i)->kernel.remedy);
                if (in->selected && in->read_error < 0)
                        fprintf(f, "\n%s: %s cannot be read (%s): not probed.\n", rng_source_display_name(i),
                                rng_source_desc(i)->detect.device, strerror(-in->read_error));
                if (in->selected && rng_source_desc(i)->alt.paths)
                        fprintf(f, "\n%s: %s: %s.\n", rng_source_display_name(i), rng_source_desc(i)->alt.fact,
                                rng_source_kernel_fact(i) ? "yes" : "no");
                if (in->selected && in->verdict == VERDICT_HIDDEN)
                        fprintf(f, "\n%s is hidden: %s does not advertise it, yet it executes. Neither the kernel nor\n"
                                "a program that checks %s uses it: what it did when run anyway (hardware\n"
                                "verdict %s, below) is information about the CPU, not a verdict on the\n"
                                "randomness this machine relies on.\n",
                                rng_source_display_name(i), rng_source_desc(i)->detect.advertised_by,
                                rng_source_desc(i)->detect.advertised_by, verdict_to_string(in->hardware_verdict));
                if (in->erratum)
                        fprintf(f, "\n%s matches the known erratum %s: %s\n  Fix: %s\n  Sources: %s\n",
                                rng_source_display_name(i), in->erratum->id, in->erratum->description,
                                in->erratum->fix, in->erratum->sources);
                else if (in->erratum_fixed)
                        fprintf(f, "\n%s: this CPU is listed for erratum %s, and its microcode has the fix (0x%" PRIx32 " or later).\n",
                                rng_source_display_name(i), in->erratum_fixed->id, in->erratum_fixed_microcode);
        }
}

static void print_runs(const ProbeReport *r, FILE *f) {
        fprintf(f, "\n%-12s %-9s %5s %-13s %3s %-8s %10s %10s %7s %17s %6s %6s %8s %8s %11s  %s\n",
                "VERDICT", "SOURCE", "WIDTH", "MODE", "THR", "OVERLAP", "TRIES", "FAILED", "FAIL%", "95% CI (FAIL%)",
                "STREAK", ">KTRY", "VALUES/s", "BYTES/s", RNG_TIMER_LABEL " p50/p99", "CHECKS");
        FOREACH_RNG_SOURCE(i) {
                const ProbeSourceResult *in = &r->instr[i];

                for (unsigned j = 0; j < in->n_runs; j++) {
                        const ProbeRun *run = &in->runs[j];
                        char vps[16], bps[16], ci[48], lo[16], hi[16], lat[32], checks[384], ov[16], mode[24];

                        snprintf(ci, sizeof(ci), "%s-%s", format_percent_column(run->failure_ci_low, lo, sizeof(lo)),
                                 format_percent_column(run->failure_ci_high, hi, sizeof(hi)));
                        if (run->latency_samples > 0 && rng_arch_supported())
                                snprintf(lat, sizeof(lat), "%" PRIu64 "/%" PRIu64, run->latency_median, run->latency_p99);
                        else
                                snprintf(lat, sizeof(lat), "-");
                        if (run->health.failed == 0)
                                snprintf(checks, sizeof(checks), "pass");
                        else
                                health_result_format(&run->health, checks, sizeof(checks));
                        fprintf(f, "%-12s %-9s %5u %-13s %3u %-8s %10" PRIu64 " %10" PRIu64 " %6.2f%% %17s %6" PRIu64
                                " %6" PRIu64 " %8s %8s %11s  %s\n",
                                verdict_to_string(run->verdict), rng_source_display_name(i), run->width,
                                mode_column(run, mode, sizeof(mode)), run->threads, overlap_column(run, ov, sizeof(ov)),
                                run->attempts, run->failures,
                                run->failure_rate * 100, ci, run->longest_failure_streak,
                                probe_run_retry_exhausted(run),
                                format_si(run->values_per_sec, vps, sizeof(vps)),
                                format_si(run->bytes_per_sec, bps, sizeof(bps)), lat, checks);
                }
        }
}

/* The legend, the kernel's own loops during the contention runs, and the
 * kernel loop each instruction was judged by. */
static void print_footer(const ProbeReport *r, FILE *f) {
        fprintf(f, "\nSTREAK: longest run of failed tries. >KTRY: values that needed more tries than the\n"
                "running kernel's loop makes (KTRIES: that loop would have failed: exhausted).\n"
                "OVERLAP: the share of a contention run when all its threads drew; its FAIL%% and\n"
                "VALUES/s are over that common window. Under 90%%: not a contention result.\n");
        FOREACH_RNG_SOURCE(i) {
                const ProbeSourceResult *in = &r->instr[i];
                uint64_t during[_RNG_SOURCE_MAX] = {};
                bool any = false, grew = false;
                char counts[256] = "";
                size_t at = 0;

                for (unsigned j = 0; j < in->n_runs; j++)
                        FOREACH_RNG_SOURCE(k) {
                                during[k] += probe_run_kernel_exhausted(&in->runs[j], k);
                                any = any || in->runs[j].have_kernel_counters;
                        }
                /* "A 0x, B 3x": every source the kernel counts. */
                FOREACH_RNG_SOURCE(k) {
                        if (!rng_source_desc(k)->kernel.counters || at >= sizeof(counts))
                                continue;
                        at += snprintf(counts + at, sizeof(counts) - at, "%s%s %" PRIu64 "x", at ? ", " : "",
                                       rng_source_display_name(k), during[k]);
                        grew = grew || during[k] > 0;
                }
                if (any && grew)
                        fprintf(f, "During the %s contention runs the kernel's own loops ran out: %s (its counters): "
                                "this probe's load.\n", rng_source_display_name(i), counts);
        }
        FOREACH_RNG_SOURCE(i) {
                const ProbeSourceResult *in = &r->instr[i];

                if (in->n_runs > 0 && rng_source_desc(i)->kind == RNG_KIND_CPU_INSTRUCTION)
                        fprintf(f, "KTRIES %s = %" PRIu64 ": %s.\n", rng_source_display_name(i),
                                in->kernel_retries, in->kernel_retries_why);
        }
}

void probe_report_print_table(const ProbeReport *r, FILE *f) {
        unsigned n_runs = 0;

        FOREACH_RNG_SOURCE(i)
                n_runs += r->instr[i].n_runs;
        print_header(r, n_runs, f);
        print_instructions(r, f);
        if (n_runs == 0)
                return;
        print_runs(r, f);
        print_footer(r, f);
}

/* "A/B": the sources a stock kernel tries once per call. */
static const char *one_try_sources(char *buf, size_t len) {
        unsigned mask = 0;

        FOREACH_RNG_SOURCE(i)
                if (rng_source_desc(i)->kernel.tries_stock == 1)
                        mask |= 1u << i;
        rng_source_names_join(mask, true, "", "/", "/", buf, len);
        if (!buf[0])
                snprintf(buf, len, "no source of this machine");
        return buf;
}

void probe_sweep_print_table(const ProbeSweepReport *r, FILE *f) {
        char list[512], kbuf[256], once[128];

        format_cpu_set(&r->cpus.used, list, sizeof(list));
        fprintf(f, "Sweep: %u instruction form%s in %.1f s, up to %d CPU%s (%s); per point ", r->n_sweeps,
                r->n_sweeps == 1 ? "" : "s", r->wall_nsec / 1e9, CPU_COUNT(&r->cpus.used),
                CPU_COUNT(&r->cpus.used) == 1 ? "" : "s", list);
        if (r->limits.budget_usec)
                fprintf(f, "%.0f ms", r->limits.budget_usec / 1e3);
        if (r->limits.budget_usec && r->limits.max_attempts)
                fprintf(f, " or ");
        if (r->limits.max_attempts)
                fprintf(f, "%" PRIu64 " %s per thread", r->limits.max_attempts,
                        plural(r->limits.max_attempts, "try", "tries"));
        fprintf(f, "\n");
        FOREACH_RNG_SOURCE(i) {
                if (!r->selected[i])
                        continue;
                /* A source no thread draws from (a device, a seed): no sweep
                 * for it, whatever it is. */
                if (!rng_source_desc(i)->contention)
                        fprintf(f, "%s: not swept: it is not drawn from every CPU at once (probe it without "
                                "--sweep)\n", rng_source_display_name(i));
                else if (!r->presence[i].executes)
                        fprintf(f, "%s: not swept: %s\n", rng_source_display_name(i),
                                kernel_summary(&r->kernel[i], kbuf, sizeof(kbuf)));
        }

        for (unsigned k = 0; k < r->n_sweeps; k++) {
                const ProbeSweep *sw = &r->sweeps[k];
                const KernelSourceState *ks = &r->kernel[sw->instruction];
                char kloop[32];

                fprintf(f, "\n%s %u-bit", rng_source_display_name(sw->instruction), sw->width);
                if (r->cpus.n_packages > 1 && sw->package >= 0)
                        fprintf(f, " in package %d", sw->package);
                fprintf(f, " (kernel: %s)\n", kernel_summary(ks, kbuf, sizeof(kbuf)));
                snprintf(kloop, sizeof(kloop), "KLOOP(%" PRIu64 ")", sw->kernel_retries);
                fprintf(f, "%7s %11s %8s %17s %12s %12s %9s %8s\n", "THREADS", "TRIES", "FAIL%", "95% CI (FAIL%)",
                        "1-TRY LOOP", kloop, "VALUES/s", "OVERLAP");
                for (unsigned j = 0; j < sw->n_points; j++) {
                        const ProbeRun *run = &sw->points[j];
                        char ci[48], lo[16], hi[16], one[16], kl[16], vps[16], ov[16];

                        snprintf(ci, sizeof(ci), "%s-%s", format_percent_column(run->failure_ci_low, lo, sizeof(lo)),
                                 format_percent_column(run->failure_ci_high, hi, sizeof(hi)));
                        fprintf(f, "%7u %11" PRIu64 " %7.2f%% %17s %11s%% %11s%% %9s %8s\n", run->threads,
                                run->attempts, run->failure_rate * 100, ci,
                                format_percent_column(run->failure_rate, one, sizeof(one)),
                                format_percent_column(run->kernel_loop_failure_rate, kl, sizeof(kl)),
                                format_si(run->values_per_sec, vps, sizeof(vps)), overlap_column(run, ov, sizeof(ov)));
                }
        }
        fprintf(f, "\nFAIL%%: failed tries. 1-TRY LOOP: calls of a loop of one try that fail (a stock\n"
                "kernel's %s). KLOOP(N): calls of the running kernel's loop of N tries that would\n"
                "have run out. VALUES/s: all threads together. Figures are over the common window,\n"
                "when every thread drew (OVERLAP of the run; under 90%%: not a contention result).\n",
                one_try_sources(once, sizeof(once)));
}
