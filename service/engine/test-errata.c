/* SPDX-License-Identifier: GPL-2.0-or-later */

/* CPU identity from /proc/cpuinfo and CPUID leaf 1, and the errata table
 * against cpuinfo fixtures: every entry matches its symptom on its CPU, not
 * without it, not with fixed microcode, and an unknown CPU never matches. */

#include <stdlib.h>
#include <string.h>

#include "cpu-id.h"
#include "errata.h"
#include "health.h"
#include "macro.h"
#include "probe-errata.h"
#include "scripted-source.h"
#include "test-util.h"

#define S(x) x, sizeof(x) - 1

#define CPUINFO(vendor, fam, model, step, ucode)                                      \
        "processor\t: 0\n"                                                            \
        "vendor_id\t: " vendor "\n"                                                   \
        "cpu family\t: " fam "\n"                                                     \
        "model\t\t: " model "\n"                                                      \
        "model name\t: Some CPU: with a colon\n"                                      \
        "stepping\t: " step "\n"                                                      \
        "microcode\t: " ucode "\n"                                                    \
        "flags\t\t: fpu rdrand rdseed\n"                                              \
        "\n"                                                                          \
        "processor\t: 1\n"                                                            \
        "vendor_id\t: GenuineIntel\n"                                                 \
        "cpu family\t: 6\n"

/* Zen5 family 1Ah model 44h stepping 0 (26 = 0x1a, 68 = 0x44). */
static const char zen5_old[] = CPUINFO("AuthenticAMD", "26", "68", "0", "0xb404032");
static const char zen5_fixed[] = CPUINFO("AuthenticAMD", "26", "68", "0", "0xb404035");
static const char zen5_unlisted[] = CPUINFO("AuthenticAMD", "26", "68", "7", "0xb404001");
static const char epyc_milan[] = CPUINFO("AuthenticAMD", "25", "1", "1", "0xa0011d5");
static const char intel[] = CPUINFO("GenuineIntel", "6", "85", "7", "0x5003604");
static const char fam16h[] = CPUINFO("AuthenticAMD", "22", "48", "1", "0x7030105");
static const char fam15h[] = CPUINFO("AuthenticAMD", "21", "2", "0", "0x6000852");
static const char cyan[] = CPUINFO("AuthenticAMD", "23", "71", "0", "0x8407007");

static CpuId parse(const char *text, size_t len) {
        CpuId id;
        int r = cpu_id_parse_cpuinfo(text, len, &id);

        CHECK(r == 0, "parse: %d", r);
        return id;
}

static void test_decode_leaf1(void) {
        unsigned f, m, s;

        /* Zen5 Turin: family 0xf + 0xb, ext model 0, model 2, stepping 1. */
        cpu_id_decode_leaf1(0x00b00f21, &f, &m, &s);
        CHECK_EQ_INT(f, 0x1a); CHECK_EQ_INT(m, 0x02); CHECK_EQ_INT(s, 1);
        /* EPYC Milan 0x00a00f11. */
        cpu_id_decode_leaf1(0x00a00f11, &f, &m, &s);
        CHECK_EQ_INT(f, 0x19); CHECK_EQ_INT(m, 0x01); CHECK_EQ_INT(s, 1);
        /* Intel Skylake-SP 0x00050657: family 6 uses the extended model. */
        cpu_id_decode_leaf1(0x00050657, &f, &m, &s);
        CHECK_EQ_INT(f, 6); CHECK_EQ_INT(m, 0x55); CHECK_EQ_INT(s, 7);
        /* Family 5 ignores both extended fields. */
        cpu_id_decode_leaf1(0x0ff00543, &f, &m, &s);
        CHECK_EQ_INT(f, 5); CHECK_EQ_INT(m, 4); CHECK_EQ_INT(s, 3);
        /* Family 17h, ext model 4, model 7: model 47h (Cyan Skillfish). */
        cpu_id_decode_leaf1(0x00840f70, &f, &m, &s);
        CHECK_EQ_INT(f, 0x17); CHECK_EQ_INT(m, 0x47); CHECK_EQ_INT(s, 0);
}

