/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "journal-sender.h"
#include "kernel-watch-journal.h"
#include "macro.h"

static int add_boot_match(sd_journal *j, sd_id128_t boot) {
        char match[sizeof("_BOOT_ID=") + SD_ID128_STRING_MAX], id[SD_ID128_STRING_MAX];

        snprintf(match, sizeof(match), "_BOOT_ID=%s", sd_id128_to_string(boot, id));
        return sd_journal_add_match(j, match, 0);
}

#define OPEN_ATTEMPTS 3

int kernel_watch_journal_open(sd_journal **ret) {
        for (unsigned attempt = 1;; attempt++) {
                _cleanup_(sd_journal_closep) sd_journal *j = NULL;
                uint64_t bytes = 0;
                int r;

                r = sd_journal_open(&j, SD_JOURNAL_LOCAL_ONLY | SD_JOURNAL_SYSTEM);
                if (r < 0)
                        return r;
                r = sd_journal_get_fd(j); /* the second enumeration */
                if (r < 0)
                        return r;
                /* Neither found a file: once more, up to OPEN_ATTEMPTS. */
                if (attempt >= OPEN_ATTEMPTS || sd_journal_get_usage(j, &bytes) < 0 || bytes > 0) {
                        *ret = TAKE_PTR(j);
                        return 0;
                }
        }
}

int kernel_watch_journal_match_kernel(sd_journal *j, sd_id128_t boot) {
        int r;

        r = sd_journal_add_match(j, "_TRANSPORT=kernel", 0);
        if (r < 0)
                return r;
        return add_boot_match(j, boot);
}

int kernel_watch_journal_seek_after(sd_journal *j, const char *cursor) {
        int r;

        r = sd_journal_seek_cursor(j, cursor);
        if (r < 0)
                return r;
        r = sd_journal_next(j);
        if (r > 0 && sd_journal_test_cursor(j, cursor) <= 0) {
                /* The entry is gone (vacuumed): we stand on the first
                 * unread one. Seek to it so that the next sd_journal_next()
                 * returns it (sd_journal_previous() would not move if
                 * nothing older is left). */
                _cleanup_free_ char *unread = NULL;

                r = sd_journal_get_cursor(j, &unread);
                if (r >= 0)
                        r = sd_journal_seek_cursor(j, unread);
        }
        return r < 0 ? r : 0;
}

int kernel_watch_journal_next(sd_journal *j, KernelRngMsg *ret, const char **ret_text, size_t *ret_len) {
        for (;;) {
                const void *data;
                size_t len;
                int r;

                r = sd_journal_next(j);
                if (r <= 0)
                        return r;
                r = sd_journal_get_data(j, "MESSAGE", &data, &len);
                if (r < 0 || len < strlen("MESSAGE="))
                        continue; /* no or unreadable MESSAGE: not ours */
                r = kernel_rng_msg_parse((const char *) data + strlen("MESSAGE="), len - strlen("MESSAGE="), ret);
                if (r <= 0)
                        continue;
                *ret_text = (const char *) data + strlen("MESSAGE=");
                *ret_len = len - strlen("MESSAGE=");
                return 1;
        }
}

int kernel_watch_journal_count_messages(const char *cursor,
                                        uint64_t ret[_KERNEL_RNG_MSG_MAX][_RNG_SOURCE_MAX], void *userdata) {
        const KernelWatchJournalLookup *l = userdata;
        int r;

        memset(ret, 0, sizeof(uint64_t) * _KERNEL_RNG_MSG_MAX * _RNG_SOURCE_MAX);
        if (!cursor)
                return 0; /* no message recorded */
        sd_journal_flush_matches(l->journal);
        r = kernel_watch_journal_match_kernel(l->journal, l->boot);
        if (r >= 0)
                r = sd_journal_seek_head(l->journal);
        while (r >= 0) {
                KernelRngMsg m;
                const char *text;
                size_t len;

                r = kernel_watch_journal_next(l->journal, &m, &text, &len);
                if (r <= 0)
                        break;
                if ((unsigned) m.kind < _KERNEL_RNG_MSG_MAX && (unsigned) m.instruction < _RNG_SOURCE_MAX &&
                    ret[m.kind][m.instruction] < UINT64_MAX)
                        ret[m.kind][m.instruction]++;
                if (sd_journal_test_cursor(l->journal, cursor) > 0)
                        break;
        }
        sd_journal_flush_matches(l->journal);
        return r < 0 ? r : 0;
}

int kernel_watch_journal_has_serial(uint64_t serial, void *userdata) {
        const KernelWatchJournalLookup *l = userdata;
        char match[64];
        int r;

        /* Only the service's events sent with our uid prove that a flush
         * was sent (journal-sender.h): anyone can send an entry with
         * RNG_STATE_SERIAL= and SYSLOG_IDENTIFIER=. */
        snprintf(match, sizeof(match), "RNG_STATE_SERIAL=%" PRIu64, serial);
        sd_journal_flush_matches(l->journal);
        r = sd_journal_add_match(l->journal, match, 0);
        if (r >= 0)
                r = journal_add_sender_matches(l->journal, &(JournalSender) { RNG_HEALTH_UNIT, getuid() });
        if (r >= 0)
                r = add_boot_match(l->journal, l->boot);
        if (r >= 0)
                r = sd_journal_seek_tail(l->journal);
        if (r >= 0)
                r = sd_journal_previous(l->journal);
        sd_journal_flush_matches(l->journal);
        return r;
}
