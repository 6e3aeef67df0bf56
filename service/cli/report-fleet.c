/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "journal-sender.h"
#include "macro.h"
#include "report-fleet.h"

/* Machines by their ID, for many machines (open addressing). */
typedef struct MachineIndex {
        size_t *slots, size;
} MachineIndex;

static size_t machine_hash(sd_id128_t id, size_t size) {
        uint64_t h;

        memcpy(&h, id.bytes + 8, sizeof(h)); /* machine IDs are random */
        return (size_t) (h ^ (h >> 31)) & (size - 1);
}

/* The machine of boot b: found, or added to f. NULL on -ENOMEM. */
static FleetMachine *machine_for(Fleet *f, MachineIndex *ix, const ReportBoot *b) {
        size_t k;

        for (k = machine_hash(b->machine_id, ix->size); ix->slots[k] != SIZE_MAX; k = (k + 1) & (ix->size - 1))
                if (sd_id128_equal(f->machines[ix->slots[k]].machine_id, b->machine_id))
                        return &f->machines[ix->slots[k]];
        ix->slots[k] = f->n;
        f->machines[f->n] = (FleetMachine) { .machine_id = b->machine_id };
        return &f->machines[f->n++];
}

static int verdict_index(const char *v) {
        int k = v && v[0] ? verdict_from_string(v) : -EINVAL;

        return k >= 0 ? k : _VERDICT_MAX;
}

/* The verdict of source i on machine m: its latest probe result's; one
 * the CPU lacks is unsupported; _VERDICT_MAX: none known. */
int machine_verdict(const FleetMachine *m, RngSourceId i) {
        const ReportInstruction *in;

        if (m->probed[i])
                return verdict_index(m->probed[i]->instr[i].verdict);
        in = &m->latest->instr[i];
        if (in->seen && strcmp(in->unavailable, "cpuid") == 0)
                return VERDICT_UNSUPPORTED;
        return _VERDICT_MAX;
}

static const char *verdict_name(int k) {
        return k < _VERDICT_MAX ? verdict_to_string(k) : "n/a";
}

static bool same_cpu(const ReportCpu *a, const ReportCpu *b) {
        if (!a || !b)
                return a == b;
        return strcmp(a->vendor, b->vendor) == 0 && strcmp(a->family, b->family) == 0 &&
               strcmp(a->model, b->model) == 0 && strcmp(a->stepping, b->stepping) == 0 &&
               strcmp(a->microcode, b->microcode) == 0;
}

static int cmp_machines(const void *x, const void *y) {
        const FleetMachine *a = x, *b = y;
        int c = strcmp(a->hostname, b->hostname);

        return c ? c : memcmp(a->machine_id.bytes, b->machine_id.bytes, 16);
}

static int cmp_groups(const void *x, const void *y) {
        const FleetGroup *a = x, *b = y;

        return a->machines != b->machines ? (a->machines < b->machines ? 1 : -1) : 0;
}

/* Each machine's group (CPU model and microcode), counted. */
static int build_groups(Fleet *f) {
        _cleanup_free_ size_t *order = NULL;

        f->groups = calloc(MAX(f->n, 1u), sizeof(FleetGroup));
        if (!f->groups)
                return -ENOMEM;
        for (size_t i = 0; i < f->n; i++) {
                FleetMachine *m = &f->machines[i];
                size_t g;

                /* few groups in a fleet: a linear search */
                for (g = 0; g < f->n_groups && !same_cpu(f->groups[g].cpu, m->cpu); g++)
                        ;
                if (g == f->n_groups)
                        f->groups[f->n_groups++] = (FleetGroup) { .cpu = m->cpu };
                m->group = g;
                f->groups[g].machines++;
                FOREACH_RNG_SOURCE(k) {
                        int v = machine_verdict(m, k);

                        f->groups[g].verdicts[k][v]++;
                        f->verdicts[k][v]++;
                        f->shown[k] |= v != _VERDICT_MAX;
                }
        }
        /* most machines first; the machines' indexes follow */
        order = calloc(MAX(f->n_groups, 1u), sizeof(size_t));
        if (!order)
                return -ENOMEM;
        for (size_t g = 0; g < f->n_groups; g++)
                order[g] = g;
        for (size_t a = 1; a < f->n_groups; a++) /* stable insertion sort by count */
                for (size_t b = a; b > 0 && cmp_groups(&f->groups[order[b - 1]], &f->groups[order[b]]) > 0; b--) {
                        size_t t = order[b];

                        order[b] = order[b - 1];
                        order[b - 1] = t;
                }
        {
                _cleanup_free_ FleetGroup *sorted = calloc(MAX(f->n_groups, 1u), sizeof(FleetGroup));
                _cleanup_free_ size_t *rank = calloc(MAX(f->n_groups, 1u), sizeof(size_t));

                if (!sorted || !rank)
                        return -ENOMEM;
                for (size_t g = 0; g < f->n_groups; g++) {
                        sorted[g] = f->groups[order[g]];
                        rank[order[g]] = g;
                }
                memcpy(f->groups, sorted, f->n_groups * sizeof(FleetGroup));
                for (size_t i = 0; i < f->n; i++)
                        f->machines[i].group = rank[f->machines[i].group];
        }
        return 0;
}

