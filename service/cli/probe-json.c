/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "macro.h"
#include "probe-json.h"
#include "probe-summary.h"

/* json_object_object_add() takes ownership; a NULL value becomes JSON null. */
#define ADD(o, k, v) json_object_object_add((o), (k), (v))
#define U64(v) json_object_new_int64((int64_t) (v))
#define DBL(v) json_object_new_double(v)
#define STR(v) ((v) ? json_object_new_string(v) : NULL)

static struct json_object *cpu_set_to_json(const cpu_set_t *s) {
        struct json_object *a = json_object_new_array();

        for (int c = 0; a && c < CPU_SETSIZE; c++)
                if (CPU_ISSET(c, s))
                        json_object_array_add(a, json_object_new_int(c));
        return a;
}

/* Per bit position: ones counted, and which positions failed. */
static struct json_object *bits_to_json(const HealthResult *h) {
        struct json_object *o = json_object_new_object(), *ones = json_object_new_array(),
                           *failed = json_object_new_array();

        if (!o || !ones || !failed) {
                json_object_put(o);
                json_object_put(ones);
                json_object_put(failed);
                return NULL;
        }
        for (unsigned b = 0; b < 64; b++) {
                if (b < h->width)
                        json_object_array_add(ones, U64(h->bit_ones[b]));
                if (h->failed_bits & (UINT64_C(1) << b))
                        json_object_array_add(failed, json_object_new_int((int) b));
        }
        ADD(o, "low_cutoff", U64(h->bit_low_cutoff));
        ADD(o, "high_cutoff", U64(h->bit_high_cutoff));
        ADD(o, "failed_bits", failed);
        ADD(o, "worst_bit", U64(h->worst_bit));
        ADD(o, "worst_bit_ones", U64(h->bit_ones[h->worst_bit & 63]));
        ADD(o, "ones", ones);
        return o;
}

static struct json_object *health_to_json(const HealthResult *h) {
        struct json_object *o = json_object_new_object(), *failed = json_object_new_array();

        if (!o || !failed) {
                json_object_put(o);
                json_object_put(failed);
                return NULL;
        }
        for (unsigned b = 1; b & _HEALTH_CHECK_ALL; b <<= 1)
                if (h->failed & b)
                        json_object_array_add(failed, json_object_new_string(health_check_to_string(b)));
        ADD(o, "passed", json_object_new_boolean(h->failed == 0));
        ADD(o, "failed_checks", failed);
        ADD(o, "samples", U64(h->samples));
        ADD(o, "zeros", U64(h->zeros));
        ADD(o, "zeros_cutoff", U64(h->zeros_cutoff));
        ADD(o, "all_ones", U64(h->all_ones));
        ADD(o, "all_ones_cutoff", U64(h->all_ones_cutoff));
        ADD(o, "repeats", U64(h->repeats));
        ADD(o, "repeats_cutoff", U64(h->repeats_cutoff));
        ADD(o, "rct_cutoff", U64(h->rct_cutoff));
        ADD(o, "rct_longest_run", U64(h->rct_longest_run));
        ADD(o, "rct_failures", U64(h->rct_failures));
        ADD(o, "apt_window", U64(h->apt_window));
        ADD(o, "apt_cutoff", U64(h->apt_cutoff));
        ADD(o, "apt_windows", U64(h->apt_windows));
        ADD(o, "apt_max_count", U64(h->apt_max_count));
        ADD(o, "apt_failures", U64(h->apt_failures));
        ADD(o, "kernel_selftest_changes", U64(h->selftest_changes));
        ADD(o, "bit_balance", bits_to_json(h));
        return o;
}

static struct json_object *window_to_json(const ProbeRun *r) {
        struct json_object *o;

