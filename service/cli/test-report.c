/* SPDX-License-Identifier: GPL-2.0-or-later */

/* rng-health report's model (journal entries -> boots) and the probe's
 * JSON naming a matched erratum: from events built with scripted sources,
 * no journal. */

#include <math.h>
#include <string.h>

#include "escape-check.h"
#include "journal-event.h"
#include "journal-ids.h"
#include "macro.h"
#include "probe-errata.h"
#include "probe-json.h"
#include "plot-svg.h"
#include "report-fleet.h"
#include "report.h"
#include "scripted-source.h"
#include "status.h"
#include "test-event-util.h"
#include "test-util.h"

#define make_report script_make_report

/* A Zen5 whose RDSEED returns 0 with CF=1: the result names the erratum in
 * the probe event, the status and JSON; with the fixed microcode it is only
 * mentioned as fixed; an unknown CPU gets no guess. */
static void test_erratum_named(void) {
        const bool cpuid[_RNG_SOURCE_MAX] = { true, true };
        CpuId zen5 = { .vendor = "AuthenticAMD", .have_fms = true, .family = 0x1a, .model = 0x02,
                       .stepping = 1, .have_microcode = true, .microcode = 0xb002000 };
        CpuId fixed = zen5, milan = { .vendor = "AuthenticAMD", .have_fms = true, .family = 0x19, .model = 0x01,
                                      .stepping = 1, .have_microcode = true, .microcode = 0x1000065 };
        _cleanup_free_ char *status = NULL;
        _cleanup_json_ struct json_object *j = NULL;
        struct json_object *in, *e;
        ProbeReport r;
        EventFields f = {};

        fixed.microcode = 0xb00215a;
        make_report(SCRIPT_ZERO_RATE, 0.1, 0, cpuid, &r);
        probe_report_name_errata(&r, &zen5);
        CHECK(r.instr[RNG_SOURCE_RDSEED].erratum && strcmp(r.instr[RNG_SOURCE_RDSEED].erratum->id, "amd-zen5-rdseed") == 0,
              "Zen5 zero-rate: erratum %s", r.instr[RNG_SOURCE_RDSEED].erratum ? r.instr[RNG_SOURCE_RDSEED].erratum->id : "none");
        CHECK(!r.instr[RNG_SOURCE_RDRAND].erratum, "RDRAND blamed");
        CHECK_EQ_INT(event_probe_result(&f, &r, RNG_SOURCE_RDSEED, "boot"), 0);
        check_field(&f, "RNG_ERRATUM", "amd-zen5-rdseed");
        CHECK(strstr(get(&f, "MESSAGE"), "matches the known erratum amd-zen5-rdseed (fix: "), "MESSAGE=%s", get(&f, "MESSAGE"));
        event_fields_done(&f);
        status = status_format_probe(&r);
        CHECK(status && strstr(status, "RDSEED broken") && strstr(status, "[known erratum amd-zen5-rdseed]"),
              "status: %s", status ?: "(null)");
        CHECK_EQ_INT(probe_report_to_json(&r, NULL, &j), 0);
        CHECK(json_object_object_get_ex(j, "instructions", &in), "instructions");
        e = json_object_object_get(json_object_array_get_idx(in, RNG_SOURCE_RDSEED), "erratum");
        CHECK(e && strcmp(json_object_get_string(json_object_object_get(e, "id")), "amd-zen5-rdseed") == 0, "JSON erratum");

        probe_report_name_errata(&r, &fixed);
        CHECK(!r.instr[RNG_SOURCE_RDSEED].erratum, "fixed microcode blamed");
        CHECK(r.instr[RNG_SOURCE_RDSEED].erratum_fixed, "fixed microcode not mentioned");
        CHECK_EQ_U64(r.instr[RNG_SOURCE_RDSEED].erratum_fixed_microcode, 0xb00215a);

        probe_report_name_errata(&r, &milan);
        CHECK(!r.instr[RNG_SOURCE_RDSEED].erratum && !r.instr[RNG_SOURCE_RDSEED].erratum_fixed, "a guess on an unlisted CPU");
        probe_report_name_errata(&r, NULL);
        CHECK(!r.instr[RNG_SOURCE_RDSEED].erratum && !r.have_cpu, "a guess without a CPU identity");

        /* A healthy Zen5 is not blamed. */
        make_report(SCRIPT_HEALTHY, 0, 0, cpuid, &r);
        probe_report_name_errata(&r, &zen5);
        CHECK(!r.instr[RNG_SOURCE_RDSEED].erratum, "a healthy result blamed");
}

