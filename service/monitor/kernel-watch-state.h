/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The kernel watch's state file, STATE_DIR/kernel-watch.state: what
 * survives a restart within one boot (see kernel-watch.h, "Restarts").
 *
 * Format: "key=value" lines, each ending in a newline:
 *   boot=<128-bit id>            required
 *   cursor=<journal cursor>      the last recorded kernel message
 *   serial=<n>                   of the last recorded flush (RNG_STATE_SERIAL)
 *   reported_<instr>=<n>         exhausted counts accounted for
 *   recorded_<kind>_<instr>=<n>  counts in events, per kind
 * Unknown keys are ignored and a missing number is 0; a line without "=" or
 * newline, a NUL byte, a line of KERNEL_WATCH_STATE_LINE_MAX bytes or more,
 * a bad boot id or a known key whose value is not an unsigned decimal
 * (sign, space, junk, overflow) make the whole file invalid: -EBADMSG.
 *
 * The state is written as .new (through .new.tmp, fsync'ed) before a
 * flush's events are sent and renamed over the state after. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <systemd/sd-id128.h>

#include "kernel-rng-msg.h"
#include "rng-cpu.h"

#define KERNEL_WATCH_STATE_FILE "kernel-watch.state"
#define KERNEL_WATCH_STATE_FILE_NEW "kernel-watch.state.new"
#define KERNEL_WATCH_STATE_LINE_MAX 4095 /* with its newline */

typedef struct KernelWatchState {
        sd_id128_t boot_id;
        char *cursor;                                   /* owned; last recorded message */
        uint64_t serial;                                /* of the last recorded flush */
        uint64_t reported[_RNG_INSTRUCTION_MAX];        /* exhausted counts accounted for */
        uint64_t recorded[_KERNEL_RNG_MSG_MAX][_RNG_INSTRUCTION_MAX]; /* counts in events */
} KernelWatchState;

void kernel_watch_state_done(KernelWatchState *s);
/* A deep copy (the cursor too): -ENOMEM leaves *ret untouched. */
int kernel_watch_state_copy(const KernelWatchState *s, KernelWatchState *ret);

/* Pure: text (len bytes, not NUL-terminated) to a state; -EBADMSG (see
 * above) or -ENOMEM, *ret untouched on error. */
int kernel_watch_state_parse(const char *text, size_t len, KernelWatchState *ret);
/* Pure: the file's text (malloc'ed, NUL-terminated). */
int kernel_watch_state_format(const KernelWatchState *s, char **ret);

/* dir/name, parsed; -errno from reading. */
int kernel_watch_state_load(const char *dir, const char *name, KernelWatchState *ret);
/* Writes dir/kernel-watch.state.new (fsync'ed, through a .tmp and rename). */
int kernel_watch_state_write_new(const char *dir, const KernelWatchState *s);
/* Renames .new over the state. -ENOENT if there is no .new. */
int kernel_watch_state_commit(const char *dir);

/* Does this boot's journal hold the events of flush `serial`? > 0 yes. */
typedef int (*KernelWatchHasSerial)(uint64_t serial, void *userdata);

/* The state to start from: dir's committed state if it is of `boot`, else
 * an empty one of `boot`; then a leftover .new of `boot` with a higher
 * serial is committed and adopted if has_serial() finds its events, else
 * removed. Unreadable files are logged and ignored. dir NULL: empty. */
int kernel_watch_state_restore(const char *dir, sd_id128_t boot, KernelWatchHasSerial has_serial,
                               void *userdata, KernelWatchState *ret);
