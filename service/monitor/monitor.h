/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* `rng-health monitor`: the daemon behind rng-health.service. The Manager
 * owns the event loop, the configuration, the policy and the aggregator,
 * and one VerdictSource (verdict-source.h) for each producer: the probe
 * watch and the kernel watch report through theirs, and the Manager's
 * listener turns the overall verdict into STATUS=, verdict events and the
 * FailOn= decision. */

#include <stdbool.h>

#include <systemd/sd-event.h>

#include "aggregator.h"
#include "config.h"
#include "cvm.h"
#include "kernel-watch.h"
#include "macro.h"
#include "metrics-file.h"
#include "metrics.h"
#include "probe-watch.h"

/* Exit status of `rng-health monitor` (rng-health(8)); a FailOn= match
 * exits with its verdict's EXIT_VERDICT_* (3-8, verdict.h). */
enum {
        EXIT_MONITOR_OK = 0,              /* stopped by SIGTERM/SIGINT */
        EXIT_MONITOR_ERROR = 1,           /* runtime error */
        EXIT_MONITOR_USAGE = 2,           /* bad arguments */
        EXIT_MONITOR_CONFIG = 78,         /* bad configuration at start (EX_CONFIG) */
};

typedef struct Manager {
        sd_event *event;
        char *root;             /* configuration root, NULL: / */
        Config config;
        ConfidentialVm cvm_detected;
        bool cvm;               /* treated as a confidential VM: detected, or ConfidentialVM= */
        FailOn fail_on;         /* FailOn= in effect (config_fail_on()) */
        char fail_on_text[64];  /* the same, formatted once per load (fail_on_format()) */
        VerdictSource probe_source, kernel_source;
        Aggregator aggregator;  /* over the two sources */
        ProbeWatch *probe;
        KernelWatch *kernel;    /* NULL until started, or if it could not be */
        ProbeReport *probe_report; /* the last probe's, taken from the probe watch's report */
        bool have_kernel_counters;
        KernelCounters kernel_counters; /* the kernel watch's last snapshot, from its report */
        bool have_kernel_boot;
        KernelBootLog kernel_boot;      /* the kernel watch's CRNG lines, from its report */
        KernelBootLog crng;             /* this boot's CRNG: the probe's view, and the kernel watch's since */
        bool crng_announced;            /* an event said the CRNG was ready (the boot verdict, or its own) */
        Metrics metrics;        /* the counts summed over the probes */
        uint64_t own_load[_RNG_SOURCE_MAX]; /* the boot probe's, for the kernel watch to come */
        MetricsFile metrics_file;
        sd_event_source *metrics_write; /* deferred write of the file, after the report */
        bool metrics_pending;   /* reported since the file was last written */
        bool reload_failed;     /* the last reload kept the previous configuration */
        int exit_status;
} Manager;

/* Loads the configuration; on a bad one, sends the config event and
 * returns -EINVAL (exit with EXIT_MONITOR_CONFIG). hook: NULL (the
 * hardware), or a test program's scripted sources. */
int manager_new(const char *root, const ProbeSourceHook *hook, Manager **ret);
Manager *manager_free(Manager *m);
/* Signals, watchdog, the boot probe, READY=1; on failure STATUS= says so. */
int manager_start(Manager *m);
/* Runs the loop; returns the exit status. Sends STOPPING=1 at the end. */
int manager_run(Manager *m);

DEFINE_TRIVIAL_CLEANUP_FUNC(Manager *, manager_free);