static void test_report_model(void) {
        const bool cpuid[_RNG_SOURCE_MAX] = { true, true };
        const Verdict iv[_RNG_SOURCE_MAX] = { VERDICT_OK, VERDICT_EXHAUSTED };
        VerdictEventInfo info = { .verdict = VERDICT_EXHAUSTED, .trigger = "boot", .instr_verdicts = iv, .cvm = "none" };
        sd_id128_t b1 = { .bytes = { 1 } }, b2 = { .bytes = { 2 } };
        _cleanup_free_ char *text = NULL;
        struct json_object *j = NULL, *boots, *o;
        size_t len = 0;
        ProbeReport r;
        Report rep = {};
        EventFields f = {};
        FILE *m;

        make_report(SCRIPT_RANDOM_FAIL, 0.6, 0, cpuid, &r);
        for (int i = 0; i < 2; i++) {
                CHECK_EQ_INT(event_probe_result(&f, &r, i, "boot"), 0);
                CHECK_EQ_INT(report_add_entry(&rep, b1, 1000 + i, &f), 0);
                event_fields_done(&f);
        }
        CHECK_EQ_INT(event_verdict(&f, &info), 0);
        CHECK_EQ_INT(report_add_entry(&rep, b1, 1002, &f), 0);
        event_fields_done(&f);
        CHECK_EQ_INT(event_probe_result(&f, &r, RNG_SOURCE_RDSEED, "reprobe"), 0);
        CHECK_EQ_INT(report_add_entry(&rep, b1, 5000, &f), 0);
        event_fields_done(&f);
        info.have_previous = true;
        info.previous = VERDICT_OK;
        CHECK_EQ_INT(event_verdict(&f, &info), 0);
        CHECK_EQ_INT(report_add_entry(&rep, b2, 9000, &f), 0);
        event_fields_done(&f);

        /* a kernel watch event */
        CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_KERNEL_EXHAUSTED_STR), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_COUNT=5"), 0);
        CHECK_EQ_INT(report_add_entry(&rep, b2, 9500, &f), 0);
        event_fields_done(&f);

        /* one during the own probe: counted, and apart */
        CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_KERNEL_EXHAUSTED_STR), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_COUNT=3"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_OWN_PROBE=1"), 0);
        CHECK_EQ_INT(report_add_entry(&rep, b2, 9600, &f), 0);
        event_fields_done(&f);
        CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_KERNEL_EXHAUSTED_STR), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_COUNT=3"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_OWN_PROBE=2"), 0);
        CHECK(report_add_entry(&rep, b2, 9700, &f) < 0, "RNG_OWN_PROBE=2 accepted");
        event_fields_done(&f);

        /* unavailable: a seed not known (the log not read), a device absent */
        for (unsigned i = 0; i < 2; i++) {
                CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_UNAVAILABLE_STR), 0);
                CHECK_EQ_INT(event_fields_addf(&f, "RNG_INSTRUCTION=%s", i == 0 ? "BOOT_SEED" : "HWRNG"), 0);
                CHECK_EQ_INT(event_fields_addf(&f, "RNG_REASON=%s", i == 0 ? "unknown" : "absent"), 0);
                CHECK_EQ_INT(report_add_entry(&rep, b2, 9750 + i, &f), 0);
                event_fields_done(&f);
        }

        /* routine records: at once (no interval), then one with its interval */
        CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_KERNEL_EXHAUSTED_STR), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_COUNT=2"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_ROUTINE=1"), 0);
        CHECK_EQ_INT(report_add_entry(&rep, b2, 9800, &f), 0);
        event_fields_done(&f);
        CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_KERNEL_EXHAUSTED_STR), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_COUNT=12"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_ROUTINE=1"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_INTERVAL_USEC=%" PRIu64, 6 * 3600 * UINT64_C(1000000)), 0);
        CHECK_EQ_INT(report_add_entry(&rep, b2, 9900, &f), 0);
        event_fields_done(&f);

        CHECK_EQ_INT(rep.n_boots, 2);
        CHECK_EQ_INT(rep.boots[1].kernel_events[0], 4);
        CHECK_EQ_U64(rep.boots[1].kernel_failures, 22);
        CHECK_EQ_U64(rep.boots[1].kernel_own_failures, 3);
        CHECK_EQ_U64(rep.boots[1].routine_failures, 14);
        CHECK(strcmp(rep.boots[0].boot_verdict, "exhausted") == 0, "boot verdict %s", rep.boots[0].boot_verdict);
        CHECK_EQ_INT(rep.boots[0].probes, 2);
        CHECK_EQ_U64(rep.boots[0].first_usec, 1000);
        CHECK_EQ_U64(rep.boots[0].last_usec, 5000);
        CHECK(strcmp(rep.boots[0].instr[RNG_SOURCE_RDSEED].worst_verdict, "exhausted") == 0, "worst");
        CHECK(rep.boots[0].instr[RNG_SOURCE_RDSEED].failures > 0, "failures");
        CHECK_EQ_INT(rep.boots[1].verdict_changes, 1);
        CHECK(rep.boots[1].boot_verdict[0] == '\0', "second boot has no boot verdict");

        m = open_memstream(&text, &len);
        report_print(&rep, b2, m);
        fclose(m);
        CHECK(strstr(text, "Boot 01000000000000000000000000000000: "), "%s", text);
        CHECK(strstr(text, "Boot 02000000000000000000000000000000 (current): "), "%s", text);
        CHECK(strstr(text, "  RDSEED                 exhausted (worst exhausted): "), "%s", text);
        CHECK(strstr(text, "  BOOT_SEED              not probed: unknown (what would show it was not read)\n"), "%s", text);
        CHECK(strstr(text, "  HWRNG                  not probed: no device\n"), "%s", text);
        CHECK(strstr(text, "  Kernel events:         4 exhausted, 0 failed (22 failures counted, 3 of them during "
                           "rng-health's own probe), 0 disabled, 0 defective\n"),
              "%s", text);
        CHECK(strstr(text, "  Routine (RDSEED):      14 exhaustions, the kernel seeded from RDRAND instead; 2 per hour over 6.0 h\n"),
              "%s", text);

        CHECK_EQ_INT(report_to_json(&rep, b2, &j), 0);
        CHECK(json_object_object_get_ex(j, "boots", &boots) && json_object_array_length(boots) == 2, "boots");
        o = json_object_array_get_idx(boots, 1);
        CHECK(json_object_get_boolean(json_object_object_get(o, "current")), "current");
        CHECK(strcmp(json_object_get_string(json_object_object_get(o, "verdict")), "exhausted") == 0, "verdict");
        json_object_put(j);
        report_done(&rep);
}

