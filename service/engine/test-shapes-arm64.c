/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The arm64 shapes from the reports (issue 30), as scripted sources in the
 * arm64 build: what the service says and does about each, with and
 * without the firmware's SMCCC TRNG (the kernel fact that reweighs
 * RNDRRS), on a plain VM (no FailOn=) and on a confidential VM (the
 * FailOn= default, ConfidentialVM=yes forced):
 *   healthy      RNDR and RNDRRS never fail;
 *   axion-like   RNDR fails 3 % of tries, in bursts of 3 (the reports:
 *                about 3-4 % of TLS handshakes, clustered), RNDRRS healthy;
 *   oryon-like   RNDRRS never succeeds, RNDR healthy.
 * The status line of each source, its verdict, severity and syslog
 * priority, and FailOn='s outcome (the daemon's exit status, 0: it keeps
 * running) are asserted. The kernel fact is also read from a fixture root
 * (rng_source_kernel_facts_read()). */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "fail-on.h"
#include "macro.h"
#include "scripted-source.h"
#include "sources.h"
#include "status.h"
#include "test-util.h"

#if RNG_SOURCES_ARM64

typedef struct Expect {
        Verdict verdict;
        Severity severity;
        int priority;
        const char *status; /* the status fragment, exactly */
} Expect;

typedef struct Shape {
        const char *name;
        ScriptKind rndr;
        double rndr_rate;
        uint64_t rndr_param, rndr_param2;
        ScriptKind rndrrs;
        /* [smccc] */
        Expect rndr_expect[2], rndrrs_expect[2];
        /* FailOn='s exit status on a confidential VM (0: keeps running) */
        int cvm_exit;
} Shape;

#define RNDR_OK "RNDR ok (0 of 2.05k tries failed)"
#define RNDRRS_OK "RNDRRS ok (0 of 2.05k tries failed)"
/* 2048 tries, 3 failed of every 99 (t % 99 < 3): 20 whole cycles and 68
 * tries more, 21 bursts, 63 failed tries (3.08 %), 21 values after a
 * failed try, each more than the kernel's 1 read. */
#define AXION                                                                                             \
        "RNDR exhausted: 3.1 % of tries failed, 21 values needed >1 try (the CRNG loses its arch input " \
        "at once (the kernel reads RNDR once, no retry); user-space that calls RNDR itself fails (aws-lc " \
        "before 8d931575))"
#define ORYON "RNDRRS exhausted: no value delivered in 2.05k tries"

static const Shape shapes[] = {
        {
                .name = "healthy",
                .rndr = SCRIPT_HEALTHY, .rndrrs = SCRIPT_HEALTHY,
                .rndr_expect = { { VERDICT_OK, SEVERITY_INFO, LOG_INFO, RNDR_OK },
                                 { VERDICT_OK, SEVERITY_INFO, LOG_INFO, RNDR_OK } },
                .rndrrs_expect = { { VERDICT_OK, SEVERITY_INFO, LOG_INFO, RNDRRS_OK },
                                   { VERDICT_OK, SEVERITY_INFO, LOG_INFO, RNDRRS_OK } },
                .cvm_exit = 0,
        },
        {
                .name = "axion-like",
                .rndr = SCRIPT_BURSTS, .rndr_param = 3, .rndr_param2 = 96,
                .rndrrs = SCRIPT_HEALTHY,
                .rndr_expect = { { VERDICT_EXHAUSTED, SEVERITY_ERR, LOG_ERR, AXION },
                                 { VERDICT_EXHAUSTED, SEVERITY_ERR, LOG_ERR, AXION } },
                .rndrrs_expect = { { VERDICT_OK, SEVERITY_INFO, LOG_INFO, RNDRRS_OK },
                                   { VERDICT_OK, SEVERITY_INFO, LOG_INFO, RNDRRS_OK } },
                .cvm_exit = EXIT_VERDICT_EXHAUSTED,
        },
        {
                .name = "oryon-like",
                .rndr = SCRIPT_HEALTHY, .rndrrs = SCRIPT_ALWAYS_FAIL,
                .rndr_expect = { { VERDICT_OK, SEVERITY_INFO, LOG_INFO, RNDR_OK },
                                 { VERDICT_OK, SEVERITY_INFO, LOG_INFO, RNDR_OK } },
                /* Nothing delivered is exhaustion (every call of the
                 * kernel's one read fails), routine for RNDRRS: the kernel
                 * falls back, so a confidential VM's service keeps running. */
                .rndrrs_expect = {
                        { VERDICT_EXHAUSTED, SEVERITY_NOTICE, LOG_NOTICE,
                          ORYON " (the kernel seeds from RNDR instead)" },
                        { VERDICT_EXHAUSTED, SEVERITY_NOTICE, LOG_NOTICE,
                          ORYON " (the kernel seeds from the firmware's SMCCC TRNG; its RNDRRS failures do not "
                                "matter to it)" },
                },
                .cvm_exit = 0,
        },
};

