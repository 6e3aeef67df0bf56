/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The arm64 inputs that every build parses: /proc/cpuinfo's "Features"
 * lines (the sources' flags) and its MIDR fields (the CPU's identity and
 * its attribution), MIDR_EL1's value itself; with bad input. In an arm64
 * build also the arm64 errata matched by MIDR, and the table's RNDR and
 * RNDRRS flags read from an arm64 /proc/cpuinfo. The expected fields are
 * worked out by hand from the MIDR layout (Arm ARM D23.2.122: implementer
 * [31:24], variant [23:20], architecture [19:16], part [15:4], revision
 * [3:0]), not by the code under test. */

#include <string.h>

#include "cpu-id.h"
#include "errata.h"
#include "health.h"
#include "kernel-state.h"
#include "test-util.h"

#define S(s) (s), (sizeof(s) - 1)

/* A Neoverse V2 r0p1 as Linux prints it (arch/arm64/kernel/cpuinfo.c),
 * two CPUs. */
static const char v2[] =
        "processor\t: 0\nBogoMIPS\t: 2000.00\n"
        "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics rng bti\n"
        "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd4f\nCPU revision\t: 1\n\n"
        "processor\t: 1\nBogoMIPS\t: 2000.00\n"
        "Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics rng bti\n"
        "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd4f\nCPU revision\t: 1\n\n";

static void test_features(void) {
        size_t lines;

        CHECK_EQ_INT(kernel_cpuinfo_count_flag(S(v2), "rng", &lines), 2);
        CHECK_EQ_U64(lines, 2);
        CHECK(kernel_cpuinfo_has_flag(S(v2), "bti"), "bti");
        CHECK(!kernel_cpuinfo_has_flag(S(v2), "rn"), "a word's prefix is no word");
        /* One CPU of two without rng: not every line has it. */
        CHECK_EQ_INT(kernel_cpuinfo_count_flag(S("Features\t: fp rng\nFeatures\t: fp\n"), "rng", &lines), 1);
        CHECK_EQ_U64(lines, 2);
        /* Not a Features line: a longer key, no colon, a key later in the line. */
        CHECK_EQ_INT(kernel_cpuinfo_count_flag(S("Featuresx\t: rng\nFeatures rng\nx Features\t: rng\n"), "rng", &lines),
                     0);
        CHECK_EQ_U64(lines, 0);
        CHECK_EQ_INT(kernel_cpuinfo_count_flag(S("Features"), "rng", &lines), 0);
        CHECK_EQ_INT(kernel_cpuinfo_count_flag(S("Features\t:"), "rng", &lines), 0);
        CHECK_EQ_U64(lines, 1);
        /* An arm64 cpuinfo has flags for the parse: not -EBADMSG. */
        {
                bool flags[_RNG_SOURCE_MAX];

                CHECK_EQ_INT(kernel_cpuinfo_parse(S(v2), flags), 0);
                FOREACH_RNG_SOURCE(i) {
                        const char *f = rng_source_desc(i)->detect.cpuinfo_flag;

                        /* RNDR and RNDRRS ("rng") in an arm64 build; the
                         * x86 flags are not on this CPU. */
                        CHECK(flags[i] == (f && strcmp(f, "rng") == 0), "%s", rng_source_name(i));
                }
        }
}

static void test_midr(void) {
        CpuAttribution a;
        CpuId id;

        CHECK_EQ_INT(cpu_id_parse_cpuinfo(S(v2), &id), 0);
        CHECK(id.have_fms && id.midr, "MIDR fields");
        CHECK(strcmp(id.vendor, "0x41") == 0, "vendor '%s'", id.vendor);
        CHECK_EQ_U64(id.family, 0xf);
        CHECK_EQ_U64(id.model, 0xd4f);
        CHECK_EQ_U64(id.stepping, 0x01);
        CHECK(!id.have_microcode && id.model_name[0] == '\0', "no microcode or model name");
        cpu_attribution_from_id(&id, &a);
        CHECK(strcmp(a.vendor, "0x41") == 0 && strcmp(a.family, "0xf") == 0 && strcmp(a.model, "0xd4f") == 0 &&
                      strcmp(a.stepping, "r0p1") == 0 && a.microcode[0] == '\0',
              "attribution %s %s %s %s", a.vendor, a.family, a.model, a.stepping);

        /* MIDR_EL1 0x511f0010: Qualcomm (0x51), variant 1, part 0x001, revision 0. */
        id = (CpuId) {};
        cpu_id_from_midr(0x511f0010, &id);
        CHECK(strcmp(id.vendor, "0x51") == 0 && id.family == 0xf && id.model == 0x001 && id.stepping == 0x10,
              "midr 0x511f0010: %s %x %x %x", id.vendor, id.family, id.model, id.stepping);
        cpu_attribution_from_id(&id, &a);
        CHECK(strcmp(a.stepping, "r1p0") == 0, "stepping %s", a.stepping);
        /* qemu -cpu max: implementer 0 (software), part 0x051. */
        CHECK_EQ_INT(cpu_id_parse_cpuinfo(S("CPU implementer\t: 0x00\nCPU variant\t: 0x0\nCPU part\t: 0x051\n"
                                            "CPU revision\t: 0\n"), &id), 0);
        CHECK(id.have_fms && strcmp(id.vendor, "0x00") == 0 && id.model == 0x51, "qemu max");

        /* Bad input: a field missing, out of its bits, not a number, cut. */
        CHECK_EQ_INT(cpu_id_parse_cpuinfo(S("CPU implementer\t: 0x41\nCPU part\t: 0xd4f\nCPU revision\t: 1\n"), &id), 0);
        CHECK(!id.have_fms, "no variant: no identity");
        CHECK_EQ_INT(cpu_id_parse_cpuinfo(S("CPU implementer\t: 0x141\nCPU variant\t: 0x0\nCPU part\t: 0xd4f\n"
                                            "CPU revision\t: 1\n"), &id), 0);
        CHECK(!id.have_fms, "implementer of 9 bits");
        CHECK_EQ_INT(cpu_id_parse_cpuinfo(S("CPU implementer\t: 0x41\nCPU variant\t: 0x10\nCPU part\t: 0xd4f\n"
                                            "CPU revision\t: 1\n"), &id), 0);
        CHECK(!id.have_fms, "variant of 5 bits");
        CHECK_EQ_INT(cpu_id_parse_cpuinfo(S("CPU implementer\t: 0x41\nCPU variant\t: 0x0\nCPU part\t: 0x1000\n"
                                            "CPU revision\t: 1\n"), &id), 0);
        CHECK(!id.have_fms, "part of 13 bits");
        CHECK_EQ_INT(cpu_id_parse_cpuinfo(S("CPU implementer\t: 0x41\nCPU variant\t: 0x0\nCPU part\t: d4f\n"
                                            "CPU revision\t: x\n"), &id), 0);
        CHECK(!id.have_fms, "not numbers");
        /* len is honoured: cut in the first CPU's part number. */
        CHECK_EQ_INT(cpu_id_parse_cpuinfo(v2, (size_t) (strstr(v2, "CPU part\t: 0xd") - v2) + strlen("CPU part\t: 0xd"),
                                          &id),
                     0);
        CHECK(!id.have_fms, "cut before the revision");
        /* An x86 identity is never taken for MIDR's. */
        CHECK_EQ_INT(cpu_id_parse_cpuinfo(S("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t: 143\nstepping\t: 8\n"),
                                          &id), 0);
        CHECK(id.have_fms && !id.midr, "x86");
        cpu_attribution_from_id(&id, &a);
        CHECK(strcmp(a.stepping, "0x8") == 0, "x86 stepping %s", a.stepping);
}

