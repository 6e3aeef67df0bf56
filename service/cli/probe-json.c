/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <stdio.h>
#include <string.h>

#include "json-util.h"
#include "macro.h"
#include "probe-json-run.h"
#include "fail-on.h"
#include "probe-json.h"
#include "probe-summary.h"

static int cpu_set_to_json(const cpu_set_t *s, struct json_object **ret) {
        _cleanup_json_ struct json_object *a = NULL;
        int r;

        r = json_new_array(&a);
        if (r < 0)
                return r;
        for (int c = 0; c < CPU_SETSIZE; c++)
                if (CPU_ISSET(c, s))
                        JSON_ADD(a, NULL, json_object_new_int(c));
        *ret = TAKE_PTR(a);
        return 0;
}

static struct json_object *revision_to_json(uint32_t rev) {
        char buf[16];

        snprintf(buf, sizeof(buf), "0x%" PRIx32, rev);
        return json_object_new_string(buf);
}

/* A documented erratum: id, text, fix and sources; *ret NULL (JSON null)
 * for none. */
static int erratum_to_json(const Erratum *e, uint32_t fixed_microcode, const ProbeReport *r, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL;
        int k;

        *ret = NULL;
        if (!e)
                return 0;
        k = json_new_object(&o);
        if (k < 0)
                return k;
        JSON_ADD(o, "id", JSON_STR(e->id));
        JSON_ADD(o, "description", JSON_STR(e->description));
        JSON_ADD(o, "fix", JSON_STR(e->fix));
        JSON_ADD(o, "sources", JSON_STR(e->sources));
        JSON_ADD(o, "kernel_action", JSON_STR(e->kernel_action));
        if (fixed_microcode)
                JSON_ADD(o, "fixed_in_microcode", revision_to_json(fixed_microcode));
        else if (r->have_cpu) {
                uint32_t fix = 0;

                /* Whether this CPU's microcode has the fix: null where the
                 * revision is unknown (most VMs) or there is no fix. */
                (void) erratum_cpu_affected(e, &r->cpu, &fix);
                JSON_ADD(o, "microcode_fix", fix ? revision_to_json(fix) : NULL);
                JSON_ADD(o, "microcode_fixed",
                         fix && r->cpu.have_microcode ? json_object_new_boolean(r->cpu.microcode >= fix) : NULL);
        }
        *ret = TAKE_PTR(o);
        return 0;
}

/* The CPU's identity; *ret NULL (JSON null) when unknown. */
static int cpu_to_json(const ProbeReport *r, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL;
        int k;

        *ret = NULL;
        if (!r->have_cpu)
                return 0;
        k = json_new_object(&o);
        if (k < 0)
                return k;
        JSON_ADD(o, "vendor", r->cpu.vendor[0] ? JSON_STR(r->cpu.vendor) : NULL);
        JSON_ADD(o, "family", r->cpu.have_fms ? JSON_U64(r->cpu.family) : NULL);
        JSON_ADD(o, "model", r->cpu.have_fms ? JSON_U64(r->cpu.model) : NULL);
        JSON_ADD(o, "stepping", r->cpu.have_fms ? JSON_U64(r->cpu.stepping) : NULL);
        JSON_ADD(o, "microcode", r->cpu.have_microcode ? revision_to_json(r->cpu.microcode) : NULL);
        JSON_ADD(o, "model_name", r->cpu.model_name[0] ? JSON_STR(r->cpu.model_name) : NULL);
        *ret = TAKE_PTR(o);
        return 0;
}

/* The used CPUs' packages: [{ "id": 0, "cpus": [0, 1] }, ...]; null where
 * the topology is unknown. */
static int packages_to_json(const ProbeCpus *c, struct json_object **ret) {
        _cleanup_json_ struct json_object *a = NULL;
        int k;

        *ret = NULL;
        if (c->n_packages == 0)
                return 0;
        k = json_new_array(&a);
        if (k < 0)
                return k;
        for (unsigned p = 0; p < c->n_packages; p++) {
                _cleanup_json_ struct json_object *o = NULL, *cpus = NULL;

                if ((k = json_new_object(&o)) < 0 || (k = cpu_set_to_json(&c->package_cpus[p], &cpus)) < 0)
                        return k;
                JSON_ADD(o, "id", json_object_new_int(c->package_id[p]));
                JSON_ADD(o, "cpus", TAKE_PTR(cpus));
                JSON_ADD(a, NULL, TAKE_PTR(o));
        }
        *ret = TAKE_PTR(a);
        return 0;
}

