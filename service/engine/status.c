/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "macro.h"
#include "probe-summary.h"
#include "format-util.h"
#include "status.h"

static void format_instruction(const ProbeReport *r, RngSourceId i, char *buf, size_t len) {
        /* "RDSEED exhausted: 72 % of tries failed, 3.31k values needed >1 try (the kernel seeds from
         * RDRAND instead)": the verdict, its figures, and what the kernel does about it. */
        const ProbeSourceResult *in = &r->instr[i];
        char a[16], b[16], c[16], checks[128];
        const char *name = rng_source_display_name(i);
        const char *kernel = in->kernel.state == KERNEL_STATE_DISABLED ? " (disabled by the kernel)" : "";
        const ProbeSummary *s = &in->summary; /* summed once by probe_run_all() */
        const ProbeRun *worst = probe_source_worst_run(in);
        const char *consequence = probe_source_consequence(in);

        if (!in->executes) {
                snprintf(buf, len, "%s not supported by this CPU", name);
                return;
        }
        if (s->probed && in->verdict == VERDICT_HIDDEN) {
                /* What it does when run anyway, under its own name: nothing
                 * relies on it. */
                health_result_format(&worst->health, checks, sizeof(checks));
                snprintf(buf, len, "%s hidden by the kernel%s%s%s: run anyway, %s of tries failed%s%s%s", name,
                         in->erratum ? " (known erratum " : "", in->erratum ? in->erratum->id : "",
                         in->erratum ? ")" : "", format_percent(s->failure_rate, a, sizeof(a)),
                         checks[0] ? ", output check failed (" : "", checks, checks[0] ? ")" : "");
                return;
        }
        if (!s->probed) {
                snprintf(buf, len, "%s not probed%s", name, kernel);
                return;
        }
        switch (in->verdict) {
        case VERDICT_OK:
                snprintf(buf, len, "%s ok%s (0 of %s %s failed)", name, kernel,
                         format_si((double) s->attempts, a, sizeof(a)), plural(s->attempts, "try", "tries"));
                break;
        case VERDICT_DEGRADED:
                snprintf(buf, len, "%s degraded%s: %s of tries failed, every value within %" PRIu64 " %s",
                         name, kernel, format_percent(s->failure_rate, a, sizeof(a)),
                         in->kernel_retries, plural(in->kernel_retries, "try", "tries"));
                break;
        case VERDICT_EXHAUSTED:
                snprintf(buf, len, "%s exhausted%s: %s of tries failed, %s %s needed >%" PRIu64 " %s",
                         name, kernel, format_percent(s->failure_rate, a, sizeof(a)),
                         format_si((double) s->retry_exhausted, b, sizeof(b)),
                         plural(s->retry_exhausted, "value", "values"), in->kernel_retries,
                         plural(in->kernel_retries, "try", "tries"));
                break;
        case VERDICT_BROKEN:
                if (worst->delivered == 0)
                        snprintf(buf, len, "%s broken%s: no value delivered in %s %s", name, kernel,
                                 format_si((double) worst->attempts, c, sizeof(c)),
                                 plural(worst->attempts, "try", "tries"));
                else {
                        health_result_format(&worst->health, checks, sizeof(checks));
                        snprintf(buf, len, "%s broken%s: output check failed (%s), %s of tries failed",
                                 name, kernel, checks, format_percent(s->failure_rate, a, sizeof(a)));
                }
                break;
        default:
                snprintf(buf, len, "%s %s%s", name, verdict_to_string(in->verdict), kernel);
                break;
        }
        /* What the running kernel does about it. */
        if (consequence) {
                size_t k = strlen(buf);

                if (k < len)
                        snprintf(buf + k, len - k, " (%s)", consequence);
        }
        if (in->erratum) {
                size_t k = strlen(buf);

                if (k < len)
                        snprintf(buf + k, len - k, " [known erratum %s]", in->erratum->id);
        }
}

char *status_format_probe(const ProbeReport *r) {
        char out[1280] = "", part[512];
        bool any_cpuid = false;

        if (!r->arch_supported)
                return strdup("RDRAND/RDSEED: not an x86-64 machine, nothing to check");
        for (int i = 0; i < _RNG_SOURCE_MAX; i++)
                any_cpuid = any_cpuid || (r->instr[i].selected && r->instr[i].executes);
        if (!any_cpuid)
                return strdup("no RDRAND/RDSEED on this CPU: nothing to check");

        for (int i = 0; i < _RNG_SOURCE_MAX; i++) {
                size_t k = strlen(out);

                if (!r->instr[i].selected)
                        continue;
                format_instruction(r, i, part, sizeof(part));
                snprintf(out + k, sizeof(out) - k, "%s%s", k ? "; " : "", part);
        }
        return strdup(out);
}