#if RNG_SOURCES_ARM64
static CpuId midr(uint32_t m) {
        CpuId id = {};

        cpu_id_from_midr(m, &id);
        return id;
}

/* The arm64 errata: matched by MIDR, only with the symptom observed. */
static void test_errata(void) {
        ErratumObservation fail_some = { .instruction = RNG_SOURCE_RNDR, .width = 64, .failure_rate = 0.03 };
        ErratumObservation fail_all = { .instruction = RNG_SOURCE_RNDRRS, .width = 64, .failure_rate = 1.0 };
        ErratumObservation rndrrs_some = { .instruction = RNG_SOURCE_RNDRRS, .width = 64, .failure_rate = 0.5 };
        ErratumObservation clean = { .instruction = RNG_SOURCE_RNDR, .width = 64 };
        CpuId axion = midr(0x410fd4f1), n4a = midr(0x410fd8e0), graviton3 = midr(0x411fd401),
              oryon = midr(0x511f0010), oryon3 = midr(0x511f0021), a57 = midr(0x411fd070), qemu = midr(0x000f0510);
        const Erratum *e;
        char buf[128];

        e = errata_match(&axion, &fail_some, 1);
        CHECK(e && strcmp(e->id, "neoverse-v2-rndr") == 0, "Axion V2 with RNDR failures: %s", e ? e->id : "none");
        e = errata_match(&n4a, &fail_some, 1);
        CHECK(e && strcmp(e->id, "neoverse-n3-rndr") == 0, "n4a: %s", e ? e->id : "none");
        e = errata_match(&graviton3, &fail_some, 1);
        CHECK(e && strcmp(e->id, "neoverse-v1-rndr") == 0, "Graviton3: %s", e ? e->id : "none");
        CHECK(!errata_match(&axion, &clean, 1), "no failures, no erratum");
        CHECK(!errata_match(&a57, &fail_some, 1) && !errata_match(&qemu, &fail_some, 1), "another CPU");
        e = errata_match(&oryon, &fail_all, 1);
        CHECK(e && strcmp(e->id, "qcom-oryon-rndrrs") == 0, "Oryon: %s", e ? e->id : "none");
        e = errata_match(&oryon3, &fail_all, 1);
        CHECK(e && strcmp(e->id, "qcom-oryon-rndrrs") == 0, "Oryon-3: %s", e ? e->id : "none");
        CHECK(!errata_match(&oryon, &rndrrs_some, 1), "Oryon: RNDRRS failing half the time is not the symptom");
        CHECK(!errata_match(&oryon, &fail_some, 1), "Oryon: RNDR failures are not its erratum");
        CHECK(strcmp(erratum_status_format(&oryon, RNG_SOURCE_RNDRRS, buf, sizeof(buf)),
                     "qcom-oryon-rndrrs: no microcode fix, running unknown") == 0, "%s", buf);
        CHECK(strcmp(erratum_status_format(&a57, RNG_SOURCE_RNDR, buf, sizeof(buf)), "none") == 0, "%s", buf);
        for (size_t k = 0; k < errata_table_size; k++) {
                CHECK(errata_table[k].symptom_failures && !errata_table[k].kernel_action && !errata_table[k].fixes,
                      "%s: failures, no kernel action, no fix", errata_table[k].id);
                CHECK(errata_table[k].description && errata_table[k].sources, "%s: its sources", errata_table[k].id);
        }
}
#endif

int main(void) {
        test_features();
        test_midr();
#if RNG_SOURCES_ARM64
        test_errata();
#endif
        return test_result("test-cpu-arm64");
}
