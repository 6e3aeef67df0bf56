/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aggregator.h"

int aggregator_add_source(Aggregator *a, const VerdictSource *s) {
        if (a->n_sources >= AGGREGATOR_MAX_SOURCES)
                return -E2BIG;
        a->sources[a->n_sources++] = s;
        return 0;
}

bool aggregator_verdict(const Aggregator *a, Verdict *ret) {
        bool any = false;
        Verdict v = VERDICT_UNSUPPORTED;

        for (unsigned i = 0; i < a->n_sources; i++)
                if (a->sources[i]->reported) {
                        v = any ? verdict_worst(v, a->sources[i]->verdict) : a->sources[i]->verdict;
                        any = true;
                }
        if (any && ret)
                *ret = v;
        return any;
}

char *aggregator_status(const Aggregator *a) {
        size_t len = 1;
        char *s;

        for (unsigned i = 0; i < a->n_sources; i++)
                if (a->sources[i]->reported && a->sources[i]->status[0])
                        len += strlen(a->sources[i]->status) + 2;
        s = malloc(len);
        if (!s)
                return NULL;
        s[0] = '\0';
        for (unsigned i = 0; i < a->n_sources; i++)
                if (a->sources[i]->reported && a->sources[i]->status[0]) {
                        if (s[0])
                                strcat(s, "; ");
                        strcat(s, a->sources[i]->status);
                }
        return s;
}

bool aggregator_announce(Aggregator *a, AggregatorChange *ret) {
        Verdict v;

        if (!aggregator_verdict(a, &v))
                return false;
        *ret = (AggregatorChange) {
                .verdict = v,
                .first = !a->announced,
                .changed = !a->announced || a->announced_verdict != v,
                .previous = a->announced_verdict,
        };
        a->announced = true;
        a->announced_verdict = v;
        return true;
}
