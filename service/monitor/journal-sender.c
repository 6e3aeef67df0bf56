/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "journal-sender.h"
#include "macro.h"
#include "parse-util.h"

bool journal_sender_match(const JournalSender *want, const char *transport, const char *unit, const char *uid) {
        uint64_t u;

        if (!want || !want->unit || !transport || !unit || !uid)
                return false;
        if (strcmp(transport, "journal") != 0 || strcmp(unit, want->unit) != 0)
                return false;
        if (parse_u64(uid, &u) < 0 || u >= (uid_t) -1)
                return false;
        return want->uid == JOURNAL_SENDER_ANY_UID || (uid_t) u == want->uid;
}

/* The value of field in the current entry, NUL-terminated into buf; NULL
 * if it is absent, longer than buf or holds a NUL. */
static const char *entry_value(sd_journal *j, const char *field, char *buf, size_t size, int *ret_error) {
        size_t l = strlen(field), n;
        const void *data;
        size_t len;
        int r;

        r = sd_journal_get_data(j, field, &data, &len);
        if (r == -ENOENT)
                return NULL;
        if (r < 0) {
                *ret_error = r;
                return NULL;
        }
        if (len <= l || memcmp(data, field, l) != 0 || ((const char *) data)[l] != '=')
                return NULL;
        n = len - l - 1;
        if (n >= size || memchr((const char *) data + l + 1, '\0', n))
                return NULL;
        memcpy(buf, (const char *) data + l + 1, n);
        buf[n] = '\0';
        return buf;
}

int journal_entry_from(sd_journal *j, const JournalSender *want) {
        char transport[32], unit[256], uid[32];
        const char *t, *n, *u;
        int r = 0;

        t = entry_value(j, "_TRANSPORT", transport, sizeof(transport), &r);
        n = entry_value(j, "_SYSTEMD_UNIT", unit, sizeof(unit), &r);
        u = entry_value(j, "_UID", uid, sizeof(uid), &r);
        if (r < 0)
                return r;
        return journal_sender_match(want, t, n, u);
}

int journal_add_sender_matches(sd_journal *j, const JournalSender *want) {
        char m[300];
        int r;

        if (!want || !want->unit)
                return -EINVAL;
        r = sd_journal_add_match(j, "_TRANSPORT=journal", 0);
        if (r < 0)
                return r;
        if ((size_t) snprintf(m, sizeof(m), "_SYSTEMD_UNIT=%s", want->unit) >= sizeof(m))
                return -ENAMETOOLONG;
        r = sd_journal_add_match(j, m, 0);
        if (r < 0 || want->uid == JOURNAL_SENDER_ANY_UID)
                return r;
        snprintf(m, sizeof(m), "_UID=%u", (unsigned) want->uid);
        return sd_journal_add_match(j, m, 0);
}