        if (r->mode != PROBE_CONTENTION)
                return NULL;
        o = json_object_new_object();
        if (!o)
                return NULL;
        ADD(o, "span_usec", U64(r->window.span_nsec / 1000));
        ADD(o, "usec", U64(r->window.nsec / 1000));
        ADD(o, "overlap", DBL(r->window.overlap));
        ADD(o, "attempts", U64(r->window.attempts));
        ADD(o, "failures", U64(r->window.failures));
        ADD(o, "delivered", U64(r->window.delivered));
        ADD(o, "kernel_loop_failures", U64(r->window.kernel_loop_failures));
        return o;
}

/* The kernel's exhausted counters' growth over a contention run. */
static struct json_object *kernel_during_to_json(const ProbeRun *r) {
        struct json_object *o;

        if (!r->have_kernel_counters)
                return NULL;
        o = json_object_new_object();
        if (!o)
                return NULL;
        for (int i = 0; i < _RNG_INSTRUCTION_MAX; i++)
                ADD(o, rng_instruction_to_string(i), U64(probe_run_kernel_exhausted(r, i)));
        return o;
}

static struct json_object *run_to_json(const ProbeRun *r) {
        struct json_object *o = json_object_new_object(), *hist = json_object_new_array(),
                           *ci = json_object_new_array(), *lat = NULL;

        if (!o || !hist || !ci) {
                json_object_put(o);
                json_object_put(hist);
                json_object_put(ci);
                return NULL;
        }

        for (unsigned b = 0; b < PROBE_HIST_BUCKETS; b++) {
                struct json_object *e = json_object_new_object();
                uint64_t max = probe_hist_max(b);

                ADD(e, "min_tries", U64(probe_hist_min[b]));
                ADD(e, "max_tries", max == UINT64_MAX ? NULL : U64(max));
                ADD(e, "values", U64(r->hist[b]));
                json_object_array_add(hist, e);
        }
        json_object_array_add(ci, DBL(r->failure_ci_low));
        json_object_array_add(ci, DBL(r->failure_ci_high));

        if (r->latency_samples > 0 && rng_arch_supported()) {
                lat = json_object_new_object();
                ADD(lat, "samples", U64(r->latency_samples));
                ADD(lat, "median", U64(r->latency_median));
                ADD(lat, "p99", U64(r->latency_p99));
        }

        ADD(o, "width", json_object_new_int((int) r->width));
        ADD(o, "mode", STR(probe_mode_to_string(r->mode)));
        ADD(o, "threads", json_object_new_int((int) r->threads));
        ADD(o, "verdict", STR(verdict_to_string(r->verdict)));
        ADD(o, "attempts", U64(r->attempts));
        ADD(o, "failures", U64(r->failures));
        ADD(o, "delivered", U64(r->delivered));
        ADD(o, "failure_rate", DBL(r->failure_rate));
        ADD(o, "failure_rate_ci95", ci);
        ADD(o, "longest_failure_streak", U64(r->longest_failure_streak));
        ADD(o, "trailing_failures", U64(r->trailing_failures));
        ADD(o, "kernel_retries", U64(r->kernel_retries));
        ADD(o, "values_over_kernel_retries", U64(r->values_over_retries));
        ADD(o, "kernel_loop_failures", U64(r->kernel_loop_failures));
        ADD(o, "kernel_loop_failure_rate", DBL(r->kernel_loop_failure_rate));
        ADD(o, "tries_histogram", hist);
        ADD(o, "wall_usec", U64(r->wall_nsec / 1000));
        ADD(o, "window", window_to_json(r));
        ADD(o, "contended", r->mode == PROBE_CONTENTION ? json_object_new_boolean(r->contended) : NULL);
        ADD(o, "kernel_exhausted_during", kernel_during_to_json(r));
        ADD(o, "values_per_sec", DBL(r->values_per_sec));
        ADD(o, "bytes_per_sec", DBL(r->bytes_per_sec));
        ADD(o, "latency_tsc_cycles", lat);
        ADD(o, "health", health_to_json(&r->health));
        return o;
}

