/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What the kernel watch asks of the journal (sd-journal, no sd-event): this
 * boot's kernel messages from a saved position, one RNG message at a time,
 * and whether a flush's event was sent by the daemon itself
 * (journal-sender.h). kernel-watch.c does the rest. */

#include <stdint.h>

#include <systemd/sd-id128.h>
#include <systemd/sd-journal.h>

#include "kernel-boot-log.h"
#include "kernel-rng-msg.h"

/* Opens the local machine's system journal (SD_JOURNAL_LOCAL_ONLY |
 * SD_JOURNAL_SYSTEM) and reads its directories twice: sd_journal_open(),
 * then sd_journal_get_fd(), which enumerates every journal file again to
 * set up its inotify watches. A reader that opens a journal file while
 * journald appends to it can load a torn header (a tail offset or arena
 * size written a moment before the other) and drop the file as truncated
 * (systemd issues #40053, #41992, unfixed in 257): the daemon, which has
 * just sent its boot verdict events, opened the journal on a first boot
 * and saw "no journal files" for 0.2 s. A file skipped by one enumeration
 * is taken by the other; with no file after both it opens the journal
 * again (3 times in all), so "no file" then is a journal really missing. */
int kernel_watch_journal_open(sd_journal **ret);

/* Matches this boot's kernel messages (_TRANSPORT=kernel, _BOOT_ID=). */
int kernel_watch_journal_match_kernel(sd_journal *j, sd_id128_t boot);

/* Positions j after the entry of cursor: the next sd_journal_next() returns
 * the first entry not yet read, also when the entry itself was vacuumed.
 * -errno if the cursor is unusable (the caller re-reads the boot). */
int kernel_watch_journal_seek_after(sd_journal *j, const char *cursor);

/* The next of j's entries that is a kernel RNG message (kernel_rng_msg_parse()):
 * 1 and *ret, with its MESSAGE text (not NUL-terminated, valid until j
 * moves); 0 at the end; -errno. */
int kernel_watch_journal_next(sd_journal *j, KernelRngMsg *ret, const char **ret_text, size_t *ret_len);

/* The same, and the kernel's lines on its CRNG too: 2 with *ret_line (the
 * CRNG ready, a virtual machine fork) and the kernel's own timestamp of
 * the entry (_SOURCE_MONOTONIC_TIMESTAMP, microseconds) in *ret_usec. */
int kernel_watch_journal_next_any(sd_journal *j, KernelRngMsg *ret, KernelBootLine *ret_line, uint64_t *ret_usec,
                                  const char **ret_text, size_t *ret_len);

/* The kernel's own timestamp of j's entry (_SOURCE_MONOTONIC_TIMESTAMP). */
int kernel_watch_journal_entry_usec(sd_journal *j, uint64_t *ret);

/* This boot's kernel entries whose MESSAGE is message, exactly: how many,
 * and the kernel's timestamp of the last (0: none). Leaves j without
 * matches. */
int kernel_watch_journal_count_line(sd_journal *j, sd_id128_t boot, const char *message, uint64_t *ret_count,
                                    uint64_t *ret_last_usec);

/* The numeric field of the daemon's own last event with MESSAGE_ID=mid
 * this boot (sent from rng-health.service with this process's uid): 1 and
 * *ret, 0 where there is none, -errno. Leaves j without matches. */
int kernel_watch_journal_own_last(sd_journal *j, sd_id128_t boot, const char *mid, const char *field,
                                  uint64_t *ret);

/* Whether this boot's journal holds the daemon's own event of flush
 * `serial` (RNG_STATE_SERIAL=, sent from rng-health.service with this
 * process's uid): 1, 0, or -errno. Leaves j without matches. For
 * kernel_watch_state_restore(): userdata is a KernelWatchJournalLookup. */
typedef struct KernelWatchJournalLookup {
        sd_journal *journal;
        sd_id128_t boot;
} KernelWatchJournalLookup;

int kernel_watch_journal_has_serial(uint64_t serial, void *userdata);

/* For kernel_watch_state_check() (a KernelWatchCountMessages): this boot's
 * kernel RNG messages, per kind and instruction, up to and including the
 * entry of cursor (all of them if it is gone). Leaves the journal without
 * matches. userdata is a KernelWatchJournalLookup. */
int kernel_watch_journal_count_messages(const char *cursor,
                                        uint64_t ret[_KERNEL_RNG_MSG_MAX][_RNG_SOURCE_MAX], void *userdata);