/* Journal fields are parsed strictly; a bad entry is
 * counted and not used ("RNG_COUNT=-3" used to subtract). */
static void test_strict_fields(void) {
        static const char *const bad[] = {
                "RNG_COUNT=-3", "RNG_COUNT= 3", "RNG_COUNT=3x", "RNG_COUNT=0x10", "RNG_COUNT=",
                "RNG_COUNT=18446744073709551616",
        };
        sd_id128_t b = { .bytes = { 7 } };
        Report rep = {};
        EventFields f = {};

        /* a good kernel event: 5 */
        CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", rng_kernel_message_id(KERNEL_RNG_MSG_EXHAUSTED)), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_COUNT=5"), 0);
        CHECK_EQ_INT(report_add_entry(&rep, b, 100, &f), 0);
        event_fields_done(&f);
        for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
                CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", rng_kernel_message_id(KERNEL_RNG_MSG_EXHAUSTED)), 0);
                CHECK_EQ_INT(event_fields_addf(&f, "%s", bad[i]), 0);
                CHECK(report_add_entry(&rep, b, 200, &f) == -EBADMSG, "'%s' taken", bad[i]);
                event_fields_done(&f);
        }
        /* failures above attempts, an exit status above 255, an unknown verdict */
        CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_PROBE_RESULT_STR), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_INSTRUCTION=RDSEED"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_TOTAL_ATTEMPTS=3"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_TOTAL_FAILURES=4"), 0);
        CHECK(report_add_entry(&rep, b, 300, &f) == -EBADMSG, "failures > attempts taken");
        event_fields_done(&f);
        CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_POLICY_FAILURE_STR), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_EXIT_STATUS=256"), 0);
        CHECK(report_add_entry(&rep, b, 300, &f) == -EBADMSG, "exit status 256 taken");
        event_fields_done(&f);
        CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_VERDICT_BOOT_STR), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_VERDICT=fine"), 0);
        CHECK(report_add_entry(&rep, b, 300, &f) == -EBADMSG, "verdict 'fine' taken");
        event_fields_done(&f);
        /* RNG_FAIL_ON and RNG_CONFIDENTIAL_VM as the daemon writes them, or refused */
        {
                static const char *const bad_fields[] = {
                        "RNG_FAIL_ON=\xff\xfe\xc0\x80", "RNG_FAIL_ON=", "RNG_FAIL_ON=exhausted  broken",
                        "RNG_FAIL_ON=broken ", "RNG_FAIL_ON=rdrand:sometimes", "RNG_FAIL_ON=none broken",
                        "RNG_CONFIDENTIAL_VM=\x1b[8m", "RNG_CONFIDENTIAL_VM=tdx2", "RNG_CONFIDENTIAL_VM=",
                        "RNG_REASON=\x1b[8m", "RNG_REASON=", "RNG_REASON=microcode",
                        "RNG_CRNG_READY=maybe", "RNG_CRNG_STAGE=bootloader", "RNG_CRNG_INIT_USEC=-1",
                        "RNG_CREDIT_QUALITY=1025", "RNG_HOST_FED=1", "RNG_CREDITED=", "RNG_KIND=device",
                };
                static const char *const good_fields[] = {
                        "RNG_FAIL_ON=none", "RNG_FAIL_ON=broken rdrand:exhausted", "RNG_FAIL_ON=ok",
                        "RNG_CONFIDENTIAL_VM=forced", "RNG_CONFIDENTIAL_VM=sev-snp", "RNG_CONFIDENTIAL_VM=none",
                        "RNG_REASON=cpuid", "RNG_REASON=kernel", "RNG_REASON=hidden",
                        "RNG_REASON=absent", "RNG_REASON=unreadable", "RNG_REASON=unknown", "RNG_CRNG_READY=no",
                        "RNG_CRNG_STAGE=cpu", "RNG_CRNG_INIT_USEC=4310123", "RNG_CREDIT_QUALITY=1024", "RNG_HOST_FED=yes",
                        "RNG_KIND=hwrng-device",
                };

                for (size_t i = 0; i < ELEMENTSOF(bad_fields); i++) {
                        CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_VERDICT_BOOT_STR), 0);
                        CHECK_EQ_INT(event_fields_addf(&f, "RNG_VERDICT=ok"), 0);
                        CHECK_EQ_INT(event_fields_addf(&f, "%s", bad_fields[i]), 0);
                        CHECK(report_add_entry(&rep, b, 300, &f) == -EBADMSG, "'%s' taken", bad_fields[i]);
                        event_fields_done(&f);
                }
                for (size_t i = 0; i < ELEMENTSOF(good_fields); i++) {
                        Report ok = {};

                        CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_VERDICT_BOOT_STR), 0);
                        CHECK_EQ_INT(event_fields_addf(&f, "RNG_VERDICT=ok"), 0);
                        CHECK_EQ_INT(event_fields_addf(&f, "%s", good_fields[i]), 0);
                        CHECK(report_add_entry(&ok, b, 300, &f) == 0, "'%s' refused", good_fields[i]);
                        event_fields_done(&f);
                        report_done(&ok);
                }
        }

        CHECK_EQ_INT(rep.n_boots, 1);
        CHECK_EQ_U64(rep.boots[0].kernel_failures, 5);
        CHECK_EQ_INT(rep.boots[0].kernel_events[KERNEL_RNG_MSG_EXHAUSTED], 1);
        CHECK_EQ_INT(rep.boots[0].policy_failures, 0);
        CHECK(rep.boots[0].boot_verdict[0] == '\0', "bad verdict used");
        CHECK_EQ_INT(rep.malformed, ELEMENTSOF(bad) + 3 + 19);
        CHECK(strcmp(rep.first_malformed_field, "RNG_COUNT") == 0, "first: %s", rep.first_malformed_field);
        report_done(&rep);
}

