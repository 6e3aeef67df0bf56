/* SPDX-License-Identifier: GPL-2.0-or-later */

/* report's entries from the journal: rng-health.service's own events
 * (journal-sender.h), per boot and since a time (report.h). */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <systemd/sd-journal.h>

#include "journal-files.h"
#include "journal-ids.h"
#include "journal-sender.h"
#include "macro.h"
#include "report.h"

static const char *const report_mids[] = {
        RNG_MID_PROBE_RESULT_STR,  RNG_MID_VERDICT_BOOT_STR,   RNG_MID_VERDICT_CHANGED_STR,
        RNG_MID_OUTPUT_CHECK_STR,  RNG_MID_UNAVAILABLE_STR,    RNG_MID_CONFIG_INVALID_STR,
        RNG_MID_POLICY_FAILURE_STR,
        /* the kernel watch's, in the order of KernelRngMsgKind */
        RNG_MID_KERNEL_EXHAUSTED_STR, RNG_MID_KERNEL_FAILED_STR, RNG_MID_KERNEL_DISABLED_STR,
        RNG_MID_KERNEL_DEFECTIVE_STR, RNG_MID_VM_FORK_STR, RNG_MID_CRNG_READY_STR,
};

static int entry_fields(sd_journal *j, EventFields *f) {
        const void *data;
        size_t len;
        int r;

        SD_JOURNAL_FOREACH_DATA(j, data, len) {
                const char *d = data;

                if (!((len > 4 && memcmp(d, "RNG_", 4) == 0) || (len > 11 && memcmp(d, "MESSAGE_ID=", 11) == 0)))
                        continue;
                r = event_fields_addf(f, "%.*s", (int) len, d);
                if (r == -E2BIG)
                        break;
                if (r < 0)
                        return r;
        }
        return 0;
}

static int add_matches(sd_journal *j, const sd_id128_t *boot_id) {
        char m[64];
        int r;

        for (size_t i = 0; i < ELEMENTSOF(report_mids); i++) {
                snprintf(m, sizeof(m), "MESSAGE_ID=%s", report_mids[i]);
                r = sd_journal_add_match(j, m, 0);
                if (r < 0)
                        return r;
        }
        if (boot_id) {
                char s[SD_ID128_STRING_MAX];

                snprintf(m, sizeof(m), "_BOOT_ID=%s", sd_id128_to_string(*boot_id, s));
                r = sd_journal_add_match(j, m, 0); /* another field: ANDed */
                if (r < 0)
                        return r;
        }
        return 0;
}

static int read_entries(const sd_id128_t *boot_id, uint64_t since_usec, Report *ret) {
        _cleanup_(sd_journal_closep) sd_journal *j = NULL;
        int r;

        r = sd_journal_open(&j, SD_JOURNAL_LOCAL_ONLY);
        if (r < 0)
                return r;
        r = add_matches(j, boot_id);
        if (r < 0)
                return r;
        r = since_usec ? sd_journal_seek_realtime_usec(j, since_usec) : sd_journal_seek_head(j);
        if (r < 0)
                return r;

        for (;;) {
                EventFields f = {};
                sd_id128_t boot;
                uint64_t t;

                r = sd_journal_next(j);
                if (r < 0)
                        return r;
                if (r == 0)
                        break;
                r = sd_journal_get_realtime_usec(j, &t);
                if (r < 0)
                        return r;
                if (t < since_usec)
                        continue;
                r = sd_journal_get_monotonic_usec(j, NULL, &boot);
                if (r < 0)
                        return r;
                /* Only rng-health.service's own entries (journal-sender.h):
                 * the others are counted, never used. */
                r = journal_entry_from(j, &(JournalSender) { RNG_HEALTH_UNIT, JOURNAL_SENDER_ANY_UID });
                if (r < 0)
                        return r;
                if (r == 0) {
                        ret->foreign++;
                        continue;
                }
                r = entry_fields(j, &f);
                if (r >= 0)
                        r = report_add_entry(ret, boot, t, &f);
                event_fields_done(&f);
                /* not ours (-EINVAL) or malformed (-EBADMSG, counted) */
                if (r < 0 && r != -EINVAL && r != -EBADMSG)
                        return r;
        }
        return 0;
}

int report_read_journal(const ReportFilter *filter, Report *ret) {
        sd_id128_t current;
        Report all = {};
        int r;

        *ret = (Report) {};
        /* sd-journal skips what it cannot open: without this, no journal
         * and a journal this user may not read both read as no events. */
        r = journal_files_check(NULL);
        if (r == -ENOENT)
                return -ENOMEDIUM;
        if (r < 0)
                return r;
        if (!filter->boot)
                return read_entries(NULL, filter->since_usec, ret);
        if (filter->boot_is_id) {
                r = read_entries(&filter->boot_id, filter->since_usec, ret);
                if (r >= 0 && ret->n_boots == 0) {
                        report_done(ret);
                        return -ENXIO; /* an unknown boot, or one without events */
                }
                return r;
        }

        r = sd_id128_get_boot(&current);
        if (r < 0)
                return r;
        if (filter->boot_offset == 0)
                return read_entries(&current, filter->since_usec, ret);

        /* A negative offset counts back over the boots that have rng-health
         * events, from the current one (or the last one before it). */
        r = read_entries(NULL, filter->since_usec, &all);
        if (r >= 0) {
                size_t last = all.n_boots;

                if (last > 0 && sd_id128_equal(all.boots[last - 1].boot_id, current))
                        last--;
                /* boot_offset -1 is the last boot before the current; read
                 * again for that boot alone, so that what was ignored is
                 * that boot's too. */
                if ((size_t) -filter->boot_offset <= last)
                        r = read_entries(&all.boots[last + filter->boot_offset].boot_id, filter->since_usec, ret);
                else
                        r = -ENXIO;
        }
        report_done(&all);
        return r;
}
