/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The STATUS= text of rng-health.service (`systemctl status rng-health`),
 * all of it here; the daemon only sends it. Pure: no I/O.
 *
 * The line is the verdict sources' fragments joined by "; " (the probe's,
 * then the kernel watch's), e.g. with A and B two sources' display names
 *   A ok (0 of 36.9k tries failed); B exhausted: 72 % of tries failed,
 *   3.31k values needed >1 tries (CONSEQUENCE); kernel: no RNG failures
 * with what the daemon adds around them: "FAILED (FailOn=...): " before
 * when FailOn= matched, "; confidential VM: tdx" and a failed reload's
 * note after. Each source's words (its display name, the consequence of its
 * verdict) are the source table's. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#include "format-util.h"

/* The probe's fragment: each selected source's words. Returns a newly
 * allocated string, NULL on allocation failure. */
char *status_format_probe(const ProbeReport *r);

/* One source's words in the probe's fragment, into buf: "A ok (0 of 36.9k
 * tries failed)", "D host-fed (virtio_rng.0, host-fed, credited 1024/1024:
 * 4.10 kB at 1.20 MB/s) (CONSEQUENCE; remedy: ...)", "S ABSENT" (D a
 * device's display name, S a seed's, ABSENT its descriptor's words), "S
 * unknown (WHY)" (the kernel state's reason) where what would show it was
 * not read. The
 * events of the sources that are no CPU instruction say the same. */
void status_format_source(const ProbeReport *r, RngSourceId i, char *buf, size_t len);

/* "CRNG ready 4.310 s after the kernel started (at random_init_early(),
 * from the CPU's instructions with random.trust_cpu)", "CRNG not ready yet",
 * "CRNG readiness unknown (kernel log not read)", and "; reseeded 2x for a
 * virtual machine fork" after it where the log says so. */
void status_format_crng(const KernelBootLog *b, char *buf, size_t len);

/* What the kernel watch saw of one source. */
typedef struct StatusKernelSource {
        uint64_t failures; /* its loop's exhaustions: counted by the kernel (or
                            * logged), not those during the own probe; the
                            * waiting ones included */
        uint64_t waiting;  /* of them, held for the routine interval's record */
        uint64_t own;      /* during rng-health's own contention probe */
        bool disabled, defective;
} StatusKernelSource;

/* The kernel watch's fragment: "kernel: B exhausted 3x (CONSEQUENCE)",
 * "kernel: no RNG failures" (without
 * counters: "... logged"), and "; no journal: kernel messages not
 * followed" where the journal cannot be followed. Newly allocated, NULL
 * on allocation failure. */
char *status_format_kernel(const StatusKernelSource s[_RNG_SOURCE_MAX], bool have_counters, bool no_journal);
/* The kernel watch's fragment when it could not start. */
#define STATUS_KERNEL_NOT_WATCHED "kernel: not watched (journal not readable)"

/* The fragments (NULL or "" left out) joined by "; ". Newly allocated,
 * NULL on allocation failure. */
char *status_join(const char *const *fragments, size_t n);

/* The whole line: the joined fragments, "FAILED (FailOn=FAIL_ON): " before
 * them where fail_on is not NULL (FailOn= matched), then the CRNG's
 * readiness (crng: status_format_crng()'s, NULL or "": none), "; confidential
 * VM: CVM" after where cvm is not NULL, and the note of a failed reload.
 * Newly allocated, NULL on allocation failure. */
char *status_format_line(const char *fragments, const char *fail_on, const char *crng, const char *cvm,
                         bool reload_failed);

/* The lines of the daemon's other states. */
/* "Probing A/B...": the table's display names, into buf (returned). */
const char *status_probing(char *buf, size_t len);
#define STATUS_STOPPING "Stopping."
#define STATUS_RELOADING "Reloading configuration..."
#define STATUS_FAILED_TO_START "Failed to start: " /* and strerror() */
#define STATUS_PROBE_FAILED_ON_RELOAD "probe failed on reload (see journalctl -u rng-health)"