/* The strings report shows come from the journal: RNG_CONFIDENTIAL_VM=<ESC>[8m
 * hid every later line on a terminal, and RNG_FAIL_ON=\xff\xfe\xc0\x80
 * made --json invalid UTF-8; C1 and bidi controls too. Such values are not
 * what the daemon writes: the entry is refused as malformed, and nothing
 * of it reaches the text or the JSON (which stay safe: every string is
 * escaped besides); the entries from other senders that
 * report_read_journal() ignored are counted in both. */
static void test_escaped_fields(void) {
        static const struct {
                const char *field, *value, *shown;
        } cases[] = {
                { "RNG_CONFIDENTIAL_VM", "\x1b[8m", "\\x1b[8m" },
                { "RNG_FAIL_ON", "\xff\xfe\xc0\x80", "\\xff\\xfe\\xc0\\x80" },
                { "RNG_CONFIDENTIAL_VM", "\xc2\x9b" "8m", "\\xc2\\x9b8m" },
                { "RNG_FAIL_ON", "ok\xe2\x80\xae", "ok\\xe2\\x80\\xae" },
                { "RNG_REASON", "\x1b[8m", "\\x1b[8m" },
        };

        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                sd_id128_t b = { .bytes = { 9 } };
                _cleanup_free_ char *text = NULL;
                struct json_object *j = NULL;
                const char *json;
                Report rep = { .foreign = 3 };
                EventFields f = {};
                size_t len = 0;
                FILE *m;

                CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_VERDICT_CHANGED_STR), 0);
                CHECK_EQ_INT(event_fields_addf(&f, "RNG_VERDICT=degraded"), 0);
                CHECK_EQ_INT(event_fields_addf(&f, "%s=%s", cases[i].field, cases[i].value), 0);
                CHECK_EQ_INT(report_add_entry(&rep, b, 100, &f), -EBADMSG);
                event_fields_done(&f);

                m = open_memstream(&text, &len);
                report_print(&rep, b, m);
                fclose(m);
                CHECK(escape_check_output(text, len, true), "case %zu: unsafe text: %s", i, text);
                CHECK(!strstr(text, cases[i].value) && !strstr(text, cases[i].shown), "case %zu: the value is shown: %s",
                      i, text);
                CHECK(strstr(text, "\n3 entries from other senders ignored (not from rng-health.service"),
                      "case %zu: foreign entries not said: %s", i, text);

                CHECK_EQ_INT(report_to_json(&rep, b, &j), 0);
                json = j ? json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE) : "";
                CHECK(escape_check_output(json, strlen(json), true), "case %zu: JSON not valid UTF-8 text: %s", i, json);
                CHECK(strstr(json, "\"foreign_entries\":3"), "case %zu: %s", i, json);
                json_object_put(j);
                report_done(&rep);
        }

        /* One ignored entry, and no events: still said, singular. */
        {
                Report rep = { .foreign = 1 };
                _cleanup_free_ char *text = NULL;
                size_t len = 0;
                FILE *m = open_memstream(&text, &len);

                report_print(&rep, (sd_id128_t) {}, m);
                fclose(m);
                CHECK(strstr(text, "No rng-health events in the journal.\n\n1 entry from other senders ignored"), "%s",
                      text);
        }
}