/* A documented erratum: id, text, fix and sources; null for none. */
static struct json_object *erratum_to_json(const Erratum *e, uint32_t fixed_microcode, const ProbeReport *r) {
        struct json_object *o;
        char rev[16];

        if (!e)
                return NULL;
        o = json_object_new_object();
        if (!o)
                return NULL;
        ADD(o, "id", STR(e->id));
        ADD(o, "description", STR(e->description));
        ADD(o, "fix", STR(e->fix));
        ADD(o, "sources", STR(e->sources));
        ADD(o, "kernel_action", STR(e->kernel_action));
        if (fixed_microcode) {
                snprintf(rev, sizeof(rev), "0x%" PRIx32, fixed_microcode);
                ADD(o, "fixed_in_microcode", json_object_new_string(rev));
        } else if (r->have_cpu) {
                uint32_t fix = 0;

                /* Whether this CPU's microcode has the fix: null where the
                 * revision is unknown (most VMs) or there is no fix. */
                (void) erratum_cpu_affected(e, &r->cpu, &fix);
                snprintf(rev, sizeof(rev), "0x%" PRIx32, fix);
                ADD(o, "microcode_fix", fix ? json_object_new_string(rev) : NULL);
                ADD(o, "microcode_fixed", fix && r->cpu.have_microcode ? json_object_new_boolean(r->cpu.microcode >= fix)
                                                                       : NULL);
        }
        return o;
}

static struct json_object *cpu_to_json(const ProbeReport *r) {
        struct json_object *o;
        char rev[16];

        if (!r->have_cpu)
                return NULL;
        o = json_object_new_object();
        if (!o)
                return NULL;
        ADD(o, "vendor", r->cpu.vendor[0] ? STR(r->cpu.vendor) : NULL);
        ADD(o, "family", r->cpu.have_fms ? U64(r->cpu.family) : NULL);
        ADD(o, "model", r->cpu.have_fms ? U64(r->cpu.model) : NULL);
        ADD(o, "stepping", r->cpu.have_fms ? U64(r->cpu.stepping) : NULL);
        snprintf(rev, sizeof(rev), "0x%" PRIx32, r->cpu.microcode);
        ADD(o, "microcode", r->cpu.have_microcode ? json_object_new_string(rev) : NULL);
        return o;
}

static struct json_object *cpus_to_json(const ProbeCpus *c) {
        struct json_object *cpus = json_object_new_object();

        ADD(cpus, "possible", cpu_set_to_json(&c->possible));
        ADD(cpus, "online", cpu_set_to_json(&c->online));
        ADD(cpus, "allowed", cpu_set_to_json(&c->allowed));
        ADD(cpus, "used", cpu_set_to_json(&c->used));
        ADD(cpus, "skipped_offline", cpu_set_to_json(&c->skipped_offline));
        ADD(cpus, "skipped_forbidden", cpu_set_to_json(&c->skipped_forbidden));
        ADD(cpus, "skipped_pin_failed", cpu_set_to_json(&c->skipped_pin_failed));
        ADD(cpus, "contention", json_object_new_boolean(c->contention));
        return cpus;
}

static struct json_object *kernel_state_to_json(const KernelInstructionState *s) {
        struct json_object *k = json_object_new_object();

        ADD(k, "state", STR(kernel_state_kind_to_string(s->state)));
        ADD(k, "reason_id", STR(s->reason_id));
        ADD(k, "reason", STR(s->reason));
        ADD(k, "reason_source", STR(kernel_reason_source_to_string(s->reason_source)));
        return k;
}

