/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "verdict-source.h"

void verdict_source_init(VerdictSource *s, const char *name, VerdictSourceListener listener, void *userdata) {
        *s = (VerdictSource) { .name = name, .listener = listener, .userdata = userdata };
}

int verdict_source_report_full(VerdictSource *s, VerdictReport *report) {
        Verdict v = VERDICT_UNSUPPORTED;
        char *copy;

        if (!s)
                return 0; /* detached: the producer is going away */
        if (!report)
                return -EINVAL;
        FOREACH_RNG_SOURCE(i) {
                if ((unsigned) report->instr[i] >= _VERDICT_MAX)
                        return -EINVAL;
                v = verdict_worst(v, report->instr[i]);
        }
        copy = strdup(report->status ?: "");
        if (!copy)
                return -ENOMEM;
        free(s->status);
        s->status = copy;
        s->verdict = v;
        memcpy(s->instr, report->instr, sizeof(s->instr));
        s->reported = true;
        if (s->listener)
                s->listener(s, report, s->userdata);
        return 0;
}

int verdict_source_report(VerdictSource *s, const Verdict instr[_RNG_SOURCE_MAX], const char *status,
                          const char *trigger) {
        VerdictReport report = { .trigger = trigger, .status = status };

        if (!instr)
                return -EINVAL;
        memcpy(report.instr, instr, sizeof(report.instr));
        return verdict_source_report_full(s, &report);
}

void verdict_source_done(VerdictSource *s) {
        free(s->status);
        *s = (VerdictSource) {};
}