/* RNG_RUN_FAILURE_RATES: what the daemon writes, read back; anything else
 * refused whole. */
static void test_rates(void) {
        static const char *const bad[] = {
                "", " ", "64/single/1=0.5 ", " 64/single/1=0.5", "64/single/1=0.5  64/single/1=0.5",
                "64/single/2=0.5", "64/single/1@0=0.5", "48/single/1=0.5", "064/single/1=0.5",
                "64/contention/0=0.5", "64/contention/1025=0.5", "64/contention/4@x=0.5",
                "64/contention/4@2147483648=0.5", "64/contention/4@=0.5", "64/contention/4=1.5", "64/contention/4=-0.1",
                "64/contention/4=.5", "64/contention/4=0.", "64/contention/4=0.5.1", "64/contention/4=", "64/bogus/4=0.1",
                "64/contention/4", "64//4=0.1", "/single/1=0", "64/single/1=0x1", "64/contention/+4=0.1",
                "64/contention/4=0.1234567890123", "64/single/1=0.5\n64/single/1=0.5", "64/contention/04=0.5",
                "64/contention/4@01=0.5",
        };
        ReportRate rates[REPORT_RATES_MAX];
        char many[2048] = "";
        unsigned n = 0;

        CHECK_EQ_INT(report_parse_rates("64/single/1=0.7160 64/contention/16@0=0.9840 16/contention/2=1", rates, &n), 0);
        CHECK_EQ_U64(n, 3);
        CHECK(rates[0].width == 64 && !rates[0].contention && rates[0].threads == 1 && rates[0].package == -1 &&
              fabs(rates[0].ratio - 0.716) < 1e-9, "rate 0");
        CHECK(rates[1].contention && rates[1].threads == 16 && rates[1].package == 0 && fabs(rates[1].ratio - 0.984) < 1e-9,
              "rate 1");
        CHECK(rates[2].width == 16 && rates[2].package == -1 && rates[2].ratio == 1, "rate 2");
        for (size_t k = 0; k < ELEMENTSOF(bad); k++)
                CHECK(report_parse_rates(bad[k], rates, &n) == -EBADMSG, "'%s' taken", bad[k]);
        /* at most one a run of a probe */
        for (unsigned k = 0; k < REPORT_RATES_MAX; k++)
                snprintf(many + strlen(many), sizeof(many) - strlen(many), "%s64/contention/2@%u=0.5", k ? " " : "", k);
        CHECK_EQ_INT(report_parse_rates(many, NULL, NULL), 0);
        strcat(many, " 64/single/1=0");
        CHECK_EQ_INT(report_parse_rates(many, NULL, NULL), -EBADMSG);
}

/* A probe result as the daemon writes it, with the CPU, read back into
 * the boot; malformed CPU words and run lists are refused. */
