/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Journal event fields, the status line and the aggregator, from probe
 * reports made with scripted sources: no journal. */

#include <string.h>
#include <syslog.h>

#include "aggregator.h"
#include "journal-event.h"
#include "journal-ids.h"
#include "kernel-watch-event.h"
#include "format-util.h"
#include "macro.h"
#include "probe-summary.h"
#include "scripted-source.h"
#include "status.h"
#include "test-event-util.h"
#include "test-util.h"

#define make_report script_make_report

static void test_probe_result(void) {
        static const char *const documented[] = {
                "MESSAGE_ID", "PRIORITY", "MESSAGE", "SYSLOG_IDENTIFIER", "RNG_INSTRUCTION", "RNG_WIDTH", "RNG_MODE",
                "RNG_THREADS", "RNG_VERDICT", "RNG_ATTEMPTS", "RNG_FAILURES", "RNG_FAILURE_RATE",
                "RNG_MAX_FAIL_STREAK", "RNG_RETRY_EXHAUSTED", "RNG_RUNS", "RNG_TOTAL_ATTEMPTS", "RNG_TOTAL_FAILURES",
                "RNG_TOTAL_FAILURE_RATE", "RNG_TOTAL_RETRY_EXHAUSTED", "RNG_KERNEL_RETRIES", "RNG_PROBE_USEC", "RNG_KERNEL_STATE",
                "RNG_TRIGGER",
        };
        const bool cpuid[_RNG_SOURCE_MAX] = { true, true };
        ProbeReport r;
        EventFields f = {};
        char buf[32];

        make_report(SCRIPT_ALWAYS_FAIL, 0, 0, cpuid, &r);

        CHECK_EQ_INT(event_probe_result(&f, &r, RNG_SOURCE_RDRAND, "boot"), 0);
        for (size_t i = 0; i < sizeof(documented) / sizeof(documented[0]); i++)
                CHECK(event_fields_get(&f, documented[i]), "RDRAND: field %s missing", documented[i]);
        check_field(&f, "MESSAGE_ID", RNG_MID_PROBE_RESULT_STR);
        check_field(&f, "RNG_INSTRUCTION", "RDRAND");
        check_field(&f, "RNG_VERDICT", "ok");
        check_field(&f, "PRIORITY", "6");
        check_field(&f, "RNG_FAILURES", "0");
        check_field(&f, "RNG_TOTAL_ATTEMPTS", "6144");
        check_field(&f, "RNG_RUNS", "3");
        check_field(&f, "RNG_THREADS", "1");
        check_field(&f, "RNG_MODE", "single");
        check_field(&f, "RNG_TRIGGER", "boot");
        check_field(&f, "RNG_KERNEL_RETRIES", "10");
        /* every field is FIELD=value with an upper-case name */
        for (size_t i = 0; i < f.n; i++) {
                const char *eq = strchr(f.v[i], '=');

                CHECK(eq && eq > f.v[i], "not FIELD=value: %s", f.v[i]);
                for (const char *c = f.v[i]; eq && c < eq; c++)
                        CHECK((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_', "bad name: %s", f.v[i]);
        }
        event_fields_done(&f);

        CHECK_EQ_INT(event_probe_result(&f, &r, RNG_SOURCE_RDSEED, "reprobe"), 0);
        check_field(&f, "RNG_INSTRUCTION", "RDSEED");
        /* Nothing delivered: for the kernel that is exhaustion, not values
         * that pass for random; RDSEED's exhaustion is routine. */
        check_field(&f, "RNG_VERDICT", "exhausted");
        check_field(&f, "PRIORITY", "5");
        check_field(&f, "RNG_FAILURES", "2048");
        check_field(&f, "RNG_FAILURE_RATE", "1.0000");
        check_field(&f, "RNG_MAX_FAIL_STREAK", "2048");
        check_field(&f, "RNG_RETRY_EXHAUSTED", "1"); /* the trailing streak */
        check_field(&f, "RNG_TRIGGER", "reprobe");
        snprintf(buf, sizeof(buf), "%u", 6144u);
        check_field(&f, "RNG_TOTAL_FAILURES", buf);
        CHECK(strstr(get(&f, "MESSAGE"), "RDSEED exhausted, the kernel seeds from RDRAND instead: 6144 of 6144 tries failed (100 %)"),
              "MESSAGE: %s", get(&f, "MESSAGE"));
        check_field(&f, "RNG_CONSEQUENCE", "the kernel seeds from RDRAND instead");
        check_field(&f, "RNG_SEVERITY", "notice");
        event_fields_done(&f);
}

static void test_exhausted_and_status(void) {
        const bool cpuid[_RNG_SOURCE_MAX] = { true, true };
        _cleanup_free_ char *status = NULL;
        const ProbeSourceResult *in;
        const ProbeRun *worst;
        ProbeReport r;
        EventFields f = {};

        /* 60 % failures: some values need more than 10 tries (0.6^10 = 0.6 %). */
        make_report(SCRIPT_RANDOM_FAIL, 0.6, 0, cpuid, &r);
        in = &r.instr[RNG_SOURCE_RDSEED];
        worst = probe_source_worst_run(in);
        CHECK_EQ_INT(in->verdict, VERDICT_EXHAUSTED);
        CHECK(in->summary.retry_exhausted > 0, "retry_exhausted = %llu", (unsigned long long) in->summary.retry_exhausted);
        CHECK(worst && worst->verdict == VERDICT_EXHAUSTED, "worst run not exhausted");


        CHECK_EQ_INT(event_probe_result(&f, &r, RNG_SOURCE_RDSEED, "boot"), 0);
        check_field(&f, "RNG_VERDICT", "exhausted");
        /* RDSEED exhausted is routine: the kernel seeds from RDRAND instead. */
        check_field(&f, "PRIORITY", "5");
        check_field(&f, "RNG_SEVERITY", "notice");
        check_field(&f, "RNG_CONSEQUENCE", "the kernel seeds from RDRAND instead");
        /* No kernel state given: a stock kernel's single RDSEED try. */
        check_field(&f, "RNG_KERNEL_RETRIES", "1");
        check_field(&f, "RNG_KERNEL_RETRIES_SOURCE", "assumed");
        event_fields_done(&f);

        status = status_format_probe(&r);
        CHECK(status && strncmp(status, "RDRAND ok (0 of 6.14k tries failed); RDSEED exhausted: ", 55) == 0,
              "status: %s", status ?: "(null)");
        CHECK(status && strstr(status, "% of tries failed, ") && strstr(status, " values needed >1 try ("),
              "status: %s", status ?: "(null)");
        /* What the kernel does about it: RDSEED exhaustion is routine. */
        CHECK(status && strstr(status, " try (the kernel seeds from RDRAND instead)"), "status: %s", status ?: "(null)");
}

/* A count of one takes the singular: "1 value needed more than 1 try",
 * never "1 tries" (a stock kernel's RDSEED loop is one try). */
static void test_plurals(void) {
        const bool cpuid[_RNG_SOURCE_MAX] = { true, true };
        _cleanup_free_ char *status = NULL;
        ProbeReport r;
        EventFields f = {};

        make_report(SCRIPT_RANDOM_FAIL, 0.6, 0, cpuid, &r);
        CHECK_EQ_U64(r.instr[RNG_SOURCE_RDSEED].kernel_retries, 1);
        r.instr[RNG_SOURCE_RDSEED].summary.retry_exhausted = 1;
        r.instr[RNG_SOURCE_RDRAND].summary.attempts = 1;
        status = status_format_probe(&r);
        CHECK(status && strstr(status, "RDRAND ok (0 of 1 try failed); "), "status: %s", status ?: "(null)");
        CHECK(status && strstr(status, ", 1 value needed >1 try (the kernel"), "status: %s", status ?: "(null)");
        CHECK(status && !strstr(status, "1 tries") && !strstr(status, "1 values"), "status: %s", status ?: "(null)");
        CHECK_EQ_INT(event_probe_result(&f, &r, RNG_SOURCE_RDSEED, "boot"), 0);
        CHECK(strstr(get(&f, "MESSAGE"), ", 1 value needed more than 1 try; "), "MESSAGE=%s", get(&f, "MESSAGE"));
        event_fields_done(&f);

        /* more than one: plural */
        r.instr[RNG_SOURCE_RDSEED].summary.retry_exhausted = 2;
        r.instr[RNG_SOURCE_RDSEED].kernel_retries = 10;
        CHECK_EQ_INT(event_probe_result(&f, &r, RNG_SOURCE_RDSEED, "boot"), 0);
        CHECK(strstr(get(&f, "MESSAGE"), ", 2 values needed more than 10 tries; "), "MESSAGE=%s", get(&f, "MESSAGE"));
        event_fields_done(&f);
}

static void test_unsupported(void) {
        const bool cpuid[_RNG_SOURCE_MAX] = { false, false };
        _cleanup_free_ char *status = NULL;
        ProbeReport r;
        EventFields f = {};

        make_report(SCRIPT_HEALTHY, 0, 0, cpuid, &r);
        /* make_report() reads no kernel: its device and seed are unknown. */
        status = status_format_probe(&r);
        CHECK(status && strcmp(status, "no RDRAND/RDSEED on this machine: nothing to check; HWRNG unknown (not read); "
                                       "BOOT_SEED unknown (not read)") == 0,
              "status, no kernel read: %s", status ?: "(null)");
        free(status);
        /* The kernel read, neither there. */
        r.instr[RNG_SOURCE_HWRNG].kernel = (KernelSourceState) { .state = KERNEL_STATE_ABSENT };
        r.instr[RNG_SOURCE_BOOT_SEED].kernel = (KernelSourceState) { .state = KERNEL_STATE_ABSENT };
        status = status_format_probe(&r);
        CHECK(status && strcmp(status, "no RDRAND/RDSEED/HWRNG/BOOT_SEED on this machine: nothing to check") == 0,
              "status: %s", status ?: "(null)");
        {
                /* A seed that only the unread kernel log would show is not
                 * among what this machine has none of. */
                _cleanup_free_ char *unknown = NULL;

                r.instr[RNG_SOURCE_BOOT_SEED].kernel = (KernelSourceState) {
                        .state = KERNEL_STATE_UNKNOWN, .reason = "unknown (kernel log not read)" };
                unknown = status_format_probe(&r);
                CHECK(unknown && strcmp(unknown, "no RDRAND/RDSEED/HWRNG on this machine: nothing to check; "
                                                 "BOOT_SEED unknown (kernel log not read)") == 0,
                      "status: %s", unknown ?: "(null)");
                r.instr[RNG_SOURCE_BOOT_SEED].kernel = (KernelSourceState) { .state = KERNEL_STATE_ABSENT };
        }
        CHECK_EQ_INT(event_probe_result(&f, &r, RNG_SOURCE_RDSEED, "boot"), -ENODATA);
        CHECK_EQ_INT(event_unavailable(&f, &r.instr[RNG_SOURCE_RDSEED]), 0);
        check_field(&f, "MESSAGE_ID", RNG_MID_UNAVAILABLE_STR);
        check_field(&f, "RNG_REASON", "cpuid");
        check_field(&f, "RNG_CPUID", "no");
        check_field(&f, "PRIORITY", "5");
        event_fields_done(&f);

        /* kernel-disabled: still probed, and reported */
        r.instr[RNG_SOURCE_RDSEED].cpuid = true;
        r.instr[RNG_SOURCE_RDSEED].kernel = (KernelSourceState) { .state = KERNEL_STATE_DISABLED, .reason_id = "nordrand", .reason = "nordrand on the command line", .reason_source = KERNEL_REASON_CMDLINE };
        CHECK_EQ_INT(event_unavailable(&f, &r.instr[RNG_SOURCE_RDSEED]), 0);
        check_field(&f, "RNG_REASON", "kernel");
        check_field(&f, "RNG_KERNEL_STATE", "disabled");
        check_field(&f, "RNG_KERNEL_REASON", "nordrand");
        check_field(&f, "PRIORITY", "4");
        event_fields_done(&f);
        r.instr[RNG_SOURCE_RDSEED].kernel.state = KERNEL_STATE_ENABLED;
        CHECK_EQ_INT(event_unavailable(&f, &r.instr[RNG_SOURCE_RDSEED]), -ENODATA);
}

/* RDSEED hidden (not in CPUID, executes, fails 95 %): probed, the result
 * sent with verdict hidden at notice, the hardware verdict beside it, and the
 * unavailable event says hidden; the status names it hidden, not absent. */
static bool startswith(const char *s, const char *prefix) {
        return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_hidden(void) {
        _cleanup_free_ char *status = NULL;
        ProbeReport r;
        EventFields f = {};

        script_make_hidden_report(SCRIPT_RANDOM_FAIL, 0.95, 0, &r);
        CHECK_EQ_INT(r.instr[RNG_SOURCE_RDSEED].verdict, VERDICT_HIDDEN);
        CHECK_EQ_INT(r.verdict, VERDICT_OK);

        CHECK_EQ_INT(event_probe_result(&f, &r, RNG_SOURCE_RDSEED, "boot"), 0);
        check_field(&f, "RNG_VERDICT", "hidden");
        check_field(&f, "RNG_HARDWARE_VERDICT", "exhausted");
        check_field(&f, "RNG_CPUID", "no");
        check_field(&f, "PRIORITY", "5");
        event_fields_done(&f);

        CHECK_EQ_INT(event_unavailable(&f, &r.instr[RNG_SOURCE_RDSEED]), 0);
        check_field(&f, "RNG_REASON", "hidden");
        check_field(&f, "RNG_CPUID", "no");
        check_field(&f, "PRIORITY", "5");
        CHECK(strstr(event_fields_get(&f, "MESSAGE"), "RDSEED is hidden: not advertised by CPUID, yet it executes") != NULL,
              "message: %s", event_fields_get(&f, "MESSAGE"));
        event_fields_done(&f);

        status = status_format_probe(&r);
        CHECK(status && startswith(status, "RDRAND ok (0 of 6.14k tries failed); RDSEED hidden by the kernel: run anyway, "),
              "status: %s", status ?: "(null)");
        CHECK(status && strstr(status, "% of tries failed") && !strstr(status, "not supported"), "status: %s",
              status ?: "(null)");
}

static void test_output_check(void) {
        const bool cpuid[_RNG_SOURCE_MAX] = { true, true };
        const ProbeRun *run;
        ProbeReport r;
        EventFields f = {};

        make_report(SCRIPT_STUCK, 0, 0, cpuid, &r); /* RDSEED always delivers 0 */
        run = &r.instr[RNG_SOURCE_RDSEED].runs[0];
        CHECK(run->health.failed != 0, "stuck source passed the checks");
        CHECK_EQ_INT(event_output_check(&f, RNG_SOURCE_RDSEED, run, "boot"), 0);
        check_field(&f, "MESSAGE_ID", RNG_MID_OUTPUT_CHECK_STR);
        check_field(&f, "RNG_INSTRUCTION", "RDSEED");
        check_field(&f, "PRIORITY", "3");
        CHECK(strstr(get(&f, "RNG_CHECKS"), "stuck-zero"), "RNG_CHECKS=%s", get(&f, "RNG_CHECKS"));
        CHECK(!event_fields_get(&f, "RNG_VERDICT"), "output check carries RNG_VERDICT");
        event_fields_done(&f);
        CHECK_EQ_INT(event_output_check(&f, RNG_SOURCE_RDRAND, &r.instr[RNG_SOURCE_RDRAND].runs[0], "boot"), -ENODATA);

        /* A stuck bit line: the check and the bit are named. */
        make_report(SCRIPT_STUCK_BIT, 0, 7, cpuid, &r); /* bit 7 stuck at 0 */
        run = &r.instr[RNG_SOURCE_RDSEED].runs[0];
        CHECK_EQ_INT(event_output_check(&f, RNG_SOURCE_RDSEED, run, "boot"), 0);
        check_field(&f, "RNG_CHECKS", "bit-balance");
        check_field(&f, "RNG_FAILED_BITS", "7");
        CHECK(strstr(get(&f, "MESSAGE"), "bit-balance (bit 7)"), "MESSAGE=%s", get(&f, "MESSAGE"));
        event_fields_done(&f);
}

/* Every event of the probe says which CPU, microcode, erratum status and
 * kernel; a probe result also which package and every run's ratio. */
static void test_attribution(void) {
        const bool cpuid[_RNG_SOURCE_MAX] = { true, true };
        ProbeReport r;
        EventFields f = {};
        ProbeSourceResult *in;
        ProbeRun *c;

        make_report(SCRIPT_ALWAYS_FAIL, 0, 0, cpuid, &r);
        /* Unknown CPU: only the status says so. */
        CHECK_EQ_INT(event_probe_result(&f, &r, RNG_SOURCE_RDSEED, "boot"), 0);
        CHECK(!event_fields_get(&f, "RNG_CPU_VENDOR"), "a vendor for an unknown CPU");
        CHECK(!event_fields_get(&f, "RNG_CPU_MICROCODE"), "a microcode for an unknown CPU");
        check_field(&f, "RNG_ERRATUM_STATUS", "unknown");
        event_fields_done(&f);

        r.have_cpu = true;
        r.cpu = (CpuId) { .vendor = "AuthenticAMD", .have_fms = true, .family = 0x1a, .model = 0x02, .stepping = 1,
                          .have_microcode = true, .microcode = 0xb00215a, .model_name = "AMD EPYC 9B45" };
        snprintf(r.kernel_release, sizeof(r.kernel_release), "6.12.57+deb13-amd64");
        /* a second package's contention run at 64 bits, the worst */
        r.cpus.n_packages = 2;
        in = &r.instr[RNG_SOURCE_RDSEED];
        c = &in->runs[in->n_runs++];
        *c = in->runs[2];
        c->mode = PROBE_CONTENTION;
        c->threads = 4;
        c->package = 1;
        c->contended = true;
        c->failure_rate = 1.0; /* as bad as the single runs, on more threads: the worst */
        probe_source_summarize(in);
        CHECK_EQ_INT(event_probe_result(&f, &r, RNG_SOURCE_RDSEED, "boot"), 0);
        check_field(&f, "RNG_CPU_VENDOR", "AuthenticAMD");
        check_field(&f, "RNG_CPU_FAMILY", "0x1a");
        check_field(&f, "RNG_CPU_MODEL", "0x2");
        check_field(&f, "RNG_CPU_STEPPING", "0x1");
        check_field(&f, "RNG_CPU_MICROCODE", "0xb00215a");
        check_field(&f, "RNG_CPU_MODEL_NAME", "AMD EPYC 9B45");
        check_field(&f, "RNG_ERRATUM_STATUS", "amd-zen5-rdseed: fixed in microcode 0xb00215a, running 0xb00215a: fixed");
        check_field(&f, "RNG_KERNEL_RELEASE", "6.12.57+deb13-amd64");
        check_field(&f, "RNG_PACKAGES", "2");
        check_field(&f, "RNG_MODE", "contention");
        check_field(&f, "RNG_PACKAGE", "1");
        check_field(&f, "RNG_RUN_FAILURE_RATES", "16/single/1=1.0000 32/single/1=1.0000 64/single/1=1.0000 64/contention/4@1=1.0000");
        event_fields_done(&f);
        /* RDRAND: no erratum for this CPU; its deciding run is a single one */
        CHECK_EQ_INT(event_probe_result(&f, &r, RNG_SOURCE_RDRAND, "boot"), 0);
        check_field(&f, "RNG_ERRATUM_STATUS", "none");
        CHECK(!event_fields_get(&f, "RNG_PACKAGE"), "RNG_PACKAGE for a single run");
        event_fields_done(&f);

        /* the other events of the probe carry the attribution too, the
         * runs' fields not; a builder's error passes through */
        CHECK_EQ_INT(event_add_attribution(event_unavailable(&f, &r.instr[RNG_SOURCE_RDSEED]), &f, &r, RNG_SOURCE_RDSEED),
                     -ENODATA);
        CHECK_EQ_U64(f.n, 0);
        r.instr[RNG_SOURCE_RDSEED].cpuid = false;
        CHECK_EQ_INT(event_add_attribution(event_unavailable(&f, &r.instr[RNG_SOURCE_RDSEED]), &f, &r, RNG_SOURCE_RDSEED), 0);
        check_field(&f, "RNG_CPU_MICROCODE", "0xb00215a");
        check_field(&f, "RNG_KERNEL_RELEASE", "6.12.57+deb13-amd64");
        CHECK(!event_fields_get(&f, "RNG_RUN_FAILURE_RATES"), "run rates on an unavailable event");
        event_fields_done(&f);
}

static void test_verdict_events(void) {
        const Verdict iv[_RNG_SOURCE_MAX] = { VERDICT_OK, VERDICT_EXHAUSTED };
        const FailOn fo = { .mask = { [RNG_SOURCE_RDRAND] = (1u << VERDICT_EXHAUSTED) | (1u << VERDICT_BROKEN),
                                      [RNG_SOURCE_RDSEED] = (1u << VERDICT_EXHAUSTED) | (1u << VERDICT_BROKEN),
                                      [RNG_SOURCE_HWRNG] = 1u << VERDICT_BROKEN } };
        char mask[64];
        VerdictEventInfo info = {
                .verdict = VERDICT_EXHAUSTED,
                .severity = SEVERITY_NOTICE,
                .trigger = "boot",
                .status = "RDRAND ok; RDSEED exhausted",
                .instr_verdicts = iv,
                .cvm = "tdx",
                .fail_on = mask,
                .fail_instruction = RNG_SOURCE_RDSEED,
                .fail_verdict = VERDICT_EXHAUSTED,
        };
        EventFields f = {};

        fail_on_format(&fo, mask, sizeof(mask)); /* as the Manager does, once per configuration */

        CHECK_EQ_INT(event_verdict(&f, &info), 0);
        check_field(&f, "MESSAGE_ID", RNG_MID_VERDICT_BOOT_STR);
        check_field(&f, "RNG_VERDICT", "exhausted");
        check_field(&f, "RNG_RDRAND_VERDICT", "ok");
        check_field(&f, "RNG_RDSEED_VERDICT", "exhausted");
        check_field(&f, "RNG_FAIL_ON", "exhausted broken");
        check_field(&f, "RNG_CONFIDENTIAL_VM", "tdx");
        /* RDSEED exhausted alone is routine: notice, not err. */
        check_field(&f, "PRIORITY", "5");
        check_field(&f, "RNG_SEVERITY", "notice");
        CHECK(!event_fields_get(&f, "RNG_INSTRUCTION"), "verdict event carries RNG_INSTRUCTION");
        event_fields_done(&f);

        info.have_previous = true;
        info.previous = VERDICT_OK;
        info.trigger = "reprobe";
        CHECK_EQ_INT(event_verdict(&f, &info), 0);
        check_field(&f, "MESSAGE_ID", RNG_MID_VERDICT_CHANGED_STR);
        check_field(&f, "RNG_PREVIOUS_VERDICT", "ok");
        check_field(&f, "RNG_SOURCE", "probe");
        check_field(&f, "MESSAGE", "Hardware RNG verdict changed from ok to exhausted (severity notice): RDRAND ok; RDSEED exhausted");
        event_fields_done(&f);

        /* The overall verdict stays exhausted while RDRAND joins RDSEED: the
         * message names the instruction that changed, and the previous
         * per-instruction verdicts travel as fields. */
        {
                const Verdict before[_RNG_SOURCE_MAX] = { VERDICT_OK, VERDICT_EXHAUSTED };
                const Verdict after[_RNG_SOURCE_MAX] = { VERDICT_EXHAUSTED, VERDICT_EXHAUSTED };
                VerdictEventInfo same = info;

                same.previous = VERDICT_EXHAUSTED;
                same.previous_instr_verdicts = before;
                same.instr_verdicts = after;
                same.severity = SEVERITY_ERR;
                same.status = "RDRAND exhausted; RDSEED exhausted";
                CHECK_EQ_INT(event_verdict(&f, &same), 0);
                check_field(&f, "MESSAGE", "Hardware RNG verdict changed for RDRAND from ok to exhausted "
                                           "(overall still exhausted, severity err): RDRAND exhausted; RDSEED exhausted");
                check_field(&f, "RNG_PREVIOUS_VERDICT", "exhausted");
                check_field(&f, "RNG_PREVIOUS_RDRAND_VERDICT", "ok");
                check_field(&f, "RNG_PREVIOUS_RDSEED_VERDICT", "exhausted");
                check_field(&f, "RNG_RDRAND_VERDICT", "exhausted");
                check_field(&f, "PRIORITY", "3");
                event_fields_done(&f);
        }

        CHECK_EQ_INT(event_policy_failure(&f, &info, 3), 0);
        check_field(&f, "MESSAGE_ID", RNG_MID_POLICY_FAILURE_STR);
        check_field(&f, "RNG_EXIT_STATUS", "3");
        check_field(&f, "PRIORITY", "2");
        check_field(&f, "RNG_FAIL_INSTRUCTION", "RDSEED");
        check_field(&f, "RNG_FAIL_VERDICT", "exhausted");
        check_field(&f, "MESSAGE", "Hardware RNG verdict RDSEED exhausted is in FailOn=exhausted broken (confidential VM): "
                                   "exiting with status 3");
        event_fields_done(&f);

        CHECK_EQ_INT(event_config_invalid(&f, "/etc/rng-health/rng-health.conf", 7, "[Policy] FailOn=",
                                          "invalid verdict 'bad'", "refusing to start"), 0);
        check_field(&f, "MESSAGE", "/etc/rng-health/rng-health.conf:7: [Policy] FailOn=: invalid verdict 'bad'; refusing to start");
        check_field(&f, "RNG_CONFIG_LINE", "7");
        check_field(&f, "RNG_CONFIG_KEY", "[Policy] FailOn=");
        event_fields_done(&f);
}

static void test_priorities_and_formats(void) {
        char buf[64];

        FailOn fo = {};

        /* What the kernel does about it decides: a failed RDSEED is routine
         * (it falls back to RDRAND), a failed RDRAND is not, and values that
         * pass for random are the worst either way. */
        FOREACH_RNG_SOURCE(i) {
                CHECK_EQ_INT(verdict_priority(i, VERDICT_OK), LOG_INFO);
                CHECK_EQ_INT(verdict_priority(i, VERDICT_UNSUPPORTED), LOG_INFO);
                if (rng_source_verdicts(i) & (1u << VERDICT_HIDDEN))
                        CHECK_EQ_INT(verdict_priority(i, VERDICT_HIDDEN), LOG_NOTICE);
                if (rng_source_verdicts(i) & (1u << VERDICT_BROKEN))
                        CHECK_EQ_INT(verdict_priority(i, VERDICT_BROKEN), LOG_ERR);
                /* The kernel credits what the host chose: warning, on a
                 * confidential VM (the only place it is a verdict). */
                if (rng_source_verdicts(i) & (1u << VERDICT_HOST_FED))
                        CHECK_EQ_INT(verdict_priority(i, VERDICT_HOST_FED), LOG_WARNING);
        }
        CHECK_EQ_INT(verdict_priority(RNG_SOURCE_RDSEED, VERDICT_EXHAUSTED), LOG_NOTICE);
        CHECK_EQ_INT(verdict_priority(RNG_SOURCE_RDSEED, VERDICT_DEGRADED), LOG_NOTICE);
        CHECK_EQ_INT(verdict_priority(RNG_SOURCE_RDRAND, VERDICT_EXHAUSTED), LOG_ERR);
        CHECK_EQ_INT(verdict_priority(RNG_SOURCE_RDRAND, VERDICT_DEGRADED), LOG_WARNING);
        CHECK(strcmp(verdict_consequence(RNG_SOURCE_RDSEED, VERDICT_EXHAUSTED), "the kernel seeds from RDRAND instead") == 0,
              "RDSEED exhausted");
        CHECK(strstr(verdict_consequence(RNG_SOURCE_RDRAND, VERDICT_EXHAUSTED), "boot seeding would panic"), "RDRAND exhausted");
        CHECK(!verdict_consequence(RNG_SOURCE_RDRAND, VERDICT_OK), "ok has no consequence");

        /* One exit status per verdict (rng-health(8)): the monitor's on a
         * FailOn= match, the probe's on exhausted and broken only. */
        CHECK_EQ_INT(verdict_exit_status(VERDICT_EXHAUSTED), 3);
        CHECK_EQ_INT(verdict_exit_status(VERDICT_BROKEN), 4);
        CHECK_EQ_INT(verdict_exit_status(VERDICT_DEGRADED), 5);
        CHECK_EQ_INT(verdict_exit_status(VERDICT_UNSUPPORTED), 6);
        CHECK_EQ_INT(verdict_exit_status(VERDICT_OK), 7);
        CHECK_EQ_INT(verdict_exit_status(VERDICT_HIDDEN), 8);
        CHECK_EQ_INT(verdict_exit_status(VERDICT_HOST_FED), 9);
        /* The probe's: by weight, not by name. RDSEED exhausted is
         * routine (the kernel falls back to RDRAND): 0; RDRAND exhausted
         * and broken anywhere: their status. --fail-on: strict. */
        {
                Verdict v[_RNG_SOURCE_MAX] = {};
                unsigned both = 1u << RNG_SOURCE_RDRAND | 1u << RNG_SOURCE_RDSEED;
                FailOn strict = {};

                v[RNG_SOURCE_RDRAND] = VERDICT_OK;
                v[RNG_SOURCE_RDSEED] = VERDICT_EXHAUSTED;
                CHECK_EQ_INT(fail_on_exit_status(NULL, v, both), 0);
                CHECK_EQ_INT(fail_on_add_word(&strict, "exhausted"), 0);
                CHECK_EQ_INT(fail_on_exit_status(&strict, v, both), 3);
                CHECK_EQ_INT(fail_on_exit_status(&strict, v, 1u << RNG_SOURCE_RDRAND), 0); /* not selected */
                v[RNG_SOURCE_RDRAND] = VERDICT_EXHAUSTED;
                CHECK_EQ_INT(fail_on_exit_status(NULL, v, both), 3);
                v[RNG_SOURCE_RDSEED] = VERDICT_BROKEN;
                CHECK_EQ_INT(fail_on_exit_status(NULL, v, both), 4);
                v[RNG_SOURCE_RDRAND] = VERDICT_DEGRADED;
                v[RNG_SOURCE_RDSEED] = VERDICT_DEGRADED;
                CHECK_EQ_INT(fail_on_exit_status(NULL, v, both), 0);
                strict = (FailOn) {};
                CHECK_EQ_INT(fail_on_add_word(&strict, "rdseed:degraded"), 0);
                CHECK_EQ_INT(fail_on_exit_status(&strict, v, both), 5);
                /* What no source can have is refused, not kept to never match. */
                CHECK_EQ_INT(fail_on_add_word(&strict, "rdrand:host-fed"), -EDOM);
                CHECK_EQ_INT(fail_on_add_word(&strict, "boot-seed:exhausted"), -EDOM);
                CHECK_EQ_INT(fail_on_add_word(&strict, "hwrng:hidden"), -EDOM);
                CHECK_EQ_INT(fail_on_add_word(&strict, "hwrng:host-fed"), 0);
        }


        fail_on_format(&fo, buf, sizeof(buf));
        CHECK(strcmp(buf, "none") == 0, "%s", buf);
        CHECK_EQ_INT(fail_on_add_word(&fo, "degraded"), 0);
        CHECK_EQ_INT(fail_on_add_word(&fo, "broken"), 0);
        fail_on_format(&fo, buf, sizeof(buf));
        CHECK(strcmp(buf, "degraded broken") == 0, "%s", buf);
        fo = fail_on_cvm_default();
        fail_on_format(&fo, buf, sizeof(buf));
        CHECK(strcmp(buf, "broken rdrand:exhausted") == 0, "%s", buf);
        {
                Verdict v, xeon[_RNG_SOURCE_MAX] = { VERDICT_OK, VERDICT_EXHAUSTED }, rdrand[_RNG_SOURCE_MAX] = { VERDICT_EXHAUSTED, VERDICT_OK },
                           zen5[_RNG_SOURCE_MAX] = { VERDICT_OK, VERDICT_BROKEN };
                RngSourceId i;

                CHECK(!fail_on_match(&fo, xeon, &v, &i), "the Xeon shape fails a confidential VM");
                CHECK(fail_on_match(&fo, rdrand, &v, &i) && v == VERDICT_EXHAUSTED && i == RNG_SOURCE_RDRAND, "RDRAND exhausted");
                CHECK(fail_on_match(&fo, zen5, &v, &i) && v == VERDICT_BROKEN && i == RNG_SOURCE_RDSEED, "RDSEED broken");
        }
        CHECK(strcmp(format_percent(0.31, buf, sizeof(buf)), "31 %") == 0, "%s", buf);
        CHECK(strcmp(format_percent(0.042, buf, sizeof(buf)), "4.2 %") == 0, "%s", buf);
        CHECK(strcmp(format_percent(0.00001, buf, sizeof(buf)), "<0.1 %") == 0, "%s", buf);
        CHECK(strcmp(format_percent(0, buf, sizeof(buf)), "0 %") == 0, "%s", buf);
        CHECK(strcmp(format_timespan_usec(20 * 1000000ULL, buf, sizeof(buf)), "20 s") == 0, "%s", buf);
        CHECK(strcmp(format_timespan_usec(15 * 60 * 1000000ULL, buf, sizeof(buf)), "15 min") == 0, "%s", buf);
        CHECK(strcmp(format_timespan_usec(59 * 60 * 1000000ULL + 59 * 1000000ULL, buf, sizeof(buf)), "1.0 h") == 0, "%s", buf);
        CHECK(strcmp(format_timespan_usec(2 * 3600 * 1000000ULL, buf, sizeof(buf)), "2.0 h") == 0, "%s", buf);
}

static void test_fields_overflow(void) {
        EventFields f = {};

        for (int i = 0; i < EVENT_FIELDS_MAX; i++)
                CHECK_EQ_INT(event_fields_addf(&f, "F%d=%d", i, i), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "X=1"), -E2BIG);
        CHECK(strcmp(get(&f, "F7"), "7") == 0, "F7");
        CHECK(!event_fields_get(&f, "F"), "prefix matched");
        event_fields_done(&f);
}

#define V(a, b) ((const Verdict[_RNG_SOURCE_MAX]) { VERDICT_##a, VERDICT_##b })
/* A listener that records what it heard, with the aggregate at that time. */
typedef struct Heard {
        unsigned calls;
        const VerdictSource *source;
        const char *trigger;
        Aggregator *a;
        AggregatorChange change;
        bool announced;
} Heard;

static void hear(VerdictSource *s, VerdictReport *report, void *userdata) {
        Heard *h = userdata;

        h->calls++;
        h->source = s;
        h->trigger = report->trigger;
        h->announced = aggregator_announce(h->a, &h->change);
}

/* The sources store before they call; the aggregator takes the worst
 * verdict, joins fragments in order and tells a change from a repeat; a
 * detached producer reports nothing. */
static void test_aggregator(void) {
        _cleanup_free_ char *s1 = NULL, *s2 = NULL;
        VerdictSource probe, kernel, extra[AGGREGATOR_MAX_SOURCES] = {}, *handle;
        Aggregator a = {};
        Heard h = { .a = &a };
        Verdict v;

        verdict_source_init(&probe, "probe", hear, &h);
        verdict_source_init(&kernel, "kernel", hear, &h);
        CHECK_EQ_INT(aggregator_add_source(&a, &probe), 0);
        CHECK_EQ_INT(aggregator_add_source(&a, &kernel), 0);
        CHECK(!aggregator_verdict(&a, &v), "verdict before any report");

        CHECK_EQ_INT(verdict_source_report(&probe, V(OK, OK), "RDRAND ok", "boot"), 0);
        CHECK(h.calls == 1 && h.source == &probe && strcmp(h.trigger, "boot") == 0, "listener");
        CHECK(h.announced && h.change.first && h.change.changed && h.change.verdict == VERDICT_OK, "first");
        CHECK_EQ_INT(verdict_source_report(&probe, V(OK, OK), "RDRAND ok again", "reprobe"), 0);
        CHECK(!h.change.first && !h.change.changed, "a repeat is not a change");
        CHECK_EQ_INT(verdict_source_report(&kernel, V(OK, DEGRADED), "kernel: 3 RDSEED failures", "kernel"), 0);
        CHECK(h.change.changed && h.change.previous == VERDICT_OK && h.change.verdict == VERDICT_DEGRADED,
              "change ok -> degraded");
        CHECK(h.change.previous_instr[RNG_SOURCE_RDRAND] == VERDICT_OK && h.change.previous_instr[RNG_SOURCE_RDSEED] == VERDICT_OK &&
              h.change.instr[RNG_SOURCE_RDSEED] == VERDICT_DEGRADED, "the announced per-instruction verdicts travel");
        CHECK(aggregator_verdict(&a, &v) && v == VERDICT_DEGRADED, "worst wins");
        s1 = aggregator_status(&a);
        CHECK(s1 && strcmp(s1, "RDRAND ok again; kernel: 3 RDSEED failures") == 0, "status: %s", s1);
        CHECK_EQ_INT(verdict_source_report(&kernel, V(OK, OK), "", "kernel"), 0);
        s2 = aggregator_status(&a);
        CHECK(s2 && strcmp(s2, "RDRAND ok again") == 0, "status: %s", s2);
        CHECK_EQ_INT(verdict_source_report(&kernel, ((const Verdict[_RNG_SOURCE_MAX]) { VERDICT_OK, _VERDICT_MAX }), "", "kernel"), -EINVAL);
        /* Per instruction: RDRAND exhausted while RDSEED stays exhausted is a
         * change, although the worst verdict stays the same. */
        CHECK_EQ_INT(verdict_source_report(&probe, V(OK, EXHAUSTED), "RDSEED exhausted", "reprobe"), 0);
        CHECK(h.change.changed && h.change.severity == SEVERITY_NOTICE, "RDSEED exhausted: notice");
        CHECK_EQ_INT(verdict_source_report(&probe, V(EXHAUSTED, EXHAUSTED), "both exhausted", "reprobe"), 0);
        CHECK(h.change.changed && h.change.verdict == VERDICT_EXHAUSTED && h.change.previous == VERDICT_EXHAUSTED &&
              h.change.severity == SEVERITY_ERR, "RDRAND exhausted too: a change, err");
        CHECK_EQ_INT(verdict_source_report(&probe, V(OK, OK), "RDRAND ok again", "reprobe"), 0);

        /* The kernel's "nothing seen" (ok) says nothing of presence: RDSEED
         * that the probe found hidden (Zen5) or unsupported stays so, with
         * no change announced; a problem the kernel saw still wins. */
        CHECK_EQ_INT(verdict_source_report(&probe, V(OK, HIDDEN), "RDSEED hidden", "reprobe"), 0);
        CHECK(h.change.changed && h.change.instr[RNG_SOURCE_RDSEED] == VERDICT_HIDDEN &&
              h.change.severity == SEVERITY_NOTICE, "hidden: notice");
        CHECK_EQ_INT(verdict_source_report(&kernel, V(OK, OK), "kernel: no RNG failures logged", "kernel"), 0);
        CHECK(!h.change.changed && h.change.instr[RNG_SOURCE_RDSEED] == VERDICT_HIDDEN &&
              h.change.severity == SEVERITY_NOTICE, "the kernel's ok made hidden RDSEED %s",
              verdict_to_string(h.change.instr[RNG_SOURCE_RDSEED]));
        CHECK_EQ_INT(verdict_source_report(&probe, V(UNSUPPORTED, HIDDEN), "RDRAND unsupported", "reprobe"), 0);
        CHECK(h.change.changed && h.change.instr[RNG_SOURCE_RDRAND] == VERDICT_UNSUPPORTED, "unsupported RDRAND: %s",
              verdict_to_string(h.change.instr[RNG_SOURCE_RDRAND]));
        CHECK_EQ_INT(verdict_source_report(&kernel, V(OK, EXHAUSTED), "kernel: RDSEED exhausted", "kernel"), 0);
        CHECK(h.change.changed && h.change.instr[RNG_SOURCE_RDSEED] == VERDICT_EXHAUSTED &&
              h.change.instr[RNG_SOURCE_RDRAND] == VERDICT_UNSUPPORTED, "a kernel problem wins");
        CHECK_EQ_INT(verdict_source_report(&kernel, V(OK, OK), "", "kernel"), 0);
        /* Nothing on this machine (arm64 without FEAT_RNG): the kernel's
         * "nothing seen" does not make the machine's verdict ok. */
        CHECK_EQ_INT(verdict_source_report(&probe, V(UNSUPPORTED, UNSUPPORTED), "nothing to check", "reprobe"), 0);
        CHECK(aggregator_verdict(&a, &v) && v == VERDICT_UNSUPPORTED, "all unsupported: %s", verdict_to_string(v));
        CHECK_EQ_INT(verdict_source_report(&probe, V(OK, OK), "RDRAND ok again", "reprobe"), 0);

        /* Detached: nothing stored, nobody called. */
        handle = &kernel;
        CHECK(verdict_source_detach(&handle) == &kernel && !handle, "detach");
        h.calls = 0;
        CHECK_EQ_INT(verdict_source_report(handle, V(BROKEN, BROKEN), "x", "kernel"), 0);
        CHECK_EQ_INT(h.calls, 0);
        CHECK(aggregator_verdict(&a, &v) && v == VERDICT_OK, "a detached report changed the verdict");

        for (int i = 2; i < AGGREGATOR_MAX_SOURCES; i++)
                CHECK_EQ_INT(aggregator_add_source(&a, &extra[i]), 0);
        CHECK_EQ_INT(aggregator_add_source(&a, &extra[0]), -E2BIG);
        verdict_source_done(&probe);
        verdict_source_done(&kernel);
}

/* Plurals: "1 run", not "1 runs". */
static void test_one_run(void) {
        const bool cpuid[_RNG_SOURCE_MAX] = { true, true };
        ProbeReport r;
        EventFields f = {};

        make_report(SCRIPT_HEALTHY, 0, 0, cpuid, &r);
        CHECK_EQ_INT(event_probe_result(&f, &r, RNG_SOURCE_RDSEED, "boot"), 0);
        CHECK(strstr(get(&f, "MESSAGE"), ") in 3 runs, "), "MESSAGE=%s", get(&f, "MESSAGE"));
        event_fields_done(&f);
        r.instr[RNG_SOURCE_RDSEED].n_runs = 1;
        CHECK_EQ_INT(event_probe_result(&f, &r, RNG_SOURCE_RDSEED, "boot"), 0);
        CHECK(strstr(get(&f, "MESSAGE"), ") in 1 run, "), "MESSAGE=%s", get(&f, "MESSAGE"));
        check_field(&f, "RNG_RUNS", "1");
        event_fields_done(&f);
}

/* The hwrng device's and the boot seed's results, the host-fed verdict's
 * remedy, a virtual machine fork, the CRNG's readiness. */
static void test_other_sources(void) {
        static ProbeReport r;
        ProbeSourceResult *hw = &r.instr[RNG_SOURCE_HWRNG], *seed = &r.instr[RNG_SOURCE_BOOT_SEED];
        const KernelBootLog b = { .read = true, .crng_ready = true, .crng_ready_usec = 4310123,
                                  .crng_stage = KERNEL_CRNG_STAGE_CPU, .vm_forks = 1 };
        EventFields f = {};

        r = (ProbeReport) { .wall_nsec = 21000000 };
        *hw = (ProbeSourceResult) {
                .instruction = RNG_SOURCE_HWRNG, .selected = true, .cpuid = true, .executes = true,
                .verdict = VERDICT_HOST_FED, .hardware_verdict = VERDICT_OK,
                .kernel = { .state = KERNEL_STATE_ENABLED,
                            .credit = { .known = true, .credited = true, .host_fed = true, .quality = 1024,
                                        .device = "virtio_rng.0" } },
        };
        hw->runs[0] = (ProbeRun) { .instruction = RNG_SOURCE_HWRNG, .width = 64, .bytes = 208, .attempts = 26,
                                   .delivered = 26, .bytes_per_sec = 10240, .wall_nsec = 20300000,
                                   .health = { .samples = 26 } };
        hw->n_runs = 1;
        probe_source_summarize(hw);
        *seed = (ProbeSourceResult) { .instruction = RNG_SOURCE_BOOT_SEED, .selected = true,
                                      .verdict = VERDICT_UNSUPPORTED };

        CHECK_EQ_INT(event_probe_result(&f, &r, RNG_SOURCE_HWRNG, "boot"), 0);
        check_field(&f, "MESSAGE_ID", RNG_MID_PROBE_RESULT_STR);
        check_field(&f, "PRIORITY", "4");
        check_field(&f, "RNG_INSTRUCTION", "HWRNG");
        check_field(&f, "RNG_KIND", "hwrng-device");
        check_field(&f, "RNG_VERDICT", "host-fed");
        check_field(&f, "RNG_SEVERITY", "warning");
        check_field(&f, "RNG_CONSEQUENCE", "the kernel credited entropy the host chose");
        check_field(&f, "RNG_DEVICE", "virtio_rng.0");
        check_field(&f, "RNG_CREDITED", "yes");
        check_field(&f, "RNG_CREDIT_QUALITY", "1024");
        check_field(&f, "RNG_HOST_FED", "yes");
        check_field(&f, "RNG_BYTES", "208");
        check_field(&f, "RNG_BYTES_PER_SEC", "10240");
        check_field(&f, "RNG_RUN_USEC", "20300");
        CHECK(strstr(get(&f, "RNG_REMEDY"), "rng_core.default_quality=0"), "remedy: %s", get(&f, "RNG_REMEDY"));
        CHECK(strstr(get(&f, "MESSAGE"), "HWRNG host-fed (virtio_rng.0, host-fed, credited 1024/1024: 208B at 10.2kB/s)"),
              "MESSAGE=%s", get(&f, "MESSAGE"));
        event_fields_done(&f);
        /* A seed not there: no result, an unavailable event at info. */
        seed->kernel = (KernelSourceState) { .state = KERNEL_STATE_ABSENT, .reason_id = "none",
                                             .reason = "no seed from the boot loader" };
        CHECK_EQ_INT(event_probe_result(&f, &r, RNG_SOURCE_BOOT_SEED, "boot"), -ENODATA);
        CHECK_EQ_INT(event_unavailable(&f, seed), 0);
        check_field(&f, "PRIORITY", "6");
        check_field(&f, "RNG_REASON", "absent");
        check_field(&f, "RNG_KERNEL_STATE", "absent");
        CHECK(strncmp(get(&f, "MESSAGE"), "BOOT_SEED none passed: ", 23) == 0, "MESSAGE=%s", get(&f, "MESSAGE"));
        event_fields_done(&f);
        /* Not seen, and the kernel log that would show it not read: the
         * event and the status say unknown, not "none passed". */
        seed->kernel = (KernelSourceState) { .state = KERNEL_STATE_UNKNOWN, .reason_id = "log-not-read",
                                             .reason = "unknown (kernel log not read)" };
        CHECK_EQ_INT(event_unavailable(&f, seed), 0);
        check_field(&f, "PRIORITY", "6");
        check_field(&f, "RNG_REASON", "unknown");
        check_field(&f, "RNG_KERNEL_STATE", "unknown");
        check_field(&f, "RNG_KERNEL_REASON", "log-not-read");
        check_field(&f, "MESSAGE", "BOOT_SEED unknown (kernel log not read)");
        event_fields_done(&f);
        {
                char text[256];

                status_format_source(&r, RNG_SOURCE_BOOT_SEED, text, sizeof(text));
                CHECK(strcmp(text, "BOOT_SEED unknown (kernel log not read)") == 0, "status: %s", text);
                seed->kernel = (KernelSourceState) { .state = KERNEL_STATE_ABSENT, .reason_id = "none" };
                status_format_source(&r, RNG_SOURCE_BOOT_SEED, text, sizeof(text));
                CHECK(strcmp(text, "BOOT_SEED none passed") == 0, "status: %s", text);
        }
        /* A device there that cannot be read: notice, once. */
        hw->read_error = -EACCES;
        CHECK_EQ_INT(event_unavailable(&f, hw), 0);
        check_field(&f, "PRIORITY", "5");
        check_field(&f, "RNG_REASON", "unreadable");
        event_fields_done(&f);
        hw->read_error = 0;
        CHECK_EQ_INT(event_unavailable(&f, hw), -ENODATA);

        CHECK_EQ_INT(event_vm_fork(&f, 3, 2, 7250000), 0);
        check_field(&f, "MESSAGE_ID", RNG_MID_VM_FORK_STR);
        check_field(&f, "PRIORITY", "5");
        check_field(&f, "RNG_COUNT", "3");
        check_field(&f, "RNG_NEW", "2");
        check_field(&f, "RNG_KERNEL_USEC", "7250000");
        CHECK(strstr(get(&f, "MESSAGE"), "2 times") && strstr(get(&f, "MESSAGE"), "7.250 s"), "MESSAGE=%s",
              get(&f, "MESSAGE"));
        event_fields_done(&f);

        CHECK_EQ_INT(event_crng_ready(&f, &b), 0);
        check_field(&f, "MESSAGE_ID", RNG_MID_CRNG_READY_STR);
        check_field(&f, "RNG_CRNG_INIT_USEC", "4310123");
        check_field(&f, "RNG_CRNG_STAGE", "cpu");
        CHECK(strstr(get(&f, "MESSAGE"), "CRNG ready 4.310 s after the kernel started") &&
              strstr(get(&f, "MESSAGE"), "reseeded 1x for a virtual machine fork"), "MESSAGE=%s", get(&f, "MESSAGE"));
        event_fields_done(&f);
        CHECK_EQ_INT(event_crng_ready(&f, &(KernelBootLog) { .read = true }), -ENODATA);

        /* The boot verdict carries the CRNG. */
        CHECK_EQ_INT(event_verdict(&f, &(VerdictEventInfo) { .verdict = VERDICT_OK, .boot = &b }), 0);
        check_field(&f, "RNG_CRNG_READY", "yes");
        check_field(&f, "RNG_CRNG_INIT_USEC", "4310123");
        check_field(&f, "RNG_CRNG_STAGE", "cpu");
        event_fields_done(&f);
        CHECK_EQ_INT(event_verdict(&f, &(VerdictEventInfo) { .verdict = VERDICT_OK,
                                                             .boot = &(KernelBootLog) { .read = true } }), 0);
        check_field(&f, "RNG_CRNG_READY", "no");
        CHECK(!event_fields_get(&f, "RNG_CRNG_INIT_USEC"), "a time where not ready");
        event_fields_done(&f);
}

int main(void) {
        test_hidden();
        test_other_sources();
        test_probe_result();
        test_one_run();
        test_exhausted_and_status();
        test_plurals();
        test_unsupported();
        test_output_check();
        test_attribution();
        test_verdict_events();
        test_priorities_and_formats();
        test_fields_overflow();
        test_aggregator();
        return test_result("test-journal-event");
}