static void check_source(const char *shape, bool smccc, bool cvm, const ProbeReport *r, RngSourceId i,
                         const Expect *e) {
        char buf[1024];

        status_format_source(r, i, buf, sizeof(buf));
        printf("%s, %s SMCCC TRNG, %s: %s\n", shape, smccc ? "with" : "without", cvm ? "confidential VM" : "plain VM",
               buf);
        CHECK(strcmp(buf, e->status) == 0, "%s smccc=%d: '%s', expected '%s'", shape, smccc, buf, e->status);
        CHECK_EQ_INT(r->instr[i].verdict, e->verdict);
        CHECK_EQ_INT(verdict_severity(i, r->instr[i].verdict), e->severity);
        CHECK_EQ_INT(verdict_priority(i, r->instr[i].verdict), e->priority);
}

/* The daemon's exit status for the report under FailOn= f: 0 if it keeps
 * running. */
static int fail_on_exit(const FailOn *f, const ProbeReport *r) {
        Verdict v[_RNG_SOURCE_MAX], worst;
        RngSourceId id;

        FOREACH_RNG_SOURCE(i)
                v[i] = r->instr[i].verdict;
        return fail_on_match(f, v, &worst, &id) ? verdict_exit_status(worst) : 0;
}

static void test_shapes(void) {
        bool cpuid[_RNG_SOURCE_MAX] = {};

        cpuid[RNG_SOURCE_RNDR] = cpuid[RNG_SOURCE_RNDRRS] = true;
        CHECK_EQ_INT(script_cpu_instruction(0), RNG_SOURCE_RNDR);
        CHECK_EQ_INT(script_cpu_instruction(1), RNG_SOURCE_RNDRRS);
        for (size_t k = 0; k < ELEMENTSOF(shapes); k++) {
                const Shape *s = &shapes[k];
                ProbeReport r;

                script_make_report_of(s->rndr, s->rndr_rate, s->rndr_param, s->rndr_param2, s->rndrrs, 0, 0, cpuid, false, &r);
                for (int smccc = 0; smccc <= 1; smccc++)
                        for (int cvm = 0; cvm <= 1; cvm++) {
                                FailOn f = cvm ? fail_on_cvm_default() : (FailOn) {};

                                rng_source_kernel_fact_set(RNG_SOURCE_RNDRRS, smccc);
                                check_source(s->name, smccc, cvm, &r, RNG_SOURCE_RNDR, &s->rndr_expect[smccc]);
                                check_source(s->name, smccc, cvm, &r, RNG_SOURCE_RNDRRS, &s->rndrrs_expect[smccc]);
                                printf("%s, %s SMCCC TRNG, %s: the service %s\n", s->name,
                                       smccc ? "with" : "without", cvm ? "confidential VM" : "plain VM",
                                       fail_on_exit(&f, &r) ? "exits (FailOn= matched)" : "keeps running");
                                CHECK(fail_on_exit(&f, &r) == (cvm ? s->cvm_exit : 0),
                                      "%s smccc=%d cvm=%d: exit %d", s->name, smccc, cvm, fail_on_exit(&f, &r));
                        }
        }
        rng_source_kernel_fact_set(RNG_SOURCE_RNDRRS, false);
}

/* The SMCCC TRNG from a fixture root: its platform device, or nothing. */
static void test_smccc_fact(void) {
        char root[] = "/tmp/test-shapes-arm64.XXXXXX", path[256];

        CHECK(mkdtemp(root), "mkdtemp");
        rng_source_kernel_facts_read(root);
        CHECK(!rng_source_kernel_fact(RNG_SOURCE_RNDRRS), "no device: no SMCCC TRNG");
        CHECK(strcmp(verdict_consequence(RNG_SOURCE_RNDRRS, VERDICT_EXHAUSTED), "the kernel seeds from RNDR instead") ==
                      0, "without");
        snprintf(path, sizeof(path), "%s/sys/bus/platform/devices/smccc_trng", root);
        {
                char cmd[512];

                snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
                CHECK_EQ_INT(system(cmd), 0);
        }
        rng_source_kernel_facts_read(root);
        CHECK(rng_source_kernel_fact(RNG_SOURCE_RNDRRS), "the platform device: SMCCC TRNG");
        CHECK(!rng_source_kernel_fact(RNG_SOURCE_RNDR), "RNDR names no fact");
        CHECK(strstr(verdict_consequence(RNG_SOURCE_RNDRRS, VERDICT_EXHAUSTED), "SMCCC TRNG") != NULL, "with");
        CHECK_EQ_INT(verdict_severity(RNG_SOURCE_RNDRRS, VERDICT_EXHAUSTED), SEVERITY_NOTICE);
        /* RNDR's weights do not move. */
        CHECK_EQ_INT(verdict_severity(RNG_SOURCE_RNDR, VERDICT_EXHAUSTED), SEVERITY_ERR);
        {
                char cmd[512];

                snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
                CHECK_EQ_INT(system(cmd), 0);
        }
        rng_source_kernel_facts_read(root); /* gone: back to the default */
        CHECK(!rng_source_kernel_fact(RNG_SOURCE_RNDRRS), "root removed");
}

int main(void) {
        test_shapes();
        test_smccc_fact();
        return test_result("test-shapes-arm64");
}

#else
int main(void) {
        fprintf(stderr, "test-shapes-arm64: built for an arm64 build only\n");
        return 1;
}
#endif