int fleet_build(const Report *r, Fleet *ret) {
        _cleanup_(fleet_done) Fleet f = { .report = r };
        _cleanup_free_ size_t *slots = NULL;
        MachineIndex ix = {};
        int k;

        *ret = (Fleet) {};
        for (ix.size = 64; ix.size < 2 * (r->n_boots + 1); ix.size *= 2)
                ;
        slots = ix.slots = malloc(ix.size * sizeof(size_t));
        f.machines = calloc(MAX(r->n_boots, 1u), sizeof(FleetMachine));
        if (!slots || !f.machines)
                return -ENOMEM;
        for (size_t k2 = 0; k2 < ix.size; k2++)
                slots[k2] = SIZE_MAX;

        for (size_t i = 0; i < r->n_boots; i++) {
                const ReportBoot *b = &r->boots[i];
                FleetMachine *m = machine_for(&f, &ix, b);

                m->boots++;
                if (!m->latest || b->last_usec >= m->last_usec) {
                        m->latest = b;
                        m->last_usec = b->last_usec;
                }
                FOREACH_RNG_SOURCE(s)
                        if (b->instr[s].results > 0 &&
                            (!m->probed[s] || b->instr[s].last_usec >= m->probed[s]->instr[s].last_usec))
                                m->probed[s] = b;
        }
        for (size_t i = 0; i < f.n; i++) {
                FleetMachine *m = &f.machines[i];
                uint64_t when = 0;

                m->hostname = m->latest->hostname;
                /* the CPU of its latest probe result that named one */
                FOREACH_RNG_SOURCE(s)
                        if (m->probed[s] && m->probed[s]->cpu.vendor[0] && m->probed[s]->instr[s].last_usec >= when) {
                                m->cpu = &m->probed[s]->cpu;
                                when = m->probed[s]->instr[s].last_usec;
                        }
        }
        qsort(f.machines, f.n, sizeof(FleetMachine), cmp_machines);
        k = build_groups(&f);
        if (k < 0)
                return k;
        *ret = f;
        f = (Fleet) {};
        return 0;
}

void fleet_done(Fleet *f) {
        free(f->machines);
        free(f->groups);
        *f = (Fleet) {};
}

/* "AuthenticAMD 0x1a/0x2/0x1"; "unknown" */
static const char *cpu_id_text(const ReportCpu *c, char *buf, size_t len) {
        if (!c || !c->vendor[0])
                snprintf(buf, len, "unknown");
        else
                snprintf(buf, len, "%s %s/%s/%s", c->vendor, c->family[0] ? c->family : "?", c->model[0] ? c->model : "?",
                         c->stepping[0] ? c->stepping : "?");
        return buf;
}

static const char *format_time(uint64_t usec, char *buf, size_t len) {
        time_t t = (time_t) (usec / 1000000);
        struct tm tm;

        if (usec == 0 || !localtime_r(&t, &tm) || strftime(buf, len, "%Y-%m-%d %H:%M:%S %Z", &tm) == 0)
                snprintf(buf, len, "n/a");
        return buf;
}