static void test_parse(void) {
        CpuId id;
        char *big;
        size_t n;

        id = parse(S(zen5_old));
        CHECK(strcmp(id.vendor, "AuthenticAMD") == 0, "vendor %s", id.vendor);
        CHECK(id.have_fms && id.family == 0x1a && id.model == 0x44 && id.stepping == 0, "fms");
        CHECK(id.have_microcode && id.microcode == 0xb404032, "microcode %x", id.microcode);

        id = parse(S(epyc_milan));
        CHECK(id.microcode == 0xa0011d5 && id.family == 25 && id.model == 1, "milan");

        /* Only the first processor's block counts. */
        id = parse(S(intel));
        CHECK(strcmp(id.vendor, "GenuineIntel") == 0 && id.model == 85, "intel");

        /* No microcode line (e.g. some VMs). */
        id = parse(S("vendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 68\nstepping\t: 0\n"));
        CHECK(id.have_fms && !id.have_microcode, "no microcode");

        /* Missing fields: no family/model/stepping at all. */
        id = parse(S("vendor_id\t: AuthenticAMD\ncpu family\t: 26\nmicrocode\t: 0x1\n"));
        CHECK(!id.have_fms && id.have_microcode, "missing model");

        /* Garbage numbers. */
        id = parse(S("vendor_id\t: AuthenticAMD\ncpu family\t: 2x6\nmodel\t: 68\nstepping\t: 0\nmicrocode\t: 0xzz\n"));
        CHECK(!id.have_fms && !id.have_microcode, "garbage");
        id = parse(S("cpu family\t: 99999999999\nmodel\t: 1\nstepping\t: 0\nmicrocode\t: 0x\n"));
        CHECK(!id.have_fms && !id.have_microcode, "overflow");
        id = parse(S("cpu family\t: \nmodel\t: 1\nstepping\t: 0\nmicrocode\t: 0x123456789\n"));
        CHECK(!id.have_fms && !id.have_microcode, "empty / 33 bits");

        /* Overlong vendor: not taken. */
        id = parse(S("vendor_id\t: AuthenticAMDAuthenticAMD\n"));
        CHECK(id.vendor[0] == '\0', "overlong vendor");

        /* NUL bytes inside a line. */
        id = parse(S("vendor_id\t: Auth\0nticAMD\ncpu family\t: 2\0006\nmodel\t: 1\nstepping\t: 0\n"));
        CHECK(id.vendor[0] == '\0' && !id.have_fms, "NUL");

        /* The model name: the first block's, printable ASCII only, cut to fit. */
        id = parse(S("model name\t: Intel(R) Xeon(R) Platinum 8480+  \nmodel name\t: other\n"));
        CHECK(strcmp(id.model_name, "Intel(R) Xeon(R) Platinum 8480+") == 0, "model name '%s'", id.model_name);
        id = parse(S("model name\t: A\033[8m\xff\tB\n"));
        CHECK(strcmp(id.model_name, "A?[8m??B") == 0, "model name '%s'", id.model_name);
        id = parse(S("model name\t: 0123456789012345678901234567890123456789012345678901234567890123456789\n"));
        CHECK_EQ_U64(strlen(id.model_name), CPU_MODEL_NAME_MAX - 1);
        id = parse(S(zen5_old)); /* the value's own colon stays */
        CHECK(strcmp(id.model_name, "Some CPU: with a colon") == 0, "model name '%s'", id.model_name);
        id = parse(S("vendor_id\t: AuthenticAMD\n"));
        CHECK(id.model_name[0] == '\0', "no model name line: '%s'", id.model_name);

        /* Nothing usable. */
        CHECK_EQ_INT(cpu_id_parse_cpuinfo(S("garbage\nmore garbage"), &id), -EBADMSG);
        CHECK_EQ_INT(cpu_id_parse_cpuinfo(S(""), &id), -EBADMSG);
        CHECK_EQ_INT(cpu_id_parse_cpuinfo(NULL, 0, &id), -EINVAL);

        /* len is honoured: the cut falls in the middle of the microcode number. */
        n = strstr(zen5_old, "0xb404032") - zen5_old + 5;
        id = parse(zen5_old, n);
        CHECK(id.have_microcode && id.microcode == 0xb40, "cut %x", id.microcode);

        /* An overlong line, exactly sized buffer (ASan catches over-reads). */
        n = 1u << 20;
        big = malloc(n);
        CHECK(big, "malloc");
        if (big) {
                memset(big, 'x', n);
                memcpy(big, "microcode\t: 0x", 14);
                CHECK_EQ_INT(cpu_id_parse_cpuinfo(big, n, &id), 0);
                CHECK(!id.have_microcode, "overlong line");
                memset(big, ':', n);
                (void) cpu_id_parse_cpuinfo(big, n, &id);
                free(big);
        }
}