static int cpus_to_json(const ProbeCpus *c, struct json_object **ret) {
        static const struct {
                const char *name;
                size_t offset;
        } sets[] = {
                { "possible", offsetof(ProbeCpus, possible) },
                { "online", offsetof(ProbeCpus, online) },
                { "allowed", offsetof(ProbeCpus, allowed) },
                { "used", offsetof(ProbeCpus, used) },
                { "skipped_offline", offsetof(ProbeCpus, skipped_offline) },
                { "skipped_forbidden", offsetof(ProbeCpus, skipped_forbidden) },
                { "skipped_pin_failed", offsetof(ProbeCpus, skipped_pin_failed) },
        };
        _cleanup_json_ struct json_object *cpus = NULL, *packages = NULL;
        int k;

        k = json_new_object(&cpus);
        if (k < 0)
                return k;
        for (size_t i = 0; i < ELEMENTSOF(sets); i++) {
                struct json_object *a = NULL;

                k = cpu_set_to_json((const cpu_set_t *) ((const char *) c + sets[i].offset), &a);
                if (k < 0)
                        return k;
                JSON_ADD(cpus, sets[i].name, a);
        }
        JSON_ADD(cpus, "contention", json_object_new_boolean(c->contention));
        k = packages_to_json(c, &packages);
        if (k < 0)
                return k;
        JSON_ADD(cpus, "packages", TAKE_PTR(packages));
        JSON_ADD(cpus, "topology_error", c->topology_error < 0 ? JSON_STR(strerror(-c->topology_error)) : NULL);
        *ret = TAKE_PTR(cpus);
        return 0;
}

static int kernel_state_to_json(const KernelSourceState *s, struct json_object **ret) {
        _cleanup_json_ struct json_object *k = NULL;
        int r;

        r = json_new_object(&k);
        if (r < 0)
                return r;
        JSON_ADD(k, "state", JSON_STR(kernel_state_kind_to_string(s->state)));
        JSON_ADD(k, "reason_id", JSON_STR(s->reason_id));
        JSON_ADD(k, "reason", JSON_STR(s->reason));
        JSON_ADD(k, "reason_source", JSON_STR(kernel_reason_source_to_string(s->reason_source)));
        *ret = TAKE_PTR(k);
        return 0;
}

/* What the kernel credits of the source; null where not read. */
static int credit_to_json(const KernelCredit *c, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL;
        int r;

        *ret = NULL;
        if (!c->known && !c->device[0])
                return 0;
        r = json_new_object(&o);
        if (r < 0)
                return r;
        JSON_ADD(o, "credited", c->known ? json_object_new_boolean(c->credited) : NULL);
        JSON_ADD(o, "quality", c->known ? JSON_U64(c->quality) : NULL);
        JSON_ADD(o, "host_fed", json_object_new_boolean(c->host_fed));
        JSON_ADD(o, "device", c->device[0] ? JSON_STR(c->device) : NULL);
        JSON_ADD(o, "available", c->available[0] ? JSON_STR(c->available) : NULL);
        JSON_ADD(o, "why", JSON_STR(c->why));
        *ret = TAKE_PTR(o);
        return 0;
}

/* This boot's CRNG from the kernel log; null where it was not read. */
static int crng_to_json(const KernelBootLog *b, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL;
        int r;

        *ret = NULL;
        if (!b->read)
                return 0;
        r = json_new_object(&o);
        if (r < 0)
                return r;
        JSON_ADD(o, "ready", json_object_new_boolean(b->crng_ready));
        JSON_ADD(o, "init_usec", b->crng_ready ? JSON_U64(b->crng_ready_usec) : NULL);
        JSON_ADD(o, "stage", b->crng_ready ? JSON_STR(kernel_crng_stage_to_string(b->crng_stage)) : NULL);
        JSON_ADD(o, "efi_seed", json_object_new_boolean(b->efi_seed));
        JSON_ADD(o, "vm_forks", JSON_U64(b->vm_forks));
        *ret = TAKE_PTR(o);
        return 0;
}

