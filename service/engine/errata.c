/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "errata.h"
#include "health.h"
#include "macro.h"


ErratumMatch erratum_cpu_affected(const Erratum *e, const CpuId *cpu, uint32_t *ret_fix) {
        uint32_t fixed = 0;
        bool listed = false;

        if (ret_fix)
                *ret_fix = 0;
        if (!e || !cpu || !cpu->have_fms || strcmp(cpu->vendor, e->vendor) != 0)
                return ERRATUM_NOT_AFFECTED;
        if (cpu->family != e->family || cpu->model < e->model_min || cpu->model > e->model_max)
                return ERRATUM_NOT_AFFECTED;
        if (e->stepping >= 0 && cpu->stepping != (unsigned) e->stepping)
                return ERRATUM_NOT_AFFECTED;
        for (size_t i = 0; i < e->n_fixes; i++)
                if (e->fixes[i].model == cpu->model && e->fixes[i].stepping == cpu->stepping) {
                        listed = true;
                        fixed = e->fixes[i].microcode;
                        break;
                }
        if (e->fixes_only && !listed)
                return ERRATUM_NOT_AFFECTED; /* no documented data: no guess */
        if (ret_fix)
                *ret_fix = fixed;
        if (fixed != 0 && cpu->have_microcode && cpu->microcode >= fixed)
                return ERRATUM_AFFECTED_FIXED;
        return ERRATUM_AFFECTED;
}

static bool models_hold(const ErratumModels *m, size_t n, unsigned model) {
        for (size_t i = 0; i < n; i++)
                if (model >= m[i].min && model <= m[i].max)
                        return true;
        return false;
}

ErratumKernel erratum_kernel_hides(const Erratum *e, const CpuId *cpu) {
        if (!e || !e->kernel_action || !cpu || !cpu->have_fms || strcmp(cpu->vendor, e->vendor) != 0 ||
            cpu->family != e->family)
                return ERRATUM_KERNEL_NONE;
        if (e->kernel_models ? !models_hold(e->kernel_models, e->n_kernel_models, cpu->model)
                             : cpu->model < e->model_min || cpu->model > e->model_max)
                return ERRATUM_KERNEL_NONE;
        if (e->stepping >= 0 && cpu->stepping != (unsigned) e->stepping)
                return ERRATUM_KERNEL_NONE;
        if (!e->kernel_spares_fixed)
                return ERRATUM_KERNEL_HIDES;
        for (size_t i = 0; i < e->n_fixes; i++)
                if (e->fixes[i].model == cpu->model && e->fixes[i].stepping == cpu->stepping) {
                        if (!cpu->have_microcode)
                                return ERRATUM_KERNEL_HIDES_UNLESS_FIXED;
                        return cpu->microcode >= e->fixes[i].microcode ? ERRATUM_KERNEL_NONE : ERRATUM_KERNEL_HIDES;
                }
        return ERRATUM_KERNEL_HIDES; /* a patch level the kernel does not list */
}

const Erratum *errata_kernel_hides(const CpuId *cpu, RngSourceId i, ErratumKernel *ret) {
        for (size_t k = 0; k < errata_table_size; k++) {
                ErratumKernel h;

                if (errata_table[k].instruction != i)
                        continue;
                h = erratum_kernel_hides(&errata_table[k], cpu);
                if (h != ERRATUM_KERNEL_NONE) {
                        if (ret)
                                *ret = h;
                        return &errata_table[k];
                }
        }
        if (ret)
                *ret = ERRATUM_KERNEL_NONE;
        return NULL;
}

bool erratum_symptom_present(const Erratum *e, const ErratumObservation *obs, size_t n_obs) {
        if (!e || !obs)
                return false;
        for (size_t i = 0; i < n_obs; i++) {
                const ErratumObservation *o = &obs[i];

                if (o->instruction != e->instruction)
                        continue;
                if (e->kernel_reason_id &&
                    (o->kernel.state == KERNEL_STATE_DISABLED || o->kernel.state == KERNEL_STATE_HIDDEN) &&
                    o->kernel.reason_id &&
                    strcmp(o->kernel.reason_id, e->kernel_reason_id) == 0)
                        return true;
                if ((ERRATUM_WIDTH_BIT(o->width) & e->widths) && (o->failed & e->symptom))
                        return true;
                if ((ERRATUM_WIDTH_BIT(o->width) & e->widths) && e->symptom_failures && o->failure_rate > 0 &&
                    o->failure_rate >= e->min_failure_rate)
                        return true;
        }
        return false;
}

const Erratum *errata_match(const CpuId *cpu, const ErratumObservation *obs, size_t n_obs) {
        for (size_t i = 0; i < errata_table_size; i++)
                if (erratum_cpu_affected(&errata_table[i], cpu, NULL) == ERRATUM_AFFECTED &&
                    erratum_symptom_present(&errata_table[i], obs, n_obs))
                        return &errata_table[i];
        return NULL;
}

const Erratum *errata_fixed_by_microcode(const CpuId *cpu, uint32_t *ret_fix) {
        for (size_t i = 0; i < errata_table_size; i++)
                if (erratum_cpu_affected(&errata_table[i], cpu, ret_fix) == ERRATUM_AFFECTED_FIXED)
                        return &errata_table[i];
        if (ret_fix)
                *ret_fix = 0;
        return NULL;
}

const Erratum *errata_find(const char *id) {
        if (!id)
                return NULL;
        for (size_t i = 0; i < errata_table_size; i++)
                if (strcmp(errata_table[i].id, id) == 0)
                        return &errata_table[i];
        return NULL;
}

const char *erratum_status_format(const CpuId *cpu, RngSourceId i, char *buf, size_t len) {
        char running[24] = "unknown";

        if (len == 0)
                return buf;
        if (!cpu || !cpu->have_fms) {
                snprintf(buf, len, "unknown");
                return buf;
        }
        if (cpu->have_microcode)
                snprintf(running, sizeof(running), "0x%" PRIx32, cpu->microcode);
        for (size_t k = 0; k < errata_table_size; k++) {
                const Erratum *e = &errata_table[k];
                ErratumMatch m;
                uint32_t fix;

                if (e->instruction != i)
                        continue;
                m = erratum_cpu_affected(e, cpu, &fix);
                if (m == ERRATUM_NOT_AFFECTED)
                        continue;
                if (fix == 0)
                        snprintf(buf, len, "%s: no microcode fix, running %s", e->id, running);
                else if (!cpu->have_microcode)
                        snprintf(buf, len, "%s: fixed in microcode 0x%" PRIx32 ", running unknown", e->id, fix);
                else
                        snprintf(buf, len, "%s: fixed in microcode 0x%" PRIx32 ", running %s: %s", e->id, fix, running,
                                 m == ERRATUM_AFFECTED_FIXED ? "fixed" : "not fixed");
                return buf;
        }
        snprintf(buf, len, "none");
        return buf;
}