static void test_read(void) {
        CpuId id;
        int r = cpu_id_read(NULL, &id);

        /* Whatever the machine: no crash, and on x86-64 CPUID fills the vendor. */
        CHECK(r == 0 || r < 0, "read");
        r = cpu_id_read("/nonexistent", &id);
        CHECK(r == 0 || r == -ENOENT, "nonexistent: %d", r);
}

static ErratumObservation obs(RngSourceId i, unsigned width, unsigned failed) {
        return (ErratumObservation) {
                .instruction = i, .width = width, .broken = failed != 0, .failed = failed,
                .kernel = { .state = KERNEL_STATE_ENABLED },
        };
}

static void test_match_fixtures(void) {
        CpuId z = parse(S(zen5_old)), zf = parse(S(zen5_fixed)), zu = parse(S(zen5_unlisted));
        CpuId m = parse(S(epyc_milan)), in = parse(S(intel)), f16 = parse(S(fam16h)),
              f15 = parse(S(fam15h)), cy = parse(S(cyan));
        ErratumObservation zero32 = obs(RNG_SOURCE_RDSEED, 32, HEALTH_ZERO_RATE),
                           zero64 = obs(RNG_SOURCE_RDSEED, 64, HEALTH_ZERO_RATE),
                           ok32 = obs(RNG_SOURCE_RDSEED, 32, 0),
                           ones = obs(RNG_SOURCE_RDRAND, 64, HEALTH_ONES_RATE | HEALTH_STUCK_ONES),
                           kern = obs(RNG_SOURCE_RDSEED, 0, 0);
        const Erratum *e;
        uint32_t fix;

        e = errata_match(&z, &zero32, 1);
        CHECK(e && strcmp(e->id, "amd-zen5-rdseed") == 0, "zen5 old microcode");
        CHECK(!errata_match(&z, &zero64, 1), "zen5 64-bit is not the erratum");
        CHECK(!errata_match(&z, &ok32, 1), "zen5 healthy");
        CHECK(!errata_match(&zf, &zero32, 1), "zen5 fixed microcode");
        e = errata_fixed_by_microcode(&zf, &fix);
        CHECK(e && strcmp(e->id, "amd-zen5-rdseed") == 0 && fix == 0xb404035, "fixed helper");
        CHECK(!errata_fixed_by_microcode(&z, NULL), "old microcode is not fixed");
        /* A Zen5 stepping the kernel's table does not list: no guess. */
        CHECK(!errata_match(&zu, &zero32, 1), "zen5 unlisted stepping");

        /* Kernel evidence: RDSEED disabled with the Zen5 message. */
        kern.kernel = (KernelSourceState) { .state = KERNEL_STATE_DISABLED, .reason_id = "zen5-rdseed32", .reason = "RDSEED32 is broken. Disabling the corresponding CPUID bit.", .reason_source = KERNEL_REASON_KERNEL_LOG };
        e = errata_match(&z, &kern, 1);
        CHECK(e && strcmp(e->id, "amd-zen5-rdseed") == 0, "zen5 kernel evidence");
        CHECK(!errata_match(&m, &kern, 1), "kernel evidence on a non-Zen5");
        kern.kernel.reason_id = "unknown";
        CHECK(!errata_match(&z, &kern, 1), "other kernel reason");

        /* Healthy EPYC Milan and Intel: nothing, whatever is observed. */
        CHECK(!errata_match(&m, &ok32, 1), "milan healthy");
        CHECK(!errata_match(&m, &zero32, 1), "milan zero-rate: unknown, no guess");
        CHECK(!errata_match(&in, &zero32, 1), "intel");
        CHECK(!errata_match(&in, &ones, 1), "intel ones");
        CHECK(!errata_fixed_by_microcode(&m, NULL), "milan fixed helper");

        e = errata_match(&f16, &ones, 1);
        CHECK(e && strcmp(e->id, "amd-fam16h-rdrand-resume") == 0, "fam16h");
        e = errata_match(&f15, &ones, 1);
        CHECK(e && strcmp(e->id, "amd-fam15h-rdrand-resume") == 0, "fam15h");
        CHECK(!errata_match(&f16, &zero32, 1), "fam16h rdseed zeros");

        e = errata_match(&cy, &zero64, 1);
        CHECK(e && strcmp(e->id, "amd-cyan-skillfish-rdseed") == 0, "cyan");
        CHECK(!errata_match(&cy, &ok32, 1), "cyan healthy");
        cy.stepping = 1;
        CHECK(!errata_match(&cy, &zero64, 1), "cyan other stepping");

        /* No identity at all. */
        CpuId none = {};
        CHECK(!errata_match(&none, &zero32, 1), "empty identity");
        CHECK(!errata_match(&z, NULL, 0), "no observations");
}