/* The run's budget: the probe's and the sweep's "params" start alike. */
static int limits_to_json(const ProbeLimits *l, struct json_object **ret) {
        _cleanup_json_ struct json_object *params = NULL;
        int k;

        k = json_new_object(&params);
        if (k < 0)
                return k;
        JSON_ADD(params, "budget_usec", l->budget_usec ? JSON_U64(l->budget_usec) : NULL);
        JSON_ADD(params, "max_attempts", l->max_attempts ? JSON_U64(l->max_attempts) : NULL);
        JSON_ADD(params, "min_attempts", JSON_U64(l->min_attempts));
        JSON_ADD(params, "device_budget_usec", JSON_U64(probe_limits_device_usec(l)));
        JSON_ADD(params, "device_max_bytes", JSON_U64(probe_limits_device_bytes(l)));
        *ret = TAKE_PTR(params);
        return 0;
}

static int params_to_json(const ProbeReport *r, struct json_object **ret) {
        _cleanup_json_ struct json_object *params = NULL, *health = NULL, *verdict = NULL;
        int k;

        if ((k = limits_to_json(&r->limits, &params)) < 0 || (k = json_new_object(&health)) < 0 ||
            (k = json_new_object(&verdict)) < 0)
                return k;
        JSON_ADD(health, "log2_alpha", JSON_DBL(r->health.log2_alpha));
        JSON_ADD(health, "entropy_per_bit", JSON_DBL(r->health.entropy_per_bit));
        JSON_ADD(health, "apt_window", JSON_U64(r->health.apt_window));
        JSON_ADD(params, "health", TAKE_PTR(health));
        JSON_ADD(verdict, "kernel_retries",
                 r->verdict_params.kernel_retries ? JSON_U64(r->verdict_params.kernel_retries) : NULL);
        JSON_ADD(verdict, "degraded_min_failures", JSON_U64(r->verdict_params.degraded_min_failures));
        JSON_ADD(verdict, "exhausted_min_loop_failures", JSON_U64(r->verdict_params.exhausted_min_loop_failures));
        JSON_ADD(params, "verdict", TAKE_PTR(verdict));
        *ret = TAKE_PTR(params);
        return 0;
}

static int instruction_to_json(const ProbeReport *r, const ProbeSourceResult *in, struct json_object **ret) {
        _cleanup_json_ struct json_object *e = NULL, *k = NULL, *runs = NULL, *contention = NULL, *erratum = NULL,
                                          *fixed = NULL, *credit = NULL;
        char status[160];
        int q;

        if ((q = json_new_object(&e)) < 0 || (q = kernel_state_to_json(&in->kernel, &k)) < 0 ||
            (q = credit_to_json(&in->kernel.credit, &credit)) < 0 ||
            (q = json_new_array(&runs)) < 0 || (q = json_new_object(&contention)) < 0 ||
            (q = erratum_to_json(in->erratum, 0, r, &erratum)) < 0 ||
            (q = erratum_to_json(in->erratum_fixed, in->erratum_fixed_microcode, r, &fixed)) < 0)
                return q;
        JSON_ADD(e, "name", JSON_STR(rng_source_name(in->instruction)));
        JSON_ADD(e, "kind", JSON_STR(rng_source_kind_to_string(rng_source_desc(in->instruction)->kind)));
        JSON_ADD(e, "cpuid", json_object_new_boolean(in->cpuid));
        JSON_ADD(e, "read_error", in->read_error < 0 ? JSON_STR(strerror(-in->read_error)) : NULL);
        {
                int u = probe_source_unavailable(in);

                /* the journal's RNG_REASON: why not probed (or hidden) */
                JSON_ADD(e, "unavailable", u >= 0 ? JSON_STR(probe_unavailable_to_string(u)) : NULL);
        }
        JSON_ADD(e, "executed", json_object_new_boolean(in->n_runs > 0));
        JSON_ADD(e, "verdict", JSON_STR(verdict_to_string(in->verdict)));
        JSON_ADD(e, "hardware_verdict", JSON_STR(verdict_to_string(in->hardware_verdict)));
        JSON_ADD(contention, "runs", JSON_U64(in->contention_runs));
        JSON_ADD(contention, "contended", JSON_U64(in->contended_runs));
        JSON_ADD(e, "contention", TAKE_PTR(contention));
        JSON_ADD(k, "retries", JSON_U64(in->kernel_retries));
        JSON_ADD(k, "retries_source", JSON_STR(kernel_retries_source_to_string(in->kernel_retries_source)));
        JSON_ADD(k, "retries_why", JSON_STR(in->kernel_retries_why));
        JSON_ADD(k, "credit", TAKE_PTR(credit));
        if (rng_source_desc(in->instruction)->alt.paths) {
                _cleanup_json_ struct json_object *fact = NULL;

                if ((q = json_new_object(&fact)) < 0)
                        return q;
                JSON_ADD(fact, "fact", JSON_STR(rng_source_desc(in->instruction)->alt.fact));
                JSON_ADD(fact, "holds", json_object_new_boolean(rng_source_kernel_fact(in->instruction)));
                JSON_ADD(k, "other_input", TAKE_PTR(fact));
        } else
                JSON_ADD(k, "other_input", NULL);
        JSON_ADD(e, "kernel", TAKE_PTR(k));
        JSON_ADD(e, "erratum", TAKE_PTR(erratum));
        JSON_ADD(e, "erratum_fixed", TAKE_PTR(fixed));
        JSON_ADD(e, "erratum_status", JSON_STR(erratum_status_format(r->have_cpu ? &r->cpu : NULL, in->instruction,
                                                                     status, sizeof(status))));
        for (unsigned j = 0; j < in->n_runs; j++) {
                struct json_object *rj = NULL;

                q = probe_run_to_json(&in->runs[j], &rj);
                if (q < 0)
                        return q;
                JSON_ADD(runs, NULL, rj);
        }
        JSON_ADD(e, "runs", TAKE_PTR(runs));
        *ret = TAKE_PTR(e);
        return 0;
}