static void test_attribution_read(void) {
        const bool cpuid[_RNG_SOURCE_MAX] = { true, true };
        sd_id128_t m = { .bytes = { 7 } }, b = { .bytes = { 8 } };
        Report rep = {};
        ProbeReport r;
        EventFields f = {};
        const ReportBoot *rb;

        make_report(SCRIPT_RANDOM_FAIL, 0.6, 0, cpuid, &r);
        r.have_cpu = true;
        r.cpu = (CpuId) { .vendor = "AuthenticAMD", .have_fms = true, .family = 0x1a, .model = 0x02, .stepping = 1,
                          .have_microcode = true, .microcode = 0xb002110, .model_name = "AMD EPYC 9B45" };
        snprintf(r.kernel_release, sizeof(r.kernel_release), "6.12.57+deb13-amd64");
        CHECK_EQ_INT(event_probe_result(&f, &r, RNG_SOURCE_RDSEED, "boot"), 0);
        CHECK_EQ_INT(report_add_machine_entry(&rep, m, "host-\033[8m", b, 1000, &f), 0);
        event_fields_done(&f);
        CHECK_EQ_U64(rep.n_boots, 1);
        rb = &rep.boots[0];
        CHECK(sd_id128_equal(rb->machine_id, m), "machine id");
        CHECK(strcmp(rb->hostname, "host-\\x1b[8m") == 0, "hostname kept escaped: %s", rb->hostname);
        CHECK(strcmp(rb->cpu.vendor, "AuthenticAMD") == 0 && strcmp(rb->cpu.family, "0x1a") == 0 &&
              strcmp(rb->cpu.model, "0x2") == 0 && strcmp(rb->cpu.stepping, "0x1") == 0 &&
              strcmp(rb->cpu.microcode, "0xb002110") == 0 && strcmp(rb->cpu.model_name, "AMD EPYC 9B45") == 0 &&
              strcmp(rb->cpu.kernel_release, "6.12.57+deb13-amd64") == 0, "cpu read back");
        CHECK(strcmp(rb->instr[RNG_SOURCE_RDSEED].erratum_status,
                     "amd-zen5-rdseed: fixed in microcode 0xb00215a, running 0xb002110: not fixed") == 0,
              "erratum status: %s", rb->instr[RNG_SOURCE_RDSEED].erratum_status);
        /* every run the probe made is a single run (threads 1 in make_report): all listed */
        CHECK_EQ_U64(rb->instr[RNG_SOURCE_RDSEED].n_rates, r.instr[RNG_SOURCE_RDSEED].n_runs);
        CHECK(fabs(rb->instr[RNG_SOURCE_RDSEED].rates[0].ratio - r.instr[RNG_SOURCE_RDSEED].runs[0].failure_rate) < 1e-4,
              "ratio %g vs %g", rb->instr[RNG_SOURCE_RDSEED].rates[0].ratio, r.instr[RNG_SOURCE_RDSEED].runs[0].failure_rate);

        static const char *const bad[][2] = {
                { "RNG_CPU_FAMILY", "0x1a;rm" }, { "RNG_CPU_VENDOR", "" }, { "RNG_CPU_MODEL", "0x123456789abc" },
                { "RNG_CPU_MICROCODE", "0x1 0x2" }, { "RNG_KERNEL_RELEASE", "6.12 evil" },
                { "RNG_RUN_FAILURE_RATES", "64/single/1=2" }, { "RNG_PACKAGE", "-1" }, { "RNG_PACKAGES", "5000" },
        };
        for (size_t k = 0; k < ELEMENTSOF(bad); k++) {
                unsigned before = rep.malformed;

                CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_PROBE_RESULT_STR), 0);
                CHECK_EQ_INT(event_fields_addf(&f, "RNG_INSTRUCTION=RDSEED"), 0);
                CHECK_EQ_INT(event_fields_addf(&f, "RNG_VERDICT=ok"), 0);
                CHECK_EQ_INT(event_fields_addf(&f, "%s=%s", bad[k][0], bad[k][1]), 0);
                CHECK(report_add_machine_entry(&rep, m, "h", b, 2000, &f) == -EBADMSG, "%s=%s taken", bad[k][0], bad[k][1]);
                CHECK_EQ_U64(rep.malformed, before + 1);
                event_fields_done(&f);
        }
        CHECK(strcmp(rep.boots[0].cpu.family, "0x1a") == 0, "a refused entry changed the boot");
        report_done(&rep);
}

/* Many machines: every boot found again through the index, none twice. */
static void test_many_boots(void) {
        Report rep = {};
        EventFields f = {};

        CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_VERDICT_BOOT_STR), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_VERDICT=ok"), 0);
        for (unsigned round = 0; round < 2; round++)
                for (unsigned k = 0; k < 3000; k++) {
                        sd_id128_t m = {}, b = {};

                        m.bytes[0] = b.bytes[0] = (uint8_t) k;
                        m.bytes[1] = b.bytes[1] = (uint8_t) (k >> 8);
                        b.bytes[15] = 0xb0; /* boot IDs that differ in their first bytes only */
                        CHECK_EQ_INT(report_add_machine_entry(&rep, m, "h", b, 1000 + round, &f), 0);
                }
        event_fields_done(&f);
        CHECK_EQ_U64(rep.n_boots, 3000);
        CHECK_EQ_U64(rep.boots[2999].first_usec, 1000);
        CHECK_EQ_U64(rep.boots[2999].last_usec, 1001);
        report_done(&rep);
}

/* The fleet of three machines: verdicts of the latest probe per source,
 * CPU groups most machines first, the table, the JSON, the figure's
 * means. */
static void add_probe(Report *rep, sd_id128_t m, const char *host, sd_id128_t b, uint64_t t, const char *source,
                      const char *verdict, const char *ucode, const char *rates) {
        EventFields f = {};

        CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_PROBE_RESULT_STR), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_INSTRUCTION=%s", source), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_VERDICT=%s", verdict), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_TOTAL_ATTEMPTS=100"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_TOTAL_FAILURES=10"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_CPU_VENDOR=GenuineIntel"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_CPU_FAMILY=0x6"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_CPU_MODEL=0x8f"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_CPU_STEPPING=0x8"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_CPU_MICROCODE=%s", ucode), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_KERNEL_RELEASE=6.12.57"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_RUN_FAILURE_RATES=%s", rates), 0);
        CHECK_EQ_INT(report_add_machine_entry(rep, m, host, b, t, &f), 0);
        event_fields_done(&f);
}

