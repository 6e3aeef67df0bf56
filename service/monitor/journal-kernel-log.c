/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include <string.h>

#include <systemd/sd-id128.h>
#include <systemd/sd-journal.h>

#include "journal-kernel-log.h"
#include "kernel-watch-journal.h"
#include "macro.h"

KernelLogState journal_kernel_log_scan(const KernelReason *reasons[_RNG_SOURCE_MAX], void *userdata) {
        _cleanup_(sd_journal_closep) sd_journal *j = NULL;
        sd_id128_t boot;
        int r;

        if (sd_id128_get_boot(&boot) < 0 || kernel_watch_journal_open(&j) < 0)
                return KERNEL_LOG_UNREADABLE;
        r = kernel_watch_journal_match_kernel(j, boot);
        if (r >= 0)
                r = sd_journal_seek_head(j);
        while (r >= 0 && (r = sd_journal_next(j)) > 0) {
                const KernelReason *m;
                const void *data;
                size_t len;

                if (sd_journal_get_data(j, "MESSAGE", &data, &len) < 0 || len < strlen("MESSAGE="))
                        continue;
                m = kernel_reason_match((const char *) data + strlen("MESSAGE="), len - strlen("MESSAGE="));
                if (m)
                        reasons[m->instruction] = m;
        }
        return r < 0 ? KERNEL_LOG_UNREADABLE : KERNEL_LOG_READ;
}