/* Every entry: symptom on its CPU matches, no symptom does not, fixed
 * microcode does not; the same CPU with another vendor never matches. */
static void test_every_entry(void) {
        for (size_t i = 0; i < errata_table_size; i++) {
                const Erratum *e = &errata_table[i];
                size_t n_cpus = e->n_fixes ? e->n_fixes : 1;

                CHECK(e->id && e->description && e->fix && e->sources && e->symptom && e->widths,
                      "%s incomplete", e->id);
                CHECK(errata_find(e->id) == e, "%s not unique", e->id);
                for (size_t k = 0; k < n_cpus; k++) {
                        CpuId cpu = { .have_fms = true, .family = e->family, .have_microcode = true };
                        unsigned width = 0, check = e->symptom & -e->symptom;
                        ErratumObservation o;

                        strcpy(cpu.vendor, e->vendor);
                        cpu.model = e->n_fixes ? e->fixes[k].model : e->model_min;
                        cpu.stepping = e->n_fixes ? e->fixes[k].stepping : (e->stepping >= 0 ? (unsigned) e->stepping : 0);
                        cpu.microcode = e->n_fixes ? e->fixes[k].microcode - 1 : 0x1;
                        for (unsigned w = 16; w <= 64; w *= 2)
                                if (ERRATUM_WIDTH_BIT(w) & e->widths) {
                                        width = w;
                                        break;
                                }

                        o = obs(e->instruction, width, check);
                        CHECK(errata_match(&cpu, &o, 1) == e, "%s: symptom on its CPU", e->id);
                        o = obs(e->instruction, width, 0);
                        CHECK(!errata_match(&cpu, &o, 1), "%s: no symptom", e->id);
                        o = obs(e->instruction == RNG_SOURCE_RDRAND ? RNG_SOURCE_RDSEED : RNG_SOURCE_RDRAND, width, check);
                        CHECK(!errata_match(&cpu, &o, 1), "%s: other instruction", e->id);
                        o = obs(e->instruction, width, check);
                        o.kernel = (KernelSourceState) { .state = KERNEL_STATE_DISABLED, .reason_id = e->kernel_reason_id, .reason = "x", .reason_source = KERNEL_REASON_KERNEL_LOG };
                        CHECK(errata_match(&cpu, &o, 1) == e, "%s: kernel evidence", e->id);
                        /* Hidden (CPUID bit cleared) for the same reason: evidence too. */
                        o.kernel.state = KERNEL_STATE_HIDDEN;
                        CHECK(errata_match(&cpu, &o, 1) == e, "%s: kernel evidence, hidden", e->id);
                        o.kernel.state = KERNEL_STATE_DISABLED;
                        if (e->n_fixes) {
                                o = obs(e->instruction, width, check);
                                cpu.microcode = e->fixes[k].microcode;
                                CHECK(!errata_match(&cpu, &o, 1), "%s: fixed microcode", e->id);
                                CHECK(errata_fixed_by_microcode(&cpu, NULL) == e, "%s: fixed helper", e->id);
                                cpu.microcode = e->fixes[k].microcode - 1;
                        }
                        strcpy(cpu.vendor, "GenuineIntel");
                        CHECK(!errata_match(&cpu, &o, 1), "%s: other vendor", e->id);
                        strcpy(cpu.vendor, e->vendor);
                        cpu.family = e->family + 0x10; /* +1 could be a neighbouring entry */
                        CHECK(!errata_match(&cpu, &o, 1), "%s: other family", e->id);
                }
        }
}

