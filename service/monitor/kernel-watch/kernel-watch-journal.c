/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <errno.h>

#include "journal-sender.h"
#include "parse-util.h"
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

/* A numeric field of the current entry. */
static int entry_u64(sd_journal *j, const char *field, uint64_t *ret) {
        const void *data;
        size_t len, fl = strlen(field) + 1;
        char buf[32];
        int r;

        r = sd_journal_get_data(j, field, &data, &len);
        if (r < 0)
                return r;
        if (len <= fl || len - fl >= sizeof(buf))
                return -EBADMSG;
        memcpy(buf, (const char *) data + fl, len - fl);
        buf[len - fl] = '\0';
        return parse_u64(buf, ret);
}

int kernel_watch_journal_entry_usec(sd_journal *j, uint64_t *ret) {
        return entry_u64(j, "_SOURCE_MONOTONIC_TIMESTAMP", ret);
}

int kernel_watch_journal_next_any(sd_journal *j, KernelRngMsg *ret, KernelBootLine *ret_line, uint64_t *ret_usec,
                                  const char **ret_text, size_t *ret_len) {
        for (;;) {
                const void *data;
                const char *text;
                KernelBootLine line;
                size_t len;
                int r;

                r = sd_journal_next(j);
                if (r <= 0)
                        return r;
                r = sd_journal_get_data(j, "MESSAGE", &data, &len);
                if (r < 0 || len < strlen("MESSAGE="))
                        continue; /* no or unreadable MESSAGE: not ours */
                text = (const char *) data + strlen("MESSAGE=");
                len -= strlen("MESSAGE=");
                if (ret_line) {
                        line = kernel_boot_line_parse(text, len);
                        if ((line == KERNEL_BOOT_LINE_CRNG_READY || line == KERNEL_BOOT_LINE_VM_FORK) &&
                            kernel_watch_journal_entry_usec(j, ret_usec) >= 0) {
                                *ret_line = line;
                                *ret_text = text;
                                *ret_len = len;
                                return 2;
                        }
                }
                r = kernel_rng_msg_parse(text, len, ret);
                if (r <= 0)
                        continue;
                *ret_text = text;
                *ret_len = len;
                return 1;
        }
}

int kernel_watch_journal_next(sd_journal *j, KernelRngMsg *ret, const char **ret_text, size_t *ret_len) {
        return kernel_watch_journal_next_any(j, ret, NULL, NULL, ret_text, ret_len);
}

int kernel_watch_journal_count_line(sd_journal *j, sd_id128_t boot, const char *message, uint64_t *ret_count,
                                    uint64_t *ret_last_usec) {
        _cleanup_free_ char *match = NULL;
        uint64_t n = 0, last = 0;
        int r;

        if (asprintf(&match, "MESSAGE=%s", message) < 0)
                return -ENOMEM;
        sd_journal_flush_matches(j);
        r = kernel_watch_journal_match_kernel(j, boot);
        if (r >= 0)
                r = sd_journal_add_match(j, match, 0);
        if (r >= 0)
                r = sd_journal_seek_head(j);
        while (r >= 0 && (r = sd_journal_next(j)) > 0) {
                uint64_t usec;

                n++;
                if (kernel_watch_journal_entry_usec(j, &usec) >= 0)
                        last = usec;
        }
        sd_journal_flush_matches(j);
        if (r < 0)
                return r;
        *ret_count = n;
        *ret_last_usec = last;
        return 0;
}

int kernel_watch_journal_own_last(sd_journal *j, sd_id128_t boot, const char *mid, const char *field,
                                  uint64_t *ret) {
        char match[64];
        int r;

        snprintf(match, sizeof(match), "MESSAGE_ID=%s", mid);
        sd_journal_flush_matches(j);
        r = sd_journal_add_match(j, match, 0);
        if (r >= 0)
                r = journal_add_sender_matches(j, &(JournalSender) { RNG_HEALTH_UNIT, getuid() });
        if (r >= 0)
                r = add_boot_match(j, boot);
        if (r >= 0)
                r = sd_journal_seek_tail(j);
        if (r >= 0)
                r = sd_journal_previous(j);
        if (r > 0)
                r = entry_u64(j, field, ret) >= 0 ? 1 : 0;
        sd_journal_flush_matches(j);
        return r;
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
