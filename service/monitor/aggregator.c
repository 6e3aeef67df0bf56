/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <string.h>

#include "aggregator.h"
#include "macro.h"

int aggregator_add_source(Aggregator *a, const char *name) {
        if (a->n_sources >= AGGREGATOR_MAX_SOURCES)
                return -E2BIG;
        a->sources[a->n_sources] = (AggregatorSource) { .name = name };
        return (int) a->n_sources++;
}

int aggregator_report(Aggregator *a, unsigned source, Verdict v, const char *status) {
        Verdict before, after;
        bool had;
        char *s;

        if (source >= a->n_sources || v < 0 || v >= _VERDICT_MAX)
                return -EINVAL;
        s = strdup(status ?: "");
        if (!s)
                return -ENOMEM;
        had = aggregator_verdict(a, &before);
        free(a->sources[source].status);
        a->sources[source].status = s;
        a->sources[source].verdict = v;
        a->sources[source].reported = true;
        (void) aggregator_verdict(a, &after);
        return !had || before != after;
}

bool aggregator_verdict(const Aggregator *a, Verdict *ret) {
        bool any = false;
        Verdict v = VERDICT_UNSUPPORTED;

        for (unsigned i = 0; i < a->n_sources; i++)
                if (a->sources[i].reported) {
                        v = any ? verdict_worst(v, a->sources[i].verdict) : a->sources[i].verdict;
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
                if (a->sources[i].reported && a->sources[i].status[0])
                        len += strlen(a->sources[i].status) + 2;
        s = malloc(len);
        if (!s)
                return NULL;
        s[0] = '\0';
        for (unsigned i = 0; i < a->n_sources; i++)
                if (a->sources[i].reported && a->sources[i].status[0]) {
                        if (s[0])
                                strcat(s, "; ");
                        strcat(s, a->sources[i].status);
                }
        return s;
}

void aggregator_done(Aggregator *a) {
        for (unsigned i = 0; i < a->n_sources; i++)
                free(a->sources[i].status);
        *a = (Aggregator) {};
}