/* Where the kernel hides an instruction (Linux 6.12's CPU setup code): Zen5
 * RDSEED below the fix or at a patch level the kernel does not list,
 * Cyan Skillfish RDSEED, family 15h/16h RDRAND; nothing elsewhere. */
static void test_kernel_hides(void) {
        CpuId z = parse(S(zen5_old)), zf = parse(S(zen5_fixed)), zu = parse(S(zen5_unlisted));
        CpuId m = parse(S(epyc_milan)), in = parse(S(intel)), f16 = parse(S(fam16h)), cy = parse(S(cyan));
        CpuId vm = parse(S("vendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nstepping\t: 1\n"));
        ErratumKernel h;
        const Erratum *e;

        e = errata_kernel_hides(&z, RNG_SOURCE_RDSEED, &h);
        CHECK(e && strcmp(e->id, "amd-zen5-rdseed") == 0 && h == ERRATUM_KERNEL_HIDES, "zen5 old microcode");
        CHECK(!errata_kernel_hides(&zf, RNG_SOURCE_RDSEED, &h) && h == ERRATUM_KERNEL_NONE, "zen5 fixed microcode");
        /* check_rdseed_microcode() returns false for a patch level it does not list. */
        e = errata_kernel_hides(&zu, RNG_SOURCE_RDSEED, &h);
        CHECK(e && h == ERRATUM_KERNEL_HIDES, "zen5 unlisted stepping");
        /* A VM without a microcode line: hidden unless the (unknown) microcode is fixed. */
        e = errata_kernel_hides(&vm, RNG_SOURCE_RDSEED, &h);
        CHECK(e && h == ERRATUM_KERNEL_HIDES_UNLESS_FIXED, "zen5 without microcode");
        CHECK(!errata_kernel_hides(&z, RNG_SOURCE_RDRAND, NULL), "zen5 RDRAND");
        /* Family 1Ah models outside X86_FEATURE_ZEN5's ranges (Zen6, a gap). */
        vm.model = 0x50;
        CHECK(!errata_kernel_hides(&vm, RNG_SOURCE_RDSEED, NULL), "zen6");
        vm.model = 0x30;
        CHECK(!errata_kernel_hides(&vm, RNG_SOURCE_RDSEED, NULL), "family 1Ah model 30h");
        vm.model = 0xd3;
        CHECK(errata_kernel_hides(&vm, RNG_SOURCE_RDSEED, NULL), "family 1Ah model d3h");

        e = errata_kernel_hides(&cy, RNG_SOURCE_RDSEED, &h);
        CHECK(e && strcmp(e->id, "amd-cyan-skillfish-rdseed") == 0 && h == ERRATUM_KERNEL_HIDES, "cyan");
        cy.stepping = 1;
        CHECK(!errata_kernel_hides(&cy, RNG_SOURCE_RDSEED, NULL), "cyan other stepping");
        e = errata_kernel_hides(&f16, RNG_SOURCE_RDRAND, &h);
        CHECK(e && strcmp(e->id, "amd-fam16h-rdrand-resume") == 0 && h == ERRATUM_KERNEL_HIDES, "fam16h");
        CHECK(!errata_kernel_hides(&f16, RNG_SOURCE_RDSEED, NULL), "fam16h RDSEED");
        CHECK(!errata_kernel_hides(&m, RNG_SOURCE_RDSEED, NULL) && !errata_kernel_hides(&m, RNG_SOURCE_RDRAND, NULL), "milan");
        CHECK(!errata_kernel_hides(&in, RNG_SOURCE_RDSEED, NULL) && !errata_kernel_hides(&in, RNG_SOURCE_RDRAND, NULL), "intel");
        CHECK(!errata_kernel_hides(NULL, RNG_SOURCE_RDSEED, NULL), "no identity");
}