int probe_report_to_json(const ProbeReport *r, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = json_object_new_object();
        struct json_object *params, *instrs, *health, *verdict;

        if (!o)
                return -ENOMEM;

        ADD(o, "schema", json_object_new_string(PROBE_JSON_SCHEMA));
        ADD(o, "kind", json_object_new_string("probe"));
        ADD(o, "verdict", STR(verdict_to_string(r->verdict)));
        ADD(o, "exit_code", json_object_new_int(verdict_exit_code(r->verdict)));
        ADD(o, "arch_supported", json_object_new_boolean(r->arch_supported));
        ADD(o, "kernel_log", STR(kernel_log_state_to_string(r->kernel_log)));
        ADD(o, "wall_usec", U64(r->wall_nsec / 1000));
        ADD(o, "cpu", cpu_to_json(r));

        params = json_object_new_object();
        ADD(params, "budget_usec", r->limits.budget_usec ? U64(r->limits.budget_usec) : NULL);
        ADD(params, "max_attempts", r->limits.max_attempts ? U64(r->limits.max_attempts) : NULL);
        ADD(params, "min_attempts", U64(r->limits.min_attempts));
        health = json_object_new_object();
        ADD(health, "log2_alpha", DBL(r->health.log2_alpha));
        ADD(health, "entropy_per_bit", DBL(r->health.entropy_per_bit));
        ADD(health, "apt_window", U64(r->health.apt_window));
        ADD(params, "health", health);
        verdict = json_object_new_object();
        ADD(verdict, "kernel_retries", r->verdict_params.kernel_retries ? U64(r->verdict_params.kernel_retries) : NULL);
        ADD(verdict, "degraded_min_failures", U64(r->verdict_params.degraded_min_failures));
        ADD(verdict, "exhausted_min_loop_failures", U64(r->verdict_params.exhausted_min_loop_failures));
        ADD(params, "verdict", verdict);
        ADD(o, "params", params);

        ADD(o, "cpus", cpus_to_json(&r->cpus));

        instrs = json_object_new_array();
        if (!instrs)
                return -ENOMEM;
        ADD(o, "instructions", instrs);
        for (int i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                const ProbeInstruction *in = &r->instr[i];
                struct json_object *e, *k, *runs, *contention;

                if (!in->selected)
                        continue;
                e = json_object_new_object();
                k = kernel_state_to_json(&in->kernel);
                runs = json_object_new_array();
                contention = json_object_new_object();
                if (!e || !k || !runs || !contention) {
                        json_object_put(e);
                        json_object_put(k);
                        json_object_put(runs);
                        json_object_put(contention);
                        return -ENOMEM;
                }
                ADD(e, "name", STR(rng_instruction_to_string(i)));
                ADD(e, "cpuid", json_object_new_boolean(in->cpuid));
                ADD(e, "executed", json_object_new_boolean(in->n_runs > 0));
                ADD(e, "verdict", STR(verdict_to_string(in->verdict)));
                ADD(e, "hardware_verdict", STR(verdict_to_string(in->hardware_verdict)));
                ADD(contention, "runs", U64(in->contention_runs));
                ADD(contention, "contended", U64(in->contended_runs));
                ADD(e, "contention", contention);
                ADD(k, "retries", U64(in->kernel_retries));
                ADD(k, "retries_source", STR(kernel_retries_source_to_string(in->kernel_retries_source)));
                ADD(k, "retries_why", STR(in->kernel_retries_why));
                ADD(e, "kernel", k);
                ADD(e, "erratum", erratum_to_json(in->erratum, 0, r));
                ADD(e, "erratum_fixed", erratum_to_json(in->erratum_fixed, in->erratum_fixed_microcode, r));
                for (unsigned j = 0; j < in->n_runs; j++) {
                        struct json_object *rj = run_to_json(&in->runs[j]);
                        if (!rj) {
                                json_object_put(runs);
                                json_object_put(e);
                                return -ENOMEM;
                        }
                        json_object_array_add(runs, rj);
                }
                ADD(e, "runs", runs);
                json_object_array_add(instrs, e);
        }

        *ret = TAKE_PTR(o);
        return 0;
}

/* One point of a sweep: the contention run at one thread count. */
static struct json_object *sweep_point_to_json(const ProbeRun *r) {
        struct json_object *o = json_object_new_object(), *ci = json_object_new_array();

