/* SPDX-License-Identifier: GPL-2.0-or-later */

#include "probe-errata.h"

void probe_report_name_errata(ProbeReport *r, const CpuId *cpu) {
        r->have_cpu = cpu != NULL;
        if (!cpu)
                return;
        r->cpu = *cpu;

        FOREACH_RNG_SOURCE(i) {
                ProbeSourceResult *in = &r->instr[i];
                ErratumObservation obs[PROBE_RUNS_MAX + 1];
                size_t n = 0;
                uint32_t fix;

                in->erratum = NULL;
                in->erratum_fixed = NULL;
                if (!in->selected)
                        continue;
                /* Hidden, and the kernel's own message was not found (a
                 * container, a log that cannot be read): the errata table
                 * says whether the kernel hides it on this CPU model. */
                if (in->kernel.state == KERNEL_STATE_HIDDEN && in->kernel.reason_source != KERNEL_REASON_KERNEL_LOG) {
                        const Erratum *e = errata_kernel_hides(cpu, i, NULL);

                        if (e) {
                                in->kernel.state = KERNEL_STATE_HIDDEN;
                                in->kernel.reason_id = e->kernel_reason_id;
                                in->kernel.reason = e->kernel_action;
                                in->kernel.reason_source = KERNEL_REASON_ERRATA;
                        }
                }
                for (unsigned j = 0; j < in->n_runs; j++)
                        obs[n++] = (ErratumObservation) {
                                .instruction = i,
                                .width = in->runs[j].width,
                                .broken = in->runs[j].verdict == VERDICT_BROKEN,
                                .failed = in->runs[j].health.failed,
                                .failure_rate = in->runs[j].failure_rate,
                                .kernel = in->kernel,
                        };
                /* The kernel's reason (the reason table's message) is
                 * evidence even when nothing was run. */
                obs[n++] = (ErratumObservation) { .instruction = i, .width = 0, .kernel = in->kernel };
                in->erratum = errata_match(cpu, obs, n);

                /* An entry for this instruction whose fix the microcode has. */
                for (size_t e = 0; !in->erratum && e < errata_table_size; e++)
                        if (errata_table[e].instruction == (RngSourceId) i &&
                            erratum_cpu_affected(&errata_table[e], cpu, &fix) == ERRATUM_AFFECTED_FIXED) {
                                in->erratum_fixed = &errata_table[e];
                                in->erratum_fixed_microcode = fix;
                        }
        }
}
