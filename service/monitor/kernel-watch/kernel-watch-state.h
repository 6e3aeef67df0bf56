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
 *   own_<instr>=<n>              exhausted counts that happened during
 *                                rng-health's own contention probe
 *                                (included in reported_; optional, 0)
 * The file is taken as a whole or refused (-EBADMSG): every key but the
 * cursor and own_ is required and each key appears once, so a file cut anywhere,
 * even at a line boundary, is refused. Refused too: an unknown key, a line
 * without "=" or newline, a NUL byte, a line of KERNEL_WATCH_STATE_LINE_MAX
 * bytes or more, a bad boot id, an empty cursor, a value that is not an
 * unsigned decimal (sign, space, junk, overflow), and values that
 * contradict each other: per instruction the recorded exhausted + failed
 * counts must not pass 2^64 and must be at least what was reported (the
 * counts of the events add up to the counter's growth), and a state of
 * serial 0 holds no counts and no cursor. The file is read with
 * open_input() without following a link: a symlink, a FIFO or a
 * directory in its place is refused. A state that parses is checked when
 * restored against what it summarises (kernel_watch_state_check()): the
 * boot, the kernel's counters (or their absence), this boot's kernel
 * messages.
 *
 * The state is written as .new (through .new.tmp, fsync'ed) before a
 * flush's events are sent and renamed over the state after. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <systemd/sd-id128.h>

#include "kernel-counters.h"
#include "kernel-rng-msg.h"
#include "sources.h"

#define KERNEL_WATCH_STATE_FILE "kernel-watch.state"
#define KERNEL_WATCH_STATE_FILE_NEW "kernel-watch.state.new"
#define KERNEL_WATCH_STATE_LINE_MAX 4095 /* with its newline */

typedef struct KernelWatchState {
        sd_id128_t boot_id;
        char *cursor;                                   /* owned; last recorded message */
        uint64_t serial;                                /* of the last recorded flush */
        uint64_t reported[_RNG_SOURCE_MAX];        /* exhausted counts accounted for */
        uint64_t recorded[_KERNEL_RNG_MSG_MAX][_RNG_SOURCE_MAX]; /* counts in events */
        /* Of reported: exhaustions during rng-health's own contention probe,
         * in their own events, not in recorded (not against the verdict). */
        uint64_t own[_RNG_SOURCE_MAX];
} KernelWatchState;

void kernel_watch_state_done(KernelWatchState *s);
/* A deep copy (the cursor too): -ENOMEM leaves *ret untouched. */
int kernel_watch_state_copy(const KernelWatchState *s, KernelWatchState *ret);

/* Pure: text (len bytes, not NUL-terminated) to a state; -EBADMSG (see
 * above) or -ENOMEM, *ret untouched on error. */
int kernel_watch_state_parse(const char *text, size_t len, KernelWatchState *ret);
/* The same, with why it was refused (a static string) in *ret_why. */
int kernel_watch_state_parse_why(const char *text, size_t len, KernelWatchState *ret, const char **ret_why);
/* A state that says more exhaustions were reported, or more failures
 * recorded, than the kernel has counted is not this kernel's: -ERANGE,
 * with why (file-free) in buf. counters NULL (not readable): 0. (A state
 * whose own_ exceeds its reported_ is refused by the parser.) */
int kernel_watch_state_check_counters(const KernelWatchState *s, const KernelCounters *counters, char *buf,
                                      size_t len);

/* This boot's kernel RNG messages in the journal, per kind and
 * instruction, from the start of the boot up to and including the entry
 * of cursor (NULL: none, all 0): what the state's message counts can be
 * at most. 0 or -errno. */
typedef int (*KernelWatchCountMessages)(const char *cursor,
                                        uint64_t ret[_KERNEL_RNG_MSG_MAX][_RNG_SOURCE_MAX], void *userdata);

/* What a state claims to summarise, and what it is checked against when
 * restored (kernel_watch_state_check()). */
typedef struct KernelWatchStateCheck {
        const KernelCounters *counters; /* the kernel's counters; NULL: none read */
        bool no_counters;               /* the kernel has none (not: they could not be read) */
        /* The kernel's messages up to the state's cursor; NULL: not checked. */
        KernelWatchCountMessages count_messages;
        void *userdata;
} KernelWatchStateCheck;

/* A state against what it summarises: the counters (as above); on a
 * kernel without counters, no count that only counters give (reported_,
 * own_); and no count of messages (disabled, defective, and without
 * counters exhausted and failed) above the messages this boot's journal
 * holds up to the state's cursor. -ERANGE with why in buf; -errno if the
 * journal could not be read. */
int kernel_watch_state_check(const KernelWatchState *s, const KernelWatchStateCheck *check, char *buf, size_t len);
/* Pure: the file's text (malloc'ed, NUL-terminated). */
int kernel_watch_state_format(const KernelWatchState *s, char **ret);

/* dir/name, parsed; -errno from reading. */
int kernel_watch_state_load(const char *dir, const char *name, KernelWatchState *ret);
/* Writes dir/kernel-watch.state.new (fsync'ed, through a .tmp and rename). */
int kernel_watch_state_write_new(const char *dir, const KernelWatchState *s);
/* Renames .new over the state. -ENOENT if there is no .new. */
int kernel_watch_state_commit(const char *dir);
/* A flush's two steps around sending its events (kernel-watch.h):
 * write_new() before, commit() after; a failure is logged (a warning: the
 * watch goes on). dir NULL: nothing. */
void kernel_watch_state_save_begin(const char *dir, const KernelWatchState *next);
void kernel_watch_state_save_end(const char *dir);

/* Does this boot's journal hold the events of flush `serial`? > 0 yes. */
typedef int (*KernelWatchHasSerial)(uint64_t serial, void *userdata);

/* The state to start from: dir's committed state if it is of `boot`, else
 * an empty one of `boot`; then a leftover .new of `boot` with a higher
 * serial is committed and adopted if has_serial() finds its events, else
 * removed. A file that cannot be read, is refused by the parser, is of
 * another boot, or fails kernel_watch_state_check() against check (NULL:
 * not checked) is ignored like a cut file, and each such refusal is
 * logged once (another boot's at info: after a reboot it is expected; a
 * missing file is not logged). dir NULL: empty. userdata is has_serial()'s. */
int kernel_watch_state_restore(const char *dir, sd_id128_t boot, const KernelWatchStateCheck *check,
                               KernelWatchHasSerial has_serial, void *userdata, KernelWatchState *ret);

/* The per-source verdicts and status fragment (status_format_kernel()) of
 * a state: "kernel: NAME exhausted 3x (CONSEQUENCE)", "kernel: no RNG
 * failures"; "... logged" without counters. held[i] (NULL: none): the
 * failures the kernel counted that wait for the routine interval's record;
 * they count as the state's do, so the status says what the counter says,
 * and the status names how many the journal does not have yet.
 * no_journal: the status says that the kernel's messages are not
 * followed. */
int kernel_watch_state_verdict_full(const KernelWatchState *s, bool have_counters, const uint64_t *held,
                                    bool no_journal, Verdict ret_verdicts[_RNG_SOURCE_MAX], char **ret_status);
/* The same, with the journal followed. */
int kernel_watch_state_verdict(const KernelWatchState *s, bool have_counters, const uint64_t *held,
                               Verdict ret_verdicts[_RNG_SOURCE_MAX], char **ret_status);
