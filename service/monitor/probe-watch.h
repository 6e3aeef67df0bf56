/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The probe as a verdict source of the daemon: runs the probe engine at
 * boot, on reload and on a re-probe timer, sends the per-instruction
 * journal events and reports its verdict, status fragment and whole
 * report through its VerdictSource (verdict-source.h); it keeps no report.
 * Knows nothing of the Manager. */

#include <systemd/sd-event.h>

#include "config.h"
#include "macro.h"

#include "probe.h"
#include "verdict-source.h"

typedef struct ProbeWatch ProbeWatch;

/* Sources to probe instead of the hardware (ProbeParams' test hooks): only
 * a test program passes one (rng-health-shaped, in the rng-health-tests
 * package); rng-health itself never does. */
typedef struct ProbeSourceHook {
        ProbeSourceFn source;
        void *userdata;
        const bool *cpuid;         /* [_RNG_SOURCE_MAX] */
        const KernelState *kernel; /* the kernel's view to go with the sources; NULL: this machine's */
} ProbeSourceHook;

/* source: where it reports (the Manager's), kept until probe_watch_free(),
 * which reports nothing. sysfs_root: where the kernel's counters are read
 * around the contention runs (NULL: /). */
int probe_watch_new(sd_event *e, const Config *config, const char *sysfs_root, const ProbeSourceHook *hook,
                    VerdictSource *source, ProbeWatch **ret);
ProbeWatch *probe_watch_free(ProbeWatch *w);

/* Probe now ("boot", "reload"; the timer uses "reprobe") and re-arm the
 * timer from the current configuration. An error is logged here, once.
 * -ECANCELED: SIGTERM or SIGINT came while it probed; it stopped within
 * PROBE_STOP_POLL_NSEC (a device's read: within its budget), kept
 * nothing, and said so (at info); the caller lets the event loop take
 * the signal. */
int probe_watch_run(ProbeWatch *w, const char *trigger);
/* Arm (or disarm, for an interval of 0) the re-probe timer. */
int probe_watch_arm(ProbeWatch *w);
/* Judge the next probes as on a confidential VM (host-fed verdicts) or not. */
void probe_watch_set_cvm(ProbeWatch *w, bool cvm);

DEFINE_TRIVIAL_CLEANUP_FUNC(ProbeWatch *, probe_watch_free);

