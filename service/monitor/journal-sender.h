/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The one rule for reading rng-health's own events back from the journal
 * (report, the kernel watch's crash recovery; rng-health(8), "TRUSTED
 * ENTRIES"). MESSAGE_ID, SYSLOG_IDENTIFIER and every RNG_* field can be set
 * by any local user (logger --journald, sd_journal_send()); the fields that
 * start with '_' cannot: journald adds them itself, from the sender's kernel
 * credentials (SCM_CREDENTIALS) and its cgroup, and drops any a client
 * sends. So an entry is taken as the daemon's only if
 *   _TRANSPORT=journal    it was sent with sd_journal_sendv(), as every
 *                         event is (not syslog, stdout or the kernel);
 *   _SYSTEMD_UNIT=rng-health.service
 *                         its sender ran in the service, which only root
 *                         can start a process in (the daemon does not ask
 *                         sd_pid_get_unit() for its unit: under
 *                         ProtectProc=invisible it cannot read
 *                         /proc/1/cgroup, which that needs; a daemon run in
 *                         another unit is not the service);
 *   _UID=UID              where the uid is known: the daemon compares its
 *                         own (getuid(); the uid DynamicUser= gives it is
 *                         kept across restarts by its StateDirectory=).
 *                         report runs as another user and cannot know the
 *                         uid an earlier boot's service had: it does not
 *                         compare it.
 * An entry without these fields (journald could not read the sender's
 * cgroup) is not taken: the rule fails closed. */

#include <stdbool.h>
#include <sys/types.h>

#include <systemd/sd-journal.h>

#define RNG_HEALTH_UNIT "rng-health.service"
#define JOURNAL_SENDER_ANY_UID ((uid_t) -1)

typedef struct JournalSender {
        const char *unit; /* _SYSTEMD_UNIT= */
        uid_t uid;        /* _UID=, or JOURNAL_SENDER_ANY_UID */
} JournalSender;

/* Pure: whether an entry with these trusted field values (NULL: absent)
 * was sent by want. */
bool journal_sender_match(const JournalSender *want, const char *transport, const char *unit, const char *uid);

/* The current entry of j: 1 if want sent it, 0 if not, -errno. */
int journal_entry_from(sd_journal *j, const JournalSender *want);

/* Adds matches for want's entries to j (each a field of its own: ANDed
 * with j's other matches). */
int journal_add_sender_matches(sd_journal *j, const JournalSender *want);