static void test_fleet(void) {
        sd_id128_t m1 = { .bytes = { 1 } }, m2 = { .bytes = { 2 } }, m3 = { .bytes = { 3 } };
        sd_id128_t b1 = { .bytes = { 11 } }, b2 = { .bytes = { 12 } }, b2old = { .bytes = { 22 } }, b3 = { .bytes = { 13 } };
        _cleanup_free_ char *text = NULL;
        _cleanup_free_ PlotPanel *panels = calloc(PLOT_PANELS_MAX, sizeof(PlotPanel));
        struct json_object *j = NULL, *machines, *m;
        Report rep = {};
        Fleet fleet;
        size_t len = 0, n;
        char note[256];
        FILE *out;

        /* m2 (host "b"): an older boot exhausted, its latest boot ok */
        add_probe(&rep, m2, "b", b2old, 100, "RDSEED", "exhausted", "0x1", "64/single/1=0.9000");
        add_probe(&rep, m2, "b", b2, 5000, "RDSEED", "ok", "0x1", "64/single/1=0.1000 64/contention/4@0=0.3000");
        add_probe(&rep, m2, "b", b2, 5001, "RDRAND", "ok", "0x1", "64/single/1=0");
        add_probe(&rep, m1, "a", b1, 4000, "RDSEED", "exhausted", "0x1", "64/single/1=0.5000 64/contention/4@0=0.7000");
        add_probe(&rep, m3, "c", b3, 3000, "RDSEED", "broken", "0x2", "64/single/1=0.2000");
        /* c alone has an hwrng device: its column is shown; no machine
         * reports a boot seed: no column of "n/a" for it */
        {
                EventFields f = {};

                CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_PROBE_RESULT_STR), 0);
                CHECK_EQ_INT(event_fields_addf(&f, "RNG_INSTRUCTION=HWRNG"), 0);
                CHECK_EQ_INT(event_fields_addf(&f, "RNG_KIND=hwrng-device"), 0);
                CHECK_EQ_INT(event_fields_addf(&f, "RNG_VERDICT=ok"), 0);
                CHECK_EQ_INT(report_add_machine_entry(&rep, m3, "c", b3, 3001, &f), 0);
                event_fields_done(&f);
        }
        CHECK(panels, "calloc");
        CHECK_EQ_INT(fleet_build(&rep, &fleet), 0);
        CHECK_EQ_U64(fleet.n, 3);
        CHECK(strcmp(fleet.machines[0].hostname, "a") == 0 && strcmp(fleet.machines[2].hostname, "c") == 0, "order");
        CHECK_EQ_U64(fleet.machines[1].boots, 2);
        CHECK(fleet.machines[1].probed[RNG_SOURCE_RDSEED] && sd_id128_equal(fleet.machines[1].probed[RNG_SOURCE_RDSEED]->boot_id, b2),
              "m2's latest probe");
        CHECK_EQ_U64(fleet.verdicts[RNG_SOURCE_RDSEED][VERDICT_OK], 1);
        CHECK_EQ_U64(fleet.verdicts[RNG_SOURCE_RDSEED][VERDICT_EXHAUSTED], 1);
        CHECK_EQ_U64(fleet.verdicts[RNG_SOURCE_RDSEED][VERDICT_BROKEN], 1);
        CHECK_EQ_U64(fleet.verdicts[RNG_SOURCE_RDRAND][_VERDICT_MAX], 2); /* a and c: no RDRAND result */
        CHECK_EQ_U64(fleet.n_groups, 2);
        CHECK(fleet.groups[0].machines == 2 && strcmp(fleet.groups[0].cpu->microcode, "0x1") == 0, "group 0");
        CHECK(fleet.groups[1].machines == 1 && strcmp(fleet.groups[1].cpu->microcode, "0x2") == 0, "group 1");

        out = open_memstream(&text, &len);
        fleet_print(&fleet, out);
        fclose(out);
        CHECK(text && strstr(text, "\n020000000000  b         ok           ok           n/a          GenuineIntel 0x6/0x8f/0x8  0x1        6.12.57  "),
              "b's line:\n%s", text);
        CHECK(text && strstr(text, "\n3 machines.\n"), "count");
        CHECK(text && strstr(text, "  RDSEED     broken 1, exhausted 1, ok 1\n"), "by verdict:\n%s", text);
        CHECK(text && strstr(text, "  HWRNG      ok 1, n/a 2\n"), "by verdict:\n%s", text);
        CHECK(text && strstr(text, "\n030000000000  c         n/a          broken       ok           GenuineIntel"),
              "c's line:\n%s", text);
        CHECK(text && !strstr(text, "BOOT_SEED"), "a source no machine reports is shown:\n%s", text);
        CHECK(text && escape_check_output(text, len, true), "text not safe");

        CHECK_EQ_INT(fleet_to_json(&fleet, &j), 0);
        CHECK(strcmp(json_object_get_string(json_object_object_get(j, "schema")), "rng-health.fleet/1") == 0, "schema");
        machines = json_object_object_get(j, "machines");
        CHECK(json_object_array_length(machines) == 3, "machines");
        m = json_object_array_get_idx(machines, 1);
        CHECK(strcmp(json_object_get_string(json_object_object_get(json_object_object_get(m, "verdicts"), "RDSEED")), "ok") == 0,
              "b's RDSEED");
        CHECK(json_object_get_int(json_object_object_get(m, "boots")) == 2, "b's boots");
        CHECK(json_object_object_get_ex(json_object_object_get(m, "verdicts"), "HWRNG", NULL) &&
              !json_object_object_get(json_object_object_get(m, "verdicts"), "HWRNG"), "b's HWRNG: null");
        CHECK(!json_object_object_get_ex(json_object_object_get(m, "verdicts"), "BOOT_SEED", NULL), "b's BOOT_SEED shown");
        CHECK(!json_object_object_get_ex(json_object_object_get(j, "by_verdict"), "BOOT_SEED", NULL), "BOOT_SEED counted");
        json_object_put(j);

        /* the figure: group 0 (a and b) has RDSEED 64-bit at 1 thread
         * (0.5 + 0.1) / 2 and 4 threads (0.7 + 0.3) / 2 */
        n = fleet_panels(&fleet, panels, note, sizeof(note));
        CHECK_EQ_U64(n, 2);
        {
                const PlotSeries *s = NULL;

                for (unsigned k = 0; k < panels[0].n_series; k++)
                        if (strcmp(panels[0].series[k].label, "RDSEED 64-bit") == 0)
                                s = &panels[0].series[k];
                CHECK(s && s->n == 2 && s->x[0] == 1 && fabs(s->y[0] - 0.3) < 1e-9 && s->x[1] == 4 && fabs(s->y[1] - 0.5) < 1e-9,
                      "panel 0 RDSEED 64-bit: %u points", s ? s->n : 0);
        }
        fleet_done(&fleet);
        report_done(&rep);
}