int probe_report_to_json(const ProbeReport *r, const FailOn *strict, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL, *cpu = NULL, *params = NULL, *cpus = NULL, *instrs = NULL,
                                          *crng = NULL;
        int k;

        if ((k = json_new_object(&o)) < 0 || (k = cpu_to_json(r, &cpu)) < 0 || (k = params_to_json(r, &params)) < 0 ||
            (k = cpus_to_json(&r->cpus, &cpus)) < 0 || (k = json_new_array(&instrs)) < 0 ||
            (k = crng_to_json(&r->boot, &crng)) < 0)
                return k;
        JSON_ADD(o, "schema", json_object_new_string(PROBE_JSON_SCHEMA));
        JSON_ADD(o, "kind", json_object_new_string("probe"));
        JSON_ADD(o, "verdict", JSON_STR(verdict_to_string(r->verdict)));
        JSON_ADD(o, "exit_code", json_object_new_int(probe_report_exit_status(r, strict)));
        JSON_ADD(o, "arch_supported", json_object_new_boolean(r->arch_supported));
        JSON_ADD(o, "kernel_log", JSON_STR(kernel_log_state_to_string(r->kernel_log)));
        JSON_ADD(o, "wall_usec", JSON_U64(r->wall_nsec / 1000));
        JSON_ADD(o, "cpu", TAKE_PTR(cpu));
        JSON_ADD(o, "kernel_release", r->kernel_release[0] ? JSON_STR(r->kernel_release) : NULL);
        JSON_ADD(o, "params", TAKE_PTR(params));
        JSON_ADD(o, "cpus", TAKE_PTR(cpus));
        JSON_ADD(o, "confidential_vm", json_object_new_boolean(r->confidential_vm));
        JSON_ADD(o, "crng", TAKE_PTR(crng));
        FOREACH_RNG_SOURCE(i) {
                struct json_object *e = NULL;

                if (!r->instr[i].selected)
                        continue;
                k = instruction_to_json(r, &r->instr[i], &e);
                if (k < 0)
                        return k;
                JSON_ADD(instrs, NULL, e);
        }
        JSON_ADD(o, "instructions", TAKE_PTR(instrs));
        *ret = TAKE_PTR(o);
        return 0;
}

/* One point of a sweep: the contention run at one thread count. */
static int sweep_point_to_json(const ProbeRun *r, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL, *ci = NULL, *window = NULL, *during = NULL;
        int k;

        if ((k = json_new_object(&o)) < 0 || (k = probe_run_ci_to_json(r, &ci)) < 0 || (k = probe_run_window_to_json(r, &window)) < 0 ||
            (k = probe_run_kernel_during_to_json(r, &during)) < 0)
                return k;
        JSON_ADD(o, "threads", json_object_new_int((int) r->threads));
        JSON_ADD(o, "attempts", JSON_U64(r->attempts));
        JSON_ADD(o, "failures", JSON_U64(r->failures));
        JSON_ADD(o, "delivered", JSON_U64(r->delivered));
        JSON_ADD(o, "failure_rate", JSON_DBL(r->failure_rate));
        JSON_ADD(o, "failure_rate_ci95", TAKE_PTR(ci));
        JSON_ADD(o, "kernel_loop_failure_rate", JSON_DBL(r->kernel_loop_failure_rate));
        JSON_ADD(o, "values_per_sec", JSON_DBL(r->values_per_sec));
        JSON_ADD(o, "bytes_per_sec", JSON_DBL(r->bytes_per_sec));
        JSON_ADD(o, "overlap", JSON_DBL(r->window.overlap));
        JSON_ADD(o, "contended", json_object_new_boolean(r->contended));
        JSON_ADD(o, "wall_usec", JSON_U64(r->wall_nsec / 1000));
        JSON_ADD(o, "window", TAKE_PTR(window));
        JSON_ADD(o, "health_passed", json_object_new_boolean(r->health.failed == 0));
        JSON_ADD(o, "kernel_exhausted_during", TAKE_PTR(during));
        *ret = TAKE_PTR(o);
        return 0;
}

