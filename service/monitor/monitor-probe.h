/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The probe as a verdict source of the daemon: runs the probe engine at
 * boot, on reload and on a re-probe timer, sends the per-instruction
 * journal events and reports its verdict and status fragment to the
 * aggregator. Knows nothing of the Manager: it calls back when done. */

#include <systemd/sd-event.h>

#include "aggregator.h"
#include "config.h"

typedef struct ProbeWatch ProbeWatch;

/* Called after each probe that reported to the aggregator; changed: the
 * overall verdict changed (or is the first). */
typedef void (*ProbeWatchDoneFn)(void *userdata, bool changed, const char *trigger);

int probe_watch_new(sd_event *e, Aggregator *agg, const Config *config, ProbeWatchDoneFn done, void *userdata,
                    ProbeWatch **ret);
ProbeWatch *probe_watch_free(ProbeWatch *w);

/* Probe now ("boot", "reload"; the timer uses "reprobe") and re-arm the
 * timer from the current configuration. */
int probe_watch_run(ProbeWatch *w, const char *trigger);
/* Arm (or disarm, for an interval of 0) the re-probe timer. */
int probe_watch_arm(ProbeWatch *w);

/* The per-instruction verdicts of the last probe ([_RNG_INSTRUCTION_MAX]). */
const Verdict *probe_watch_instruction_verdicts(const ProbeWatch *w);

static inline void probe_watch_freep(ProbeWatch **w) {
        probe_watch_free(*w);
}
