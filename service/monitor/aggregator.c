/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aggregator.h"
#include "macro.h"
#include "status.h"

int aggregator_add_source(Aggregator *a, const VerdictSource *s) {
        if (a->n_sources >= AGGREGATOR_MAX_SOURCES)
                return -E2BIG;
        a->sources[a->n_sources++] = s;
        return 0;
}

/* The worst of the per-source verdicts (aggregator_instr_verdicts()): a
 * source's "nothing seen" does not turn a machine whose every source is
 * unsupported into ok. */
bool aggregator_verdict(const Aggregator *a, Verdict *ret) {
        Verdict v[_RNG_SOURCE_MAX], w = VERDICT_UNSUPPORTED;

        if (!aggregator_instr_verdicts(a, v))
                return false;
        FOREACH_RNG_SOURCE(i)
                w = verdict_worst(w, v[i]);
        if (ret)
                *ret = w;
        return true;
}

/* Per instruction: a problem (worse than ok) from any source wins;
 * otherwise the most limited presence. A source that saw nothing wrong
 * (the kernel watch's ok: no kernel message) says nothing of presence, so
 * it does not turn an instruction the probe found hidden or unsupported
 * into ok. */
bool aggregator_instr_verdicts(const Aggregator *a, Verdict ret[_RNG_SOURCE_MAX]) {
        Verdict problem[_RNG_SOURCE_MAX], calm[_RNG_SOURCE_MAX];
        bool any = false;

        FOREACH_RNG_SOURCE(i) {
                problem[i] = VERDICT_OK;
                calm[i] = VERDICT_OK;
        }
        for (unsigned k = 0; k < a->n_sources; k++)
                if (a->sources[k]->reported) {
                        FOREACH_RNG_SOURCE(i) {
                                Verdict v = a->sources[k]->instr[i];

                                if (v > VERDICT_OK)
                                        problem[i] = verdict_worst(problem[i], v);
                                else
                                        calm[i] = MIN(calm[i], v);
                        }
                        any = true;
                }
        if (any)
                FOREACH_RNG_SOURCE(i)
                        ret[i] = problem[i] > VERDICT_OK ? problem[i] : calm[i];
        return any;
}

Severity aggregator_severity(const Aggregator *a) {
        Verdict v[_RNG_SOURCE_MAX];
        Severity s = SEVERITY_INFO;

        if (!aggregator_instr_verdicts(a, v))
                return s;
        FOREACH_RNG_SOURCE(i)
                s = MAX(s, verdict_severity(i, v[i]));
        return s;
}

char *aggregator_status(const Aggregator *a) {
        const char *fragments[AGGREGATOR_MAX_SOURCES];

        for (unsigned i = 0; i < a->n_sources; i++)
                fragments[i] = a->sources[i]->reported ? a->sources[i]->status : NULL;
        return status_join(fragments, a->n_sources);
}

bool aggregator_announce(Aggregator *a, AggregatorChange *ret) {
        Verdict v;

        if (!aggregator_verdict(a, &v))
                return false;
        *ret = (AggregatorChange) {
                .verdict = v,
                .severity = aggregator_severity(a),
                .first = !a->announced,
                .previous = a->announced_verdict,
        };
        memcpy(ret->previous_instr, a->announced_instr, sizeof(ret->previous_instr));
        (void) aggregator_instr_verdicts(a, ret->instr);
        ret->changed = !a->announced || a->announced_verdict != v ||
                       memcmp(a->announced_instr, ret->instr, sizeof(ret->instr)) != 0;
        a->announced = true;
        a->announced_verdict = v;
        memcpy(a->announced_instr, ret->instr, sizeof(ret->instr));
        return true;
}