static int sweep_to_json(const ProbeSweep *sw, struct json_object **ret) {
        _cleanup_json_ struct json_object *e = NULL, *points = NULL;
        int k;

        if ((k = json_new_object(&e)) < 0 || (k = json_new_array(&points)) < 0)
                return k;
        JSON_ADD(e, "instruction", JSON_STR(rng_source_name(sw->instruction)));
        JSON_ADD(e, "width", json_object_new_int((int) sw->width));
        JSON_ADD(e, "package", sw->package >= 0 ? json_object_new_int(sw->package) : NULL);
        JSON_ADD(e, "kernel_retries", JSON_U64(sw->kernel_retries));
        for (unsigned j = 0; j < sw->n_points; j++) {
                struct json_object *pt = NULL;

                k = sweep_point_to_json(&sw->points[j], &pt);
                if (k < 0)
                        return k;
                JSON_ADD(points, NULL, pt);
        }
        JSON_ADD(e, "points", TAKE_PTR(points));
        *ret = TAKE_PTR(e);
        return 0;
}

static int sweep_instruction_to_json(const ProbeSweepReport *r, RngSourceId i, struct json_object **ret) {
        _cleanup_json_ struct json_object *e = NULL, *kernel = NULL;
        int k;

        if ((k = json_new_object(&e)) < 0 || (k = kernel_state_to_json(&r->kernel[i], &kernel)) < 0)
                return k;
        JSON_ADD(e, "name", JSON_STR(rng_source_name(i)));
        JSON_ADD(e, "kind", JSON_STR(rng_source_kind_to_string(rng_source_desc(i)->kind)));
        JSON_ADD(e, "cpuid", json_object_new_boolean(r->presence[i].cpuid));
        JSON_ADD(e, "executed", json_object_new_boolean(r->presence[i].executes));
        JSON_ADD(e, "kernel", TAKE_PTR(kernel));
        *ret = TAKE_PTR(e);
        return 0;
}

int probe_sweep_to_json(const ProbeSweepReport *r, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL, *params = NULL, *cpus = NULL, *instrs = NULL, *sweeps = NULL;
        int k;

        if ((k = json_new_object(&o)) < 0 || (k = limits_to_json(&r->limits, &params)) < 0 ||
            (k = cpus_to_json(&r->cpus, &cpus)) < 0 || (k = json_new_array(&instrs)) < 0 ||
            (k = json_new_array(&sweeps)) < 0)
                return k;
        JSON_ADD(o, "schema", json_object_new_string(PROBE_JSON_SCHEMA));
        JSON_ADD(o, "kind", json_object_new_string("sweep"));
        JSON_ADD(o, "wall_usec", JSON_U64(r->wall_nsec / 1000));
        JSON_ADD(o, "params", TAKE_PTR(params));
        JSON_ADD(o, "cpus", TAKE_PTR(cpus));
        FOREACH_RNG_SOURCE(i) {
                struct json_object *e = NULL;

                if (!r->selected[i])
                        continue;
                k = sweep_instruction_to_json(r, i, &e);
                if (k < 0)
                        return k;
                JSON_ADD(instrs, NULL, e);
        }
        for (unsigned j = 0; j < r->n_sweeps; j++) {
                struct json_object *e = NULL;

                k = sweep_to_json(&r->sweeps[j], &e);
                if (k < 0)
                        return k;
                JSON_ADD(sweeps, NULL, e);
        }
        JSON_ADD(o, "instructions", TAKE_PTR(instrs));
        JSON_ADD(o, "sweeps", TAKE_PTR(sweeps));
        *ret = TAKE_PTR(o);
        return 0;
}
