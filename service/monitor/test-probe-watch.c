/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The probe watch on an sd-event loop with scripted sources: a probe that
 * fails still re-arms the re-probe timer (periodic probing must not stop
 * silently after an early return), and the re-probe reports through the
 * VerdictSource. */


#include <errno.h>
#include <string.h>

#include "config.h"
#include "macro.h"
#include "probe-watch.h"
#include "scripted-source.h"
#include "test-util.h"

typedef struct Heard {
        unsigned reports;
        char trigger[16];
} Heard;

static void on_report(VerdictSource *s, VerdictReport *report, void *userdata) {
        Heard *h = userdata;

        h->reports++;
        snprintf(h->trigger, sizeof(h->trigger), "%s", report->trigger);
}

static Script scripts[_RNG_SOURCE_MAX][RNG_N_WIDTHS];

static const RngSource *healthy(RngSourceId i, unsigned width, unsigned thread, void *userdata) {
        return &scripts[i][rng_width_index(width)].source;
}

static void test_rearm_after_failure(void) {
        static const bool cpuid[_RNG_SOURCE_MAX] = { true, true };
        _cleanup_(probe_watch_freep) ProbeWatch *w = NULL;
        sd_event *e = NULL;
        VerdictSource src;
        Heard heard = {};
        Config c;

        for (int i = 0; i < _RNG_SOURCE_MAX; i++)
                for (int k = 0; k < RNG_N_WIDTHS; k++)
                        script_init(&scripts[i][k], SCRIPT_HEALTHY, rng_widths[k], 0, 0, 0, 7 + k);
        config_default(&c);
        c.reprobe_usec = 20 * 1000;
        c.probe.threads = 1;
        c.probe.source = healthy;
        c.probe.cpuid = cpuid;
        c.probe.limits = (ProbeLimits) { .max_attempts = 256, .min_attempts = 256 };
        c.probe.widths = 0; /* probe_run_all() refuses it: the early return */

        CHECK_EQ_INT(sd_event_new(&e), 0);
        verdict_source_init(&src, "probe", on_report, &heard);
        CHECK_EQ_INT(probe_watch_new(e, &c, NULL, NULL, &src, &w), 0);
        CHECK_EQ_INT(probe_watch_run(w, "boot"), -EINVAL);
        CHECK_EQ_INT(heard.reports, 0);

        /* The configuration is good again (as after a reload): the timer,
         * armed despite the failure, re-probes and reports. */
        c.probe.widths = 1u << rng_width_index(64); /* every architecture's instructions have it */
        for (int k = 0; k < 50 && heard.reports == 0; k++)
                CHECK(sd_event_run(e, 100 * 1000) >= 0, "sd_event_run");
        CHECK_EQ_INT(heard.reports, 1);
        CHECK(strcmp(heard.trigger, "reprobe") == 0, "trigger '%s', expected reprobe", heard.trigger);
        CHECK_EQ_INT(src.verdict, VERDICT_OK);

        /* And it keeps going. */
        for (int k = 0; k < 50 && heard.reports < 3; k++)
                CHECK(sd_event_run(e, 100 * 1000) >= 0, "sd_event_run");
        CHECK(heard.reports >= 3, "re-probes stopped after %u", heard.reports);

        w = probe_watch_free(w);
        verdict_source_done(&src);
        sd_event_unref(e);
}

int main(void) {
        test_rearm_after_failure();
        return test_result("test-probe-watch");
}