/* A probe report with RDSEED hidden (not in CPUID, it executes and fails
 * 95 % of tries), named against fixtures: the kernel's reason stands where
 * the log gave it; without it the errata table gives it for a CPU the kernel
 * hides it on; an unknown CPU gets no guess. */
static void test_hidden_reason(void) {
        CpuId z = parse(S(zen5_old)), cy = parse(S(cyan)), in = parse(S(intel));
        CpuId vm = parse(S("vendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nstepping\t: 1\n"));
        const KernelSourceState logged = { .state = KERNEL_STATE_HIDDEN, .reason_id = "zen5-rdseed32", .reason = "RDSEED32 is broken. Disabling the corresponding CPUID bit.", .reason_source = KERNEL_REASON_KERNEL_LOG };
        const KernelSourceState unknown = { .state = KERNEL_STATE_HIDDEN, .reason_id = "unknown", .reason = "not advertised by CPUID, yet it executes (kernel log not readable)", .reason_source = KERNEL_REASON_CPU };
        ProbeSourceResult *rd;
        static ProbeReport r;

        script_make_hidden_report(SCRIPT_RANDOM_FAIL, 0.95, 0, &r);
        rd = &r.instr[RNG_SOURCE_RDSEED];
        CHECK_EQ_INT(rd->verdict, VERDICT_HIDDEN);

        /* Zen5 with the kernel's line. */
        rd->kernel = logged;
        probe_report_name_errata(&r, &z);
        CHECK_EQ_INT(rd->kernel.reason_source, KERNEL_REASON_KERNEL_LOG);
        CHECK(strcmp(rd->kernel.reason, logged.reason) == 0, "logged reason kept");
        CHECK(rd->erratum && strcmp(rd->erratum->id, "amd-zen5-rdseed") == 0, "zen5 logged: erratum");

        /* Zen5 (a VM: no microcode line) without a readable log. */
        rd->kernel = unknown;
        probe_report_name_errata(&r, &vm);
        CHECK_EQ_INT(rd->kernel.state, KERNEL_STATE_HIDDEN);
        CHECK_EQ_INT(rd->kernel.reason_source, KERNEL_REASON_ERRATA);
        CHECK(strcmp(rd->kernel.reason_id, "zen5-rdseed32") == 0, "zen5: reason id %s", rd->kernel.reason_id);
        CHECK(strstr(rd->kernel.reason, "init_amd_zen5()") != NULL, "zen5: reason %s", rd->kernel.reason);
        CHECK(rd->erratum && strcmp(rd->erratum->id, "amd-zen5-rdseed") == 0, "zen5 unlogged: erratum");

        /* Cyan Skillfish without a readable log. */
        rd->kernel = unknown;
        probe_report_name_errata(&r, &cy);
        CHECK_EQ_INT(rd->kernel.reason_source, KERNEL_REASON_ERRATA);
        CHECK(strcmp(rd->kernel.reason_id, "amd-unreliable") == 0, "cyan: reason id %s", rd->kernel.reason_id);
        CHECK(rd->erratum && strcmp(rd->erratum->id, "amd-cyan-skillfish-rdseed") == 0, "cyan: erratum");

        /* An unknown CPU (this Intel fixture hides nothing): no guess. */
        rd->kernel = unknown;
        probe_report_name_errata(&r, &in);
        CHECK_EQ_INT(rd->kernel.reason_source, KERNEL_REASON_CPU);
        CHECK(strcmp(rd->kernel.reason_id, "unknown") == 0, "unknown CPU: reason id %s", rd->kernel.reason_id);
        CHECK(!rd->erratum && !rd->erratum_fixed, "unknown CPU: no erratum");

        /* No identity at all: nothing named, the reason as it was. */
        rd->kernel = unknown;
        probe_report_name_errata(&r, NULL);
        CHECK_EQ_INT(rd->kernel.reason_source, KERNEL_REASON_CPU);
}

