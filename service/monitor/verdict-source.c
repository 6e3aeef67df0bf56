/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "verdict-source.h"

void verdict_source_init(VerdictSource *s, const char *name, VerdictSourceListener listener, void *userdata) {
        *s = (VerdictSource) { .name = name, .listener = listener, .userdata = userdata };
}

int verdict_source_report(VerdictSource *s, Verdict v, const char *status, const char *trigger) {
        char *copy;

        if (!s)
                return 0; /* detached: the producer is going away */
        if (v < 0 || v >= _VERDICT_MAX)
                return -EINVAL;
        copy = strdup(status ?: "");
        if (!copy)
                return -ENOMEM;
        free(s->status);
        s->status = copy;
        s->verdict = v;
        s->reported = true;
        if (s->listener)
                s->listener(s, trigger, s->userdata);
        return 0;
}

void verdict_source_done(VerdictSource *s) {
        free(s->status);
        *s = (VerdictSource) {};
}