        if (!o || !ci) {
                json_object_put(o);
                json_object_put(ci);
                return NULL;
        }
        json_object_array_add(ci, DBL(r->failure_ci_low));
        json_object_array_add(ci, DBL(r->failure_ci_high));
        ADD(o, "threads", json_object_new_int((int) r->threads));
        ADD(o, "attempts", U64(r->attempts));
        ADD(o, "failures", U64(r->failures));
        ADD(o, "delivered", U64(r->delivered));
        ADD(o, "failure_rate", DBL(r->failure_rate));
        ADD(o, "failure_rate_ci95", ci);
        ADD(o, "kernel_loop_failure_rate", DBL(r->kernel_loop_failure_rate));
        ADD(o, "values_per_sec", DBL(r->values_per_sec));
        ADD(o, "bytes_per_sec", DBL(r->bytes_per_sec));
        ADD(o, "overlap", DBL(r->window.overlap));
        ADD(o, "contended", json_object_new_boolean(r->contended));
        ADD(o, "wall_usec", U64(r->wall_nsec / 1000));
        ADD(o, "window", window_to_json(r));
        ADD(o, "health_passed", json_object_new_boolean(r->health.failed == 0));
        ADD(o, "kernel_exhausted_during", kernel_during_to_json(r));
        return o;
}

int probe_sweep_to_json(const ProbeSweepReport *r, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = json_object_new_object();
        struct json_object *params, *instrs, *sweeps;

        if (!o)
                return -ENOMEM;
        ADD(o, "schema", json_object_new_string(PROBE_JSON_SCHEMA));
        ADD(o, "kind", json_object_new_string("sweep"));
        ADD(o, "wall_usec", U64(r->wall_nsec / 1000));
        params = json_object_new_object();
        ADD(params, "budget_usec", r->limits.budget_usec ? U64(r->limits.budget_usec) : NULL);
        ADD(params, "max_attempts", r->limits.max_attempts ? U64(r->limits.max_attempts) : NULL);
        ADD(params, "min_attempts", U64(r->limits.min_attempts));
        ADD(o, "params", params);
        ADD(o, "cpus", cpus_to_json(&r->cpus));

        instrs = json_object_new_array();
        sweeps = json_object_new_array();
        if (!instrs || !sweeps) {
                json_object_put(instrs);
                json_object_put(sweeps);
                return -ENOMEM;
        }
        ADD(o, "instructions", instrs);
        ADD(o, "sweeps", sweeps);
        for (int i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                struct json_object *e;

                if (!r->selected[i])
                        continue;
                e = json_object_new_object();
                if (!e)
                        return -ENOMEM;
                ADD(e, "name", STR(rng_instruction_to_string(i)));
                ADD(e, "cpuid", json_object_new_boolean(r->presence[i].cpuid));
                ADD(e, "executed", json_object_new_boolean(r->presence[i].executes));
                ADD(e, "kernel", kernel_state_to_json(&r->kernel[i]));
                json_object_array_add(instrs, e);
        }
        for (unsigned k = 0; k < r->n_sweeps; k++) {
                const ProbeSweep *sw = &r->sweeps[k];
                struct json_object *e = json_object_new_object(), *points = json_object_new_array();

                if (!e || !points) {
                        json_object_put(e);
                        json_object_put(points);
                        return -ENOMEM;
                }
                ADD(e, "instruction", STR(rng_instruction_to_string(sw->instruction)));
                ADD(e, "width", json_object_new_int((int) sw->width));
                ADD(e, "kernel_retries", U64(sw->kernel_retries));
                ADD(e, "points", points);
                json_object_array_add(sweeps, e);
                for (unsigned j = 0; j < sw->n_points; j++) {
                        struct json_object *pt = sweep_point_to_json(&sw->points[j]);

                        if (!pt)
                                return -ENOMEM;
                        json_object_array_add(points, pt);
                }
        }
        *ret = TAKE_PTR(o);
        return 0;
}