/* The attribution as text, and the erratum status line. */
static void test_attribution(void) {
        CpuAttribution a;
        CpuId id;
        char buf[160];

        id = parse(S(zen5_old));
        cpu_attribution_from_id(&id, &a);
        CHECK(strcmp(a.vendor, "AuthenticAMD") == 0 && strcmp(a.family, "0x1a") == 0 && strcmp(a.model, "0x44") == 0 &&
              strcmp(a.stepping, "0x0") == 0 && strcmp(a.microcode, "0xb404032") == 0,
              "zen5: %s %s %s %s %s", a.vendor, a.family, a.model, a.stepping, a.microcode);
        cpu_attribution_from_id(NULL, &a);
        CHECK(!a.vendor[0] && !a.family[0] && !a.microcode[0], "NULL: not empty");
        id = parse(S("vendor_id\t: GenuineIntel\n"));
        cpu_attribution_from_id(&id, &a);
        CHECK(strcmp(a.vendor, "GenuineIntel") == 0 && !a.family[0] && !a.model[0] && !a.microcode[0], "partial");

        /* Zen5 family 1Ah model 44h stepping 0: fixed in 0xb404035 */
        id = parse(S(zen5_old));
        CHECK(strcmp(erratum_status_format(&id, RNG_SOURCE_RDSEED, buf, sizeof(buf)),
                     "amd-zen5-rdseed: fixed in microcode 0xb404035, running 0xb404032: not fixed") == 0, "%s", buf);
        id = parse(S(zen5_fixed));
        CHECK(strcmp(erratum_status_format(&id, RNG_SOURCE_RDSEED, buf, sizeof(buf)),
                     "amd-zen5-rdseed: fixed in microcode 0xb404035, running 0xb404035: fixed") == 0, "%s", buf);
        id.have_microcode = false; /* a VM */
        CHECK(strcmp(erratum_status_format(&id, RNG_SOURCE_RDSEED, buf, sizeof(buf)),
                     "amd-zen5-rdseed: fixed in microcode 0xb404035, running unknown") == 0, "%s", buf);
        CHECK(strcmp(erratum_status_format(&id, RNG_SOURCE_RDRAND, buf, sizeof(buf)), "none") == 0, "%s", buf);
        id = parse(S(cyan));
        CHECK(strcmp(erratum_status_format(&id, RNG_SOURCE_RDSEED, buf, sizeof(buf)),
                     "amd-cyan-skillfish-rdseed: no microcode fix, running 0x8407007") == 0, "%s", buf);
        id = parse(S(intel));
        CHECK(strcmp(erratum_status_format(&id, RNG_SOURCE_RDSEED, buf, sizeof(buf)), "none") == 0, "%s", buf);
        CHECK(strcmp(erratum_status_format(NULL, RNG_SOURCE_RDSEED, buf, sizeof(buf)), "unknown") == 0, "%s", buf);
        /* a short buffer is cut, NUL-terminated */
        id = parse(S(zen5_old));
        CHECK(strcmp(erratum_status_format(&id, RNG_SOURCE_RDSEED, buf, 9), "amd-zen5") == 0, "%s", buf);
}

int main(void) {
        test_kernel_hides();
        test_attribution();
        test_hidden_reason();
        test_decode_leaf1();
        test_parse();
        test_read();
        test_match_fixtures();
        test_every_entry();
        return test_result("test-errata");
}
