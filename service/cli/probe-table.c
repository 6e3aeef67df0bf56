/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "macro.h"
#include "format-util.h"
#include "probe-summary.h"
#include "probe-table.h"

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

static const char *kernel_summary(const KernelInstructionState *k, char *buf, size_t len) {
        if (k->state == KERNEL_STATE_ENABLED)
                return "enabled";
        snprintf(buf, len, "%s%s%s", kernel_state_kind_to_string(k->state), k->reason ? ": " : "",
                 k->reason ?: "");
        return buf;
}

void probe_report_print_table(const ProbeReport *r, FILE *f) {
        unsigned n_runs = 0;
        char kbuf[256];

        for (int i = 0; i < _RNG_INSTRUCTION_MAX; i++)
                n_runs += r->instr[i].n_runs;

        fprintf(f, "Verdict: %s  (%u run%s in %.1f ms; ", verdict_to_string(r->verdict), n_runs,
                n_runs == 1 ? "" : "s", r->wall_nsec / 1e6);
        if (n_runs == 0)
                fprintf(f, "nothing to probe)\n\n");
        else if (r->cpus.contention)
                fprintf(f, "contention runs on %d CPU%s)\n\n", CPU_COUNT(&r->cpus.used),
                        CPU_COUNT(&r->cpus.used) == 1 ? "" : "s");
        else
                fprintf(f, "no contention run)\n\n");

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
        fprintf(f, "%-12s %-7s %-6s %-6s %s\n", "VERDICT", "INSTR", "CPUID", "KTRIES", "KERNEL");
        for (int i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                const ProbeInstruction *in = &r->instr[i];

                if (!in->selected)
                        continue;
                fprintf(f, "%-12s %-7s %-6s %-6" PRIu64 " %s\n", verdict_to_string(in->verdict),
                        rng_instruction_upper_to_string(i), in->cpuid ? "yes" : "no", in->kernel_retries,
                        kernel_summary(&in->kernel, kbuf, sizeof(kbuf)));
        }

        for (int i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                const ProbeInstruction *in = &r->instr[i];

                if (in->erratum)
                        fprintf(f, "\n%s matches the known erratum %s: %s\n  Fix: %s\n  Sources: %s\n",
                                rng_instruction_upper_to_string(i), in->erratum->id, in->erratum->description,
                                in->erratum->fix, in->erratum->sources);
                else if (in->erratum_fixed)
                        fprintf(f, "\n%s: this CPU is listed for erratum %s, and its microcode has the fix (0x%" PRIx32 " or later).\n",
                                rng_instruction_upper_to_string(i), in->erratum_fixed->id, in->erratum_fixed_microcode);
        }

        if (n_runs == 0)
                return;

        fprintf(f, "\n%-12s %-7s %5s %-10s %3s %10s %10s %7s %17s %6s %6s %8s %8s %11s  %s\n",
                "VERDICT", "INSTR", "WIDTH", "MODE", "THR", "TRIES", "FAILED", "FAIL%", "95% CI (FAIL%)",
                "STREAK", ">KTRY", "VALUES/s", "BYTES/s", "CYC p50/p99", "CHECKS");
        for (int i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                const ProbeInstruction *in = &r->instr[i];

                for (unsigned j = 0; j < in->n_runs; j++) {
                        const ProbeRun *run = &in->runs[j];
                        char vps[16], bps[16], ci[48], lo[16], hi[16], lat[32], checks[384];

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
                        fprintf(f, "%-12s %-7s %5u %-10s %3u %10" PRIu64 " %10" PRIu64 " %6.2f%% %17s %6" PRIu64
                                " %6" PRIu64 " %8s %8s %11s  %s\n",
                                verdict_to_string(run->verdict), rng_instruction_upper_to_string(i), run->width,
                                probe_mode_to_string(run->mode), run->threads, run->attempts, run->failures,
                                run->failure_rate * 100, ci, run->longest_failure_streak,
                                probe_run_retry_exhausted(run),
                                format_si(run->values_per_sec, vps, sizeof(vps)),
                                format_si(run->bytes_per_sec, bps, sizeof(bps)), lat, checks);
                }
        }
        fprintf(f, "\nSTREAK: longest run of failed tries. >KTRY: values that needed more tries than the\n"
                "running kernel's loop makes (KTRIES: that loop would have failed: exhausted).\n");
        for (int i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                const ProbeInstruction *in = &r->instr[i];

                if (in->n_runs > 0)
                        fprintf(f, "KTRIES %s = %" PRIu64 ": %s.\n", rng_instruction_upper_to_string(i),
                                in->kernel_retries, in->kernel_retries_why);
        }
}
