/* SPDX-License-Identifier: GPL-2.0-or-later */

/* `rng-health report --fleet --json`: the fleet as JSON (schema
 * rng-health.fleet/1). */

#include "json-util.h"
#include "macro.h"
#include "report-fleet.h"

static struct json_object *str_or_null(const char *s) {
        return s && s[0] ? json_object_new_string(s) : NULL;
}

static int cpu_to_json(const ReportCpu *c, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL;
        int r;

        *ret = NULL;
        if (!c)
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

/* {"ok": 3, "exhausted": 1, "unknown": 0}: the verdicts that occur */
static int counts_to_json(const unsigned *counts, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL;
        int r;

        r = json_new_object(&o);
        if (r < 0)
                return r;
        for (int v = 0; v <= _VERDICT_MAX; v++)
                if (counts[v] > 0)
                        JSON_ADD(o, v < _VERDICT_MAX ? verdict_to_string(v) : "unknown", JSON_U64(counts[v]));
        *ret = TAKE_PTR(o);
        return 0;
}

static int machine_to_json(const Fleet *f, const FleetMachine *m, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL, *verdicts = NULL, *status = NULL, *cpu = NULL;
        char id[SD_ID128_STRING_MAX];
        int r;

        if ((r = json_new_object(&o)) < 0 || (r = json_new_object(&verdicts)) < 0 || (r = json_new_object(&status)) < 0 ||
            (r = cpu_to_json(m->cpu, &cpu)) < 0)
                return r;
        JSON_ADD(o, "machine_id", sd_id128_is_null(m->machine_id) ? NULL : json_object_new_string(sd_id128_to_string(m->machine_id, id)));
        JSON_ADD(o, "hostname", str_or_null(m->hostname));
        JSON_ADD(o, "boots", JSON_U64(m->boots));
        JSON_ADD(o, "last_boot_id", json_object_new_string(sd_id128_to_string(m->latest->boot_id, id)));
        JSON_ADD(o, "last_event_usec", JSON_U64(m->last_usec));
        FOREACH_RNG_SOURCE(s) {
                int v = machine_verdict(m, s);

                if (!f->shown[s])
                        continue;

                JSON_ADD(verdicts, rng_source_display_name(s), v < _VERDICT_MAX ? json_object_new_string(verdict_to_string(v)) : NULL);
                JSON_ADD(status, rng_source_display_name(s), m->probed[s] ? str_or_null(m->probed[s]->instr[s].erratum_status) : NULL);
        }
        JSON_ADD(o, "verdicts", TAKE_PTR(verdicts));
        JSON_ADD(o, "cpu", TAKE_PTR(cpu));
        JSON_ADD(o, "kernel_release", m->cpu ? str_or_null(m->cpu->kernel_release) : NULL);
        JSON_ADD(o, "erratum_status", TAKE_PTR(status));
        *ret = TAKE_PTR(o);
        return 0;
}

int fleet_to_json(const Fleet *f, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL, *machines = NULL, *by_verdict = NULL, *by_cpu = NULL;
        int r;

        if ((r = json_new_object(&o)) < 0 || (r = json_new_array(&machines)) < 0 || (r = json_new_object(&by_verdict)) < 0 ||
            (r = json_new_array(&by_cpu)) < 0)
                return r;
        JSON_ADD(o, "schema", json_object_new_string(FLEET_JSON_SCHEMA));
        for (size_t i = 0; i < f->n; i++) {
                struct json_object *m = NULL;

                r = machine_to_json(f, &f->machines[i], &m);
                if (r < 0)
                        return r;
                JSON_ADD(machines, NULL, m);
        }
        FOREACH_RNG_SOURCE(s) {
                struct json_object *c = NULL;

                if (!f->shown[s])
                        continue;
                r = counts_to_json(f->verdicts[s], &c);
                if (r < 0)
                        return r;
                JSON_ADD(by_verdict, rng_source_display_name(s), c);
        }
        for (size_t g = 0; g < f->n_groups; g++) {
                _cleanup_json_ struct json_object *e = NULL, *cpu = NULL, *verdicts = NULL;

                if ((r = json_new_object(&e)) < 0 || (r = cpu_to_json(f->groups[g].cpu, &cpu)) < 0 ||
                    (r = json_new_object(&verdicts)) < 0)
                        return r;
                FOREACH_RNG_SOURCE(s) {
                        struct json_object *c = NULL;

                        if (!f->shown[s])
                                continue;
                        r = counts_to_json(f->groups[g].verdicts[s], &c);
                        if (r < 0)
                                return r;
                        JSON_ADD(verdicts, rng_source_display_name(s), c);
                }
                JSON_ADD(e, "cpu", TAKE_PTR(cpu));
                JSON_ADD(e, "machines", JSON_U64(f->groups[g].machines));
                JSON_ADD(e, "verdicts", TAKE_PTR(verdicts));
                JSON_ADD(by_cpu, NULL, TAKE_PTR(e));
        }
        JSON_ADD(o, "machines", TAKE_PTR(machines));
        JSON_ADD(o, "by_verdict", TAKE_PTR(by_verdict));
        JSON_ADD(o, "by_cpu", TAKE_PTR(by_cpu));
        JSON_ADD(o, "malformed_entries", JSON_U64(f->report->malformed));
        JSON_ADD(o, "foreign_entries", JSON_U64(f->report->foreign));
        *ret = TAKE_PTR(o);
        return 0;
}
