/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include <string.h>

#include <systemd/sd-id128.h>
#include <systemd/sd-journal.h>

#include "journal-kernel-log.h"
#include "kernel-watch-journal.h"
#include "macro.h"

KernelLogState journal_kernel_log_scan(const KernelReason *reasons[_RNG_SOURCE_MAX], KernelBootLog *boot,
                                       void *userdata) {
        _cleanup_(sd_journal_closep) sd_journal *j = NULL;
        sd_id128_t boot_id;
        int r;

        if (sd_id128_get_boot(&boot_id) < 0 || kernel_watch_journal_open(&j) < 0)
                return KERNEL_LOG_UNREADABLE;
        r = kernel_watch_journal_match_kernel(j, boot_id);
        if (r >= 0)
                r = sd_journal_seek_head(j);
        while (r >= 0 && (r = sd_journal_next(j)) > 0) {
                const KernelReason *m;
                const char *text;
                const void *data;
                size_t len;
                uint64_t usec;

                if (sd_journal_get_data(j, "MESSAGE", &data, &len) < 0 || len < strlen("MESSAGE="))
                        continue;
                text = (const char *) data + strlen("MESSAGE=");
                len -= strlen("MESSAGE=");
                if (reasons && (m = kernel_reason_match(text, len)))
                        reasons[m->instruction] = m;
                if (boot && kernel_watch_journal_entry_usec(j, &usec) >= 0) {
                        (void) kernel_boot_log_feed(boot, text, len, usec);
                        if (!reasons && kernel_boot_log_settled(boot))
                                break;
                }
        }
        return r < 0 ? KERNEL_LOG_UNREADABLE : KERNEL_LOG_READ;
}
