/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* `rng-health report --fleet`: the report's boots per machine, a line per
 * machine (its last verdict per source, CPU, microcode, kernel, last
 * event), then machines counted by verdict and by CPU model and microcode,
 * so that failures that cluster by CPU revision show; as text, JSON
 * (schema rng-health.fleet/1) or the failure-ratio figure per CPU model
 * and microcode (plot-svg.h). */

#include <stdio.h>

#include <json-c/json.h>

#include "plot-svg.h"
#include "report.h"

#define FLEET_JSON_SCHEMA "rng-health.fleet/1"

typedef struct FleetMachine {
        sd_id128_t machine_id;             /* null: entries without _MACHINE_ID */
        const char *hostname;              /* of its boot with the latest event (escaped) */
        uint64_t last_usec;                /* its latest event */
        unsigned boots;
        const ReportBoot *latest;          /* the boot with the latest event */
        /* per source the boot of its latest probe result (NULL: none): its
         * verdict, erratum status and runs */
        const ReportBoot *probed[_RNG_SOURCE_MAX];
        const ReportCpu *cpu;              /* of the latest probe result naming it (NULL: none) */
        size_t group;                      /* index in Fleet.groups */
} FleetMachine;

/* Machines of one CPU model (vendor, family, model, stepping) and microcode. */
typedef struct FleetGroup {
        const ReportCpu *cpu;              /* its first machine's (NULL: unknown CPU) */
        unsigned machines;
        unsigned verdicts[_RNG_SOURCE_MAX][_VERDICT_MAX + 1]; /* [_VERDICT_MAX]: no probe result */
} FleetGroup;

typedef struct Fleet {
        size_t n;
        FleetMachine *machines;            /* by hostname, then machine ID */
        size_t n_groups;
        FleetGroup *groups;                /* most machines first */
        unsigned verdicts[_RNG_SOURCE_MAX][_VERDICT_MAX + 1]; /* machines per source and verdict */
        /* the sources some machine has a verdict for: the table's and the
         * JSON's (a fleet of daemons that never probed a source has no
         * column of "n/a" for it) */
        bool shown[_RNG_SOURCE_MAX];
        const Report *report;
} Fleet;

/* The fleet of r's boots (r must outlive it). -ENOMEM. */
int fleet_build(const Report *r, Fleet *ret);
void fleet_done(Fleet *f);

/* The verdict of source i on machine m (a Verdict): its latest probe
 * result's; VERDICT_UNSUPPORTED where the CPU lacks it; _VERDICT_MAX: none
 * known. (report-fleet.c; the JSON, report-fleet-json.c, says it too.) */
int machine_verdict(const FleetMachine *m, RngSourceId i);

void fleet_print(const Fleet *f, FILE *out);
int fleet_to_json(const Fleet *f, struct json_object **ret);

/* The figure: a panel per CPU model and microcode (most machines first,
 * at most PLOT_PANELS_MAX), a line per source and width, each point the
 * mean failure ratio, over the group's machines that ran it, of their
 * latest probe's runs at that many threads. note (len bytes) says what was
 * left out. Returns how many panels. */
size_t fleet_panels(const Fleet *f, PlotPanel *panels, char *note, size_t len);