/* "exhausted 2, ok 1": worst first, the unknown last */
static void verdict_counts(const unsigned *counts, char *buf, size_t len) {
        size_t at = 0;

        buf[0] = '\0';
        for (int v = _VERDICT_MAX - 1; v >= -1 && at < len; v--) {
                int idx = v < 0 ? _VERDICT_MAX : v;
                int w;

                if (counts[idx] == 0)
                        continue;
                w = snprintf(buf + at, len - at, "%s%s %u", at ? ", " : "", verdict_name(idx), counts[idx]);
                at += w > 0 ? (size_t) w : 0;
        }
        if (!buf[0])
                snprintf(buf, len, "-");
}

void fleet_print(const Fleet *f, FILE *out) {
        int w_host = 8, w_cpu = 3, w_ucode = 9, w_kernel = 6;
        char id[SD_ID128_STRING_MAX], cpu[96], t[64];

        if (f->n == 0) {
                fputs("No rng-health events in the journal.\n", out);
                return;
        }
        for (size_t i = 0; i < f->n; i++) {
                const FleetMachine *m = &f->machines[i];

                w_host = MAX(w_host, (int) strlen(m->hostname));
                w_cpu = MAX(w_cpu, (int) strlen(cpu_id_text(m->cpu, cpu, sizeof(cpu))));
                w_ucode = MAX(w_ucode, m->cpu ? (int) strlen(m->cpu->microcode) : 0);
                w_kernel = MAX(w_kernel, m->cpu ? (int) strlen(m->cpu->kernel_release) : 0);
        }
        fprintf(out, "%-12s  %-*s", "MACHINE", w_host, "HOSTNAME");
        FOREACH_RNG_SOURCE(s)
                if (f->shown[s])
                        fprintf(out, "  %-11s", rng_source_display_name(s));
        fprintf(out, "  %-*s  %-*s  %-*s  %s\n", w_cpu, "CPU", w_ucode, "MICROCODE", w_kernel, "KERNEL", "LAST EVENT");
        for (size_t i = 0; i < f->n; i++) {
                const FleetMachine *m = &f->machines[i];

                fprintf(out, "%-12.12s  %-*s", sd_id128_is_null(m->machine_id) ? "unknown" : sd_id128_to_string(m->machine_id, id),
                        w_host, m->hostname[0] ? m->hostname : "-");
                FOREACH_RNG_SOURCE(s)
                        if (f->shown[s])
                                fprintf(out, "  %-11s", verdict_name(machine_verdict(m, s)));
                fprintf(out, "  %-*s  %-*s  %-*s  %s\n", w_cpu, cpu_id_text(m->cpu, cpu, sizeof(cpu)), w_ucode,
                        m->cpu && m->cpu->microcode[0] ? m->cpu->microcode : "unknown", w_kernel,
                        m->cpu && m->cpu->kernel_release[0] ? m->cpu->kernel_release : "unknown",
                        format_time(m->last_usec, t, sizeof(t)));
        }

        fprintf(out, "\n%zu machine%s.\n\nBy verdict (machines):\n", f->n, f->n == 1 ? "" : "s");
        FOREACH_RNG_SOURCE(s) {
                char counts[256];

                if (!f->shown[s])
                        continue;
                verdict_counts(f->verdicts[s], counts, sizeof(counts));
                fprintf(out, "  %-10s %s\n", rng_source_display_name(s), counts);
        }
        fprintf(out, "\nBy CPU model and microcode:\n  %8s  %-*s  %-*s", "MACHINES", w_cpu, "CPU", w_ucode, "MICROCODE");
        FOREACH_RNG_SOURCE(s)
                if (f->shown[s])
                        fprintf(out, "  %-24s", rng_source_display_name(s));
        fputs("  MODEL NAME\n", out);
        for (size_t g = 0; g < f->n_groups; g++) {
                const FleetGroup *gr = &f->groups[g];

                fprintf(out, "  %8u  %-*s  %-*s", gr->machines, w_cpu, cpu_id_text(gr->cpu, cpu, sizeof(cpu)), w_ucode,
                        gr->cpu && gr->cpu->microcode[0] ? gr->cpu->microcode : "unknown");
                FOREACH_RNG_SOURCE(s) {
                        char counts[256];

                        if (!f->shown[s])
                                continue;
                        verdict_counts(gr->verdicts[s], counts, sizeof(counts));
                        fprintf(out, "  %-24s", counts);
                }
                fprintf(out, "  %s\n", gr->cpu && gr->cpu->model_name[0] ? gr->cpu->model_name : "-");
        }
        if (f->report->foreign > 0)
                fprintf(out, "\n%u entr%s from other senders ignored (not from %s, see rng-health(8))\n", f->report->foreign,
                        f->report->foreign == 1 ? "y" : "ies", RNG_HEALTH_UNIT);
}

