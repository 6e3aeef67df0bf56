/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The kernel watch's journal events, as a pure builder of their fields
 * (kernel-watch-event.c). Part of kernel-watch.h's API; a header of its own
 * so that the pure parts (kernel-watch-account.h) need no sd-event. */

#include <stdbool.h>
#include <stdint.h>

#include "journal-event.h"
#include "kernel-rng-msg.h"
#include "sources.h"
#include "verdict.h"

/* One recorded event, as the pure builder below takes it. */
typedef struct KernelEventInfo {
        KernelRngMsgKind kind;
        RngSourceId instruction;
        uint64_t messages;          /* kernel log lines aggregated */
        uint64_t count;             /* RNG_COUNT: failures this event accounts for */
        bool have_counters;
        uint64_t exhausted_total;   /* counters at the time of the event */
        uint64_t retried_total;
        bool have_cpu;
        unsigned cpu, tries;
        const char *kernel_message; /* the first line of the window, or NULL */
        const char *reason_id;      /* disabled: the reason's id */
        uint64_t state_serial;
        /* Exhaustions the kernel counted while rng-health's own contention
         * probe ran: RNG_OWN_PROBE=1, not against the verdict. */
        bool own_probe;
        /* A routine failure (of a source the kernel falls back from),
         * recorded at most once per interval: RNG_ROUTINE=1, and the time
         * since the previous routine record (0: none since the start). */
        bool routine;
        uint64_t interval_usec;
} KernelEventInfo;

/* Pure: MESSAGE_ID, PRIORITY, MESSAGE and the RNG_* fields of one event. */
int event_kernel(EventFields *f, const KernelEventInfo *info);

/* Pure: the kernel reseeded its CRNG for a virtual machine fork: count
 * this boot so far, fresh of them new since the previous such event (more
 * than one where the daemon did not run), usec the kernel's timestamp of
 * the last. */
int event_vm_fork(EventFields *f, uint64_t count, uint64_t fresh, uint64_t usec);
