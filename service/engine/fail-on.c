/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fail-on.h"
#include "macro.h"

FailOn fail_on_cvm_default(void) {
        FailOn f = {};

        FOREACH_RNG_SOURCE(id)
                f.mask[id] = rng_source_desc(id)->fail_on_cvm;
        return f;
}

const char *fail_on_words_expect(char *buf, size_t len) {
        size_t n;

        snprintf(buf, len, "a verdict: degraded, exhausted, broken, hidden, host-fed, unsupported or ok, "
                 "optionally after ");
        n = strlen(buf);
        rng_source_names_join(RNG_SOURCES_ALL, false, ":", ", ", " or ", buf + n, len - n);
        return buf;
}

int fail_on_add_word(FailOn *f, const char *word) {
        const char *colon;
        int i = -1, v;

        if (!f || !word)
                return -EINVAL;
        colon = strchr(word, ':');
        if (colon) {
                char name[16];

                if ((size_t) (colon - word) >= sizeof(name))
                        return -EINVAL;
                memcpy(name, word, colon - word);
                name[colon - word] = '\0';
                i = rng_source_from_name(name);
                if (i < 0)
                        return -EINVAL;
                word = colon + 1;
        }
        v = verdict_from_string(word);
        if (v < 0)
                return -EINVAL;
        /* A source's verdict it can never have would never match. */
        if (i >= 0 && !(rng_source_verdicts(i) & (1u << v)))
                return -EDOM;
        FOREACH_RNG_SOURCE(k)
                if (i < 0 || (RngSourceId) i == k)
                        f->mask[k] |= 1u << v;
        return 0;
}

bool fail_on_empty(const FailOn *f) {
        FOREACH_RNG_SOURCE(k)
                if (f->mask[k])
                        return false;
        return true;
}

/* Whether verdict v is in f for every source that can have it (and some
 * source can): then it is written once, bare. */
static bool every_source(const FailOn *f, Verdict v) {
        bool any = false;

        FOREACH_RNG_SOURCE(k) {
                if (!(rng_source_verdicts(k) & (1u << v)))
                        continue;
                if (!(f->mask[k] & (1u << v)))
                        return false;
                any = true;
        }
        return any;
}

void fail_on_format(const FailOn *f, char *buf, size_t len) {
        size_t n = 0;

        if (len == 0)
                return;
        buf[0] = '\0';
        /* The verdicts every source that can have them has, bare; then
         * the rest, per source. */
        for (int v = 0; v < _VERDICT_MAX; v++)
                if (every_source(f, v) && n < len)
                        n += snprintf(buf + n, len - n, "%s%s", n ? " " : "", verdict_to_string(v));
        FOREACH_RNG_SOURCE(k)
                for (int v = 0; v < _VERDICT_MAX; v++)
                        if ((f->mask[k] & (1u << v)) && !every_source(f, v) && n < len)
                                n += snprintf(buf + n, len - n, "%s%s:%s", n ? " " : "", rng_source_name(k),
                                              verdict_to_string(v));
        if (n == 0)
                snprintf(buf, len, "none");
}

bool fail_on_match(const FailOn *f, const Verdict v[_RNG_SOURCE_MAX], Verdict *ret_verdict,
                   RngSourceId *ret_instruction) {
        bool any = false;

        FOREACH_RNG_SOURCE(k) {
                if (!(f->mask[k] & (1u << v[k])))
                        continue;
                if (!any || v[k] > *ret_verdict) {
                        *ret_verdict = v[k];
                        *ret_instruction = k;
                }
                any = true;
        }
        return any;
}

int fail_on_exit_status(const FailOn *strict, const Verdict v[_RNG_SOURCE_MAX], unsigned selected) {
        FailOn f = {};
        RngSourceId source;
        Verdict worst;

        /* By weight: per source, the verdicts that weigh err. Either way,
         * only the selected sources; then FailOn='s own match. */
        FOREACH_RNG_SOURCE(k) {
                if (!(selected & (1u << k)))
                        continue;
                if (strict)
                        f.mask[k] = strict->mask[k];
                else
                        for (Verdict x = 0; x < _VERDICT_MAX; x++)
                                if (verdict_severity(k, x) >= SEVERITY_ERR)
                                        f.mask[k] |= 1u << x;
        }
        return fail_on_match(&f, v, &worst, &source) ? verdict_exit_status(worst) : 0;
}