/* Mean ratio per (source, width, threads) over a group's machines. */
typedef struct RateSum {
        unsigned width, threads;
        double sum;
        unsigned n;
} RateSum;

#define FLEET_RATE_SUMS 256

static void add_rate(RateSum *sums, unsigned *n, unsigned width, unsigned threads, double ratio) {
        for (unsigned k = 0; k < *n; k++)
                if (sums[k].width == width && sums[k].threads == threads) {
                        sums[k].sum += ratio;
                        sums[k].n++;
                        return;
                }
        if (*n < FLEET_RATE_SUMS)
                sums[(*n)++] = (RateSum) { width, threads, ratio, 1 };
}

size_t fleet_panels(const Fleet *f, PlotPanel *panels, char *note, size_t len) {
        size_t n = 0, left_out = 0;
        bool cut = false;

        note[0] = '\0';
        for (size_t g = 0; g < f->n_groups; g++) {
                const FleetGroup *gr = &f->groups[g];
                PlotPanel *p;
                char cpu[96];

                if (n >= PLOT_PANELS_MAX) {
                        left_out++;
                        continue;
                }
                p = &panels[n];
                *p = (PlotPanel) {};
                snprintf(p->title, sizeof(p->title), "%s, microcode %s: %u machine%s%s%s%s", cpu_id_text(gr->cpu, cpu, sizeof(cpu)),
                         gr->cpu && gr->cpu->microcode[0] ? gr->cpu->microcode : "unknown", gr->machines,
                         gr->machines == 1 ? "" : "s", gr->cpu && gr->cpu->model_name[0] ? " (" : "",
                         gr->cpu ? gr->cpu->model_name : "", gr->cpu && gr->cpu->model_name[0] ? ")" : "");
                FOREACH_RNG_SOURCE(s) {
                        RateSum sums[FLEET_RATE_SUMS];
                        unsigned n_sums = 0;

                        for (size_t i = 0; i < f->n; i++) {
                                const FleetMachine *m = &f->machines[i];
                                const ReportInstruction *in;

                                if (m->group != g || !m->probed[s])
                                        continue;
                                in = &m->probed[s]->instr[s];
                                for (unsigned k = 0; k < in->n_rates; k++)
                                        add_rate(sums, &n_sums, in->rates[k].width, in->rates[k].threads, in->rates[k].ratio);
                        }
                        for (int w = 0; w < RNG_N_WIDTHS; w++) {
                                PlotSeries *ser = NULL;

                                for (unsigned k = 0; k < n_sums; k++) {
                                        if (sums[k].width != rng_widths[w])
                                                continue;
                                        if (!ser) {
                                                if (p->n_series >= PLOT_SERIES_MAX) {
                                                        cut = true;
                                                        break;
                                                }
                                                ser = &p->series[p->n_series++];
                                                *ser = (PlotSeries) {};
                                                snprintf(ser->label, sizeof(ser->label), "%s %u-bit",
                                                         rng_source_display_name(s), rng_widths[w]);
                                                /* one color per source and width, in every panel */
                                                ser->color = s * RNG_N_WIDTHS + w;
                                        }
                                        if (plot_series_add(ser, sums[k].threads, sums[k].sum / sums[k].n) == -E2BIG)
                                                cut = true;
                                }
                        }
                }
                if (p->n_series > 0)
                        n++;
        }
        if (left_out > 0 || cut)
                snprintf(note, len, "%zu CPU model/microcode group%s not drawn (at most %d panels)%s", left_out,
                         left_out == 1 ? "" : "s", PLOT_PANELS_MAX,
                         cut ? "; some runs left out (too many thread counts or series)" : "");
        else
                snprintf(note, len, "Each point: the mean failure ratio, over the machines of the model that ran it, of their latest probe's runs at that many threads.");
        return n;
}