/* This boot's CRNG from the boot verdict (and a later CRNG-ready event),
 * the virtual machine forks, the hwrng device's result. */
static void test_crng_and_device(void) {
        sd_id128_t b = { .bytes = { 9 } };
        Report rep = {};
        EventFields f = {};
        _cleanup_free_ char *text = NULL;
        size_t size = 0;
        FILE *out;

        CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_VERDICT_BOOT_STR), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_VERDICT=host-fed"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_CRNG_READY=no"), 0);
        CHECK_EQ_INT(report_add_entry(&rep, b, 100, &f), 0);
        event_fields_done(&f);
        CHECK(strcmp(rep.boots[0].crng_ready, "no") == 0, "not ready at boot");
        CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_CRNG_READY_STR), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_CRNG_READY=yes"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_CRNG_INIT_USEC=231400000"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_CRNG_STAGE=unknown"), 0);
        CHECK_EQ_INT(report_add_entry(&rep, b, 200, &f), 0);
        event_fields_done(&f);
        for (int k = 1; k <= 2; k++) {
                CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_VM_FORK_STR), 0);
                CHECK_EQ_INT(event_fields_addf(&f, "RNG_COUNT=%d", k), 0);
                CHECK_EQ_INT(report_add_entry(&rep, b, 300 + k, &f), 0);
                event_fields_done(&f);
        }
        CHECK_EQ_INT(event_fields_addf(&f, "MESSAGE_ID=%s", RNG_MID_PROBE_RESULT_STR), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_INSTRUCTION=HWRNG"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_KIND=hwrng-device"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_VERDICT=host-fed"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_DEVICE=virtio_rng.0"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_CREDITED=yes"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_CREDIT_QUALITY=1024"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_HOST_FED=yes"), 0);
        CHECK_EQ_INT(event_fields_addf(&f, "RNG_BYTES_PER_SEC=10240"), 0);
        CHECK_EQ_INT(report_add_entry(&rep, b, 400, &f), 0);
        event_fields_done(&f);

        CHECK(strcmp(rep.boots[0].crng_ready, "yes") == 0 && rep.boots[0].crng_init_usec == 231400000, "ready later");
        CHECK_EQ_U64(rep.boots[0].vm_forks, 2);
        out = open_memstream(&text, &size);
        CHECK(out, "memstream");
        if (!out)
                return;
        report_print(&rep, b, out);
        fclose(out);
        CHECK(strstr(text, "CRNG ready:            231.400 s after the kernel started (unknown)"), "%s", text);
        CHECK(strstr(text, "VM forks:              2"), "%s", text);
        CHECK(strstr(text, "HWRNG                  host-fed (worst host-fed): virtio_rng.0, host-fed, credited 1024/1024, 10.2kB/s"),
              "%s", text);
        report_done(&rep);
}

int main(void) {
        test_erratum_named();
        test_rates();
        test_attribution_read();
        test_many_boots();
        test_fleet();
        test_crng_and_device();
        test_report_model();
        test_strict_fields();
        test_escaped_fields();
        return test_result("test-report");
}
