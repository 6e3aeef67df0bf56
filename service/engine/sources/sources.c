/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The table of entropy sources (sources.h), and the kernel's reasons for
 * disabling them. The kernel facts are Linux 6.12's (Debian's
 * linux-source-6.12) and the rng-health series'. */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "boot-seed.h"
#include "fileio.h"
#include "hwrng.h"
#include "kernel-state.h"
#include "macro.h"
#include "parse-util.h"
#include "sources.h"
#include "arm64.h"
#include "x86.h"

/* The verdicts of a CPU instruction: all but host-fed (the host does not
 * choose what the CPU's generator gives). */
#define CPU_VERDICTS                                                                                  \
        (1u << VERDICT_UNSUPPORTED | 1u << VERDICT_HIDDEN | 1u << VERDICT_OK | 1u << VERDICT_DEGRADED | \
         1u << VERDICT_EXHAUSTED | 1u << VERDICT_BROKEN)
#define CPU_ABSENT "not supported by this CPU"
#define HOST_FED_CONSEQUENCE "the kernel credited entropy the host chose"

#if RNG_SOURCES_X86_64
/* RDRAND_RETRY_LOOPS (arch/x86/include/asm/archrandom.h): every kernel. */
#define RDRAND_TRIES_WHY "every kernel retries RDRAND 10 times (RDRAND_RETRY_LOOPS)"
#define NORDRAND "nordrand"
#endif

#if RNG_SOURCES_ARM64
/* arch/arm64/include/asm/archrandom.h: arch_get_random_longs() and
 * arch_get_random_seed_longs() read the register once (__arm64_rndr(),
 * __arm64_rndrrs()) and return 0 on failure; the series changes no arm64
 * code. */
#define ARM64_SERIES_WHY " (the rng-health series changes no arm64 code)"
#define RNDR_TRIES_WHY "every kernel reads RNDR once: arch_get_random_longs() has no retry"
#define RNDRRS_TRIES_WHY "every kernel reads RNDRRS once: arch_get_random_seed_longs() has no retry"
#define TRUST_CPU "at boot what it gave is credited as entropy when random.trust_cpu is on (the default)"
/* The firmware's TRNG (SMCCC TRNG, drivers/firmware/smccc/smccc.c): where
 * smccc_trng_available, the kernel registers this platform device, and
 * arch_get_random_seed_longs() calls the firmware before RNDRRS. (The
 * hwrng driver arm_smccc_trng binds to the same device; its hwrng
 * "smccc_trng" is the HWRNG source's business.) */
static const char *const smccc_trng_paths[] = { "/sys/bus/platform/devices/smccc_trng", NULL };
#endif

const RngSourceDesc rng_source_table[] = {
#if RNG_SOURCES_X86_64
        [RNG_SOURCE_RDRAND] = {
                .name = "rdrand",
                .display_name = "RDRAND",
                .kind = RNG_KIND_CPU_INSTRUCTION,
                .architecture = RNG_ARCHITECTURE_X86_64,
                .widths = RNG_WIDTHS_ALL,
                .contention = true,
                .detect = {
                        .cpuid_leaf = 1, .cpuid_register = RNG_CPUID_ECX, .cpuid_bit = 30,
                        .cpuinfo_flag = "rdrand",
                        RNG_NOT_ADVERTISED("CPUID"),
                },
                .kernel = {
                        .credit = "random_init_early() and every reseed (extract_entropy()) use it where RDSEED "
                                  "fails; at boot what it gave is credited as entropy when random.trust_cpu is on "
                                  "(the default)",
                        .credit_param = "random.trust_cpu",
                        .tries_stock = 10, .tries_series = 10,
                        .tries_stock_why = RDRAND_TRIES_WHY,
                        .tries_series_why = RDRAND_TRIES_WHY,
                        .tries_assumed_why = RDRAND_TRIES_WHY,
                        .counters = "rdrand",
                        .cmdline_off = NORDRAND,
                        .cmdline_off_reason = NORDRAND " on the kernel command line",
                        .log_prefix = "x86/rng: ", .log_name = "RDRAND",
                        .msg_failed = "RDRAND failed",
                        /* arch/x86/coco/core.c cc_random_init() */
                        .msg_defective = "RDRAND is defective.",
                        .logs_exhaustion = RNG_KERNEL_LOGS_RATE_LIMITED,
                },
                /* A failed RDRAND is not routine: the kernel's RDRAND loop
                 * returns nothing, and a confidential guest's
                 * cc_random_init() panics at boot ("RDRAND is defective.");
                 * failures within the loop: warning. */
                .severity = {
                        [VERDICT_HIDDEN] = SEVERITY_NOTICE,
                        [VERDICT_DEGRADED] = SEVERITY_WARNING,
                        [VERDICT_EXHAUSTED] = SEVERITY_ERR,
                        [VERDICT_BROKEN] = SEVERITY_ERR,
                },
                .consequence = {
                        [VERDICT_HIDDEN] = "the kernel does not use it",
                        [VERDICT_DEGRADED] = "the kernel's loop still gets every value",
                        [VERDICT_EXHAUSTED] = "the kernel's RDRAND loop fails; a confidential VM's boot seeding "
                                              "would panic",
                        [VERDICT_BROKEN] = "its values pass for random: the kernel and programs use them",
                },
                .fail_on_cvm = 1u << VERDICT_EXHAUSTED | 1u << VERDICT_BROKEN,
                .verdicts = CPU_VERDICTS,
                .absent = CPU_ABSENT, .absent_severity = SEVERITY_NOTICE,
#if RNG_ARCH_X86_64
                .advertised = rng_x86_cpuid_advertises,
                .forms = rng_x86_rdrand_forms,
#endif
        },
        [RNG_SOURCE_RDSEED] = {
                .name = "rdseed",
                .display_name = "RDSEED",
                .kind = RNG_KIND_CPU_INSTRUCTION,
                .architecture = RNG_ARCHITECTURE_X86_64,
                .widths = RNG_WIDTHS_ALL,
                .contention = true,
                .detect = {
                        .cpuid_leaf = 7, .cpuid_subleaf = 0, .cpuid_register = RNG_CPUID_EBX, .cpuid_bit = 18,
                        .cpuinfo_flag = "rdseed",
                        RNG_NOT_ADVERTISED("CPUID"),
                },
                .kernel = {
                        .credit = "random_init_early() and every reseed (extract_entropy()) use it first; at boot "
                                  "what it gave is credited as entropy when random.trust_cpu is on (the default)",
                        .credit_param = "random.trust_cpu",
                        .tries_stock = 1, .tries_series = 10,
                        .tries_stock_why = "a stock kernel tries RDSEED once (no " KERNEL_RNG_SYSFS_DIR ")",
                        .tries_series_why = "this kernel retries RDSEED 10 times (" KERNEL_RNG_SYSFS_DIR
                                            " of the retry series exists)",
                        .tries_assumed_why = "kernel not read: a stock kernel, which tries RDSEED once, is assumed",
                        .counters = "rdseed",
                        .has_fallback = true, .fallback = RNG_SOURCE_RDRAND,
                        .log_prefix = "x86/rng: ", .log_name = "RDSEED",
                        .msg_failed = "RDSEED failed",
                        .logs_exhaustion = RNG_KERNEL_LOGS_ONCE_PER_BOOT,
                },
                /* A failed RDSEED is routine: extract_entropy() and
                 * random_init_early() fall back to RDRAND, then to the cycle
                 * counter. */
                .severity = {
                        [VERDICT_HIDDEN] = SEVERITY_NOTICE,
                        [VERDICT_DEGRADED] = SEVERITY_NOTICE,
                        [VERDICT_EXHAUSTED] = SEVERITY_NOTICE,
                        [VERDICT_BROKEN] = SEVERITY_ERR,
                },
                .consequence = {
                        [VERDICT_HIDDEN] = "the kernel does not use it",
                        [VERDICT_DEGRADED] = "the kernel's loop still gets every value",
                        [VERDICT_EXHAUSTED] = "the kernel seeds from RDRAND instead",
                        [VERDICT_BROKEN] = "its values pass for random: the kernel mixes them into its seed",
                },
                /* Not exhausted, which is routine: a healthy Intel Xeon
                 * fails 72 % of single RDSEED tries with nothing else
                 * running. */
                .fail_on_cvm = 1u << VERDICT_BROKEN,
                .verdicts = CPU_VERDICTS,
                .absent = CPU_ABSENT, .absent_severity = SEVERITY_NOTICE,
#if RNG_ARCH_X86_64
                .advertised = rng_x86_cpuid_advertises,
                .forms = rng_x86_rdseed_forms,
#endif
        },
#endif
#if RNG_SOURCES_ARM64
        [RNG_SOURCE_RNDR] = {
                .name = "rndr",
                .display_name = "RNDR",
                .kind = RNG_KIND_CPU_INSTRUCTION,
                .architecture = RNG_ARCHITECTURE_ARM64,
                .widths = 1u << 2, /* a 64-bit system register */
                .contention = true,
                .detect = {
                        .cpuinfo_flag = "rng",
                        RNG_NOT_ADVERTISED("HWCAP2_RNG"),
                },
                .kernel = {
                        .credit = "random_init_early() and every reseed (extract_entropy()) use it where the seed "
                                  "input (the SMCCC TRNG or RNDRRS) fails; " TRUST_CPU,
                        .credit_param = "random.trust_cpu",
                        .tries_stock = 1, .tries_series = 1,
                        .tries_stock_why = RNDR_TRIES_WHY,
                        .tries_series_why = RNDR_TRIES_WHY ARM64_SERIES_WHY,
                        .tries_assumed_why = RNDR_TRIES_WHY,
                        .logs_exhaustion = RNG_KERNEL_LOGS_NOTHING,
                },
                /* A failed RNDR is not routine: the kernel's one read
                 * gives its CRNG nothing from the CPU, and programs that
                 * read RNDR themselves without a retry fail (the TLS
                 * handshakes of aws-lc #3453). No panic: arm64 has no boot
                 * check like x86's cc_random_init(). */
                .severity = {
                        [VERDICT_HIDDEN] = SEVERITY_NOTICE,
                        [VERDICT_DEGRADED] = SEVERITY_WARNING,
                        [VERDICT_EXHAUSTED] = SEVERITY_ERR,
                        [VERDICT_BROKEN] = SEVERITY_ERR,
                },
                .consequence = {
                        [VERDICT_HIDDEN] = "the kernel does not use it",
                        [VERDICT_DEGRADED] = "the kernel's loop still gets every value",
                        [VERDICT_EXHAUSTED] = "the CRNG loses its arch input at once (the kernel reads RNDR once, "
                                              "no retry); user-space that calls RNDR itself fails (aws-lc before "
                                              "8d931575)",
                        [VERDICT_BROKEN] = "its values pass for random: the kernel and programs use them",
                },
                .fail_on_cvm = 1u << VERDICT_EXHAUSTED | 1u << VERDICT_BROKEN,
                .verdicts = CPU_VERDICTS,
                .absent = CPU_ABSENT, .absent_severity = SEVERITY_NOTICE,
#if RNG_ARCH_ARM64
                .advertised = rng_arm64_hwcap_advertises,
                .forms = rng_arm64_rndr_forms,
#endif
        },
        [RNG_SOURCE_RNDRRS] = {
                .name = "rndrrs",
                .display_name = "RNDRRS",
                .kind = RNG_KIND_CPU_INSTRUCTION,
                .architecture = RNG_ARCHITECTURE_ARM64,
                .widths = 1u << 2,
                .contention = true,
                .detect = {
                        .cpuinfo_flag = "rng",
                        RNG_NOT_ADVERTISED("HWCAP2_RNG"),
                },
                .kernel = {
                        .credit = "random_init_early() and every reseed (extract_entropy()) use it first where the "
                                  "kernel has no SMCCC TRNG (arch_get_random_seed_longs()); " TRUST_CPU,
                        .credit_param = "random.trust_cpu",
                        .tries_stock = 1, .tries_series = 1,
                        .tries_stock_why = RNDRRS_TRIES_WHY,
                        .tries_series_why = RNDRRS_TRIES_WHY ARM64_SERIES_WHY,
                        .tries_assumed_why = RNDRRS_TRIES_WHY,
                        .has_fallback = true, .fallback = RNG_SOURCE_RNDR,
                        .logs_exhaustion = RNG_KERNEL_LOGS_NOTHING,
                },
                /* A failed RNDRRS is routine: extract_entropy() and
                 * random_init_early() fall back to RNDR; and where the
                 * firmware has an SMCCC TRNG the kernel asks it first. */
                .severity = {
                        [VERDICT_HIDDEN] = SEVERITY_NOTICE,
                        [VERDICT_DEGRADED] = SEVERITY_NOTICE,
                        [VERDICT_EXHAUSTED] = SEVERITY_NOTICE,
                        [VERDICT_BROKEN] = SEVERITY_ERR,
                },
                .consequence = {
                        [VERDICT_HIDDEN] = "the kernel does not use it",
                        [VERDICT_DEGRADED] = "the kernel's loop still gets every value",
                        [VERDICT_EXHAUSTED] = "the kernel seeds from RNDR instead",
                        [VERDICT_BROKEN] = "its values pass for random: the kernel mixes them into its seed",
                },
                .alt = {
                        .paths = smccc_trng_paths,
                        .fact = "the kernel has the firmware's SMCCC TRNG",
                        .verdicts = 1u << VERDICT_DEGRADED | 1u << VERDICT_EXHAUSTED | 1u << VERDICT_BROKEN,
                        .severity = {
                                [VERDICT_DEGRADED] = SEVERITY_NOTICE,
                                [VERDICT_EXHAUSTED] = SEVERITY_NOTICE,
                                [VERDICT_BROKEN] = SEVERITY_ERR,
                        },
                        .consequence = {
                                [VERDICT_DEGRADED] = "the kernel seeds from the firmware's SMCCC TRNG, not from it",
                                [VERDICT_EXHAUSTED] = "the kernel seeds from the firmware's SMCCC TRNG; its RNDRRS "
                                                      "failures do not matter to it",
                                [VERDICT_BROKEN] = "its values pass for random: programs that read RNDRRS use "
                                                   "them (the kernel seeds from the SMCCC TRNG first)",
                        },
                },
                /* Not exhausted, which is routine (Qualcomm Oryon's RNDRRS
                 * never succeeds: arm64-errata.c). */
                .fail_on_cvm = 1u << VERDICT_BROKEN,
                .verdicts = CPU_VERDICTS,
                .absent = CPU_ABSENT, .absent_severity = SEVERITY_NOTICE,
#if RNG_ARCH_ARM64
                .advertised = rng_arm64_hwcap_advertises,
                .forms = rng_arm64_rndrrs_forms,
#endif
        },
#endif
        /* The hwrng core's current device (drivers/char/hw_random/core.c):
         * /dev/hwrng reads it, and its kernel thread feeds the input pool
         * from it. */
        [RNG_SOURCE_HWRNG] = {
                .name = "hwrng",
                .display_name = "HWRNG",
                .kind = RNG_KIND_HWRNG_DEVICE,
                .architecture = RNG_ARCHITECTURE_ANY,
                .detect = {
                        .device = "/dev/hwrng",
                        .sysfs = "/sys/class/misc/hw_random",
                },
                .kernel_view = rng_hwrng_kernel_view,
                .absent = "no device", .absent_severity = SEVERITY_INFO,
                .kernel = {
                        .credit = "the hwrng core's thread (hwrng_fillfn()) reads the current device and credits "
                                  "rng_quality/1024 of each bit (add_hwgenerator_randomness()) until the CRNG is "
                                  "ready; a driver's quality is capped by rng_core.default_quality (default "
                                  "1024: in full), and 0 in rng_quality stops it",
                        .credit_param = "rng_core.default_quality",
                        .host_fed_drivers = (const char *const[]) { "virtio_rng.", NULL },
                        .remedy = "rng_core.default_quality=0 on the kernel command line (or 0 in "
                                  "/sys/class/misc/hw_random/rng_quality), or a VM without the device",
                },
                /* Not read at all in the budget: the kernel's thread gets
                 * nothing either and credits nothing. Broken: values that
                 * pass for random, which the kernel mixes in and credits. */
                .severity = {
                        [VERDICT_HOST_FED] = SEVERITY_WARNING,
                        [VERDICT_DEGRADED] = SEVERITY_NOTICE,
                        [VERDICT_BROKEN] = SEVERITY_ERR,
                },
                .consequence = {
                        [VERDICT_HOST_FED] = HOST_FED_CONSEQUENCE,
                        [VERDICT_DEGRADED] = "the kernel's hwrng thread gets nothing either, and credits nothing",
                        [VERDICT_BROKEN] = "its values pass for random: the kernel mixes them in, and credits "
                                           "them while rng_quality is above 0",
                },
                .fail_on_cvm = 1u << VERDICT_BROKEN,
                .verdicts = 1u << VERDICT_UNSUPPORTED | 1u << VERDICT_OK | 1u << VERDICT_HOST_FED |
                            1u << VERDICT_DEGRADED | 1u << VERDICT_BROKEN,
                .forms = &rng_hwrng_form,
        },
        /* A seed the boot loader or the firmware hands over
         * (add_bootloader_randomness()): x86's setup_data, EFI's seed
         * table, Hyper-V's OEM0 table, a device tree's /chosen/rng-seed.
         * The kernel zeroes it after use: nothing to probe, only whether
         * it was there and credited. */
        [RNG_SOURCE_BOOT_SEED] = {
                .name = "boot-seed",
                .display_name = "BOOT_SEED",
                .kind = RNG_KIND_BOOT_SEED,
                .architecture = RNG_ARCHITECTURE_ANY,
                .detect = {
                        .sysfs = "/sys/kernel/boot_params/setup_data",
                        .setup_data_type = 9, /* SETUP_RNG_SEED */
                        .device_tree = "/sys/firmware/devicetree/base",
                },
                .kernel_view = rng_boot_seed_kernel_view,
                .absent = "none passed", .absent_severity = SEVERITY_INFO,
                .kernel = {
                        .credit = "add_bootloader_randomness() credits it in full when random.trust_bootloader "
                                  "is on (the default); x86's setup_data seed and a device tree's rng-seed are "
                                  "handed over in setup_arch(), before the kernel parses its parameters, so "
                                  "random.trust_bootloader=off does not stop those",
                        .credit_param = "random.trust_bootloader",
                        .remedy = "random.trust_bootloader=off on the kernel command line, and a VMM that "
                                  "passes no setup_data seed and no device tree rng-seed (QEMU's virt machine: "
                                  "dtb-randomness=off); the kernel credits those before it reads the parameter",
                },
                .severity = { [VERDICT_HOST_FED] = SEVERITY_WARNING },
                .consequence = { [VERDICT_HOST_FED] = HOST_FED_CONSEQUENCE },
                .verdicts = 1u << VERDICT_UNSUPPORTED | 1u << VERDICT_OK | 1u << VERDICT_HOST_FED,
        },
};

_Static_assert(ELEMENTSOF(rng_source_table) == _RNG_SOURCE_MAX, "one descriptor per source id");

/* The kernel's reasons for disabling a source, verbatim (Linux 6.12),
 * matched in this order (kernel_reason_match()). */
const KernelReason kernel_reason_table[] = {
#if RNG_SOURCES_X86_64
        { RNG_SOURCE_RDRAND, "self-test",
          "RDRAND is not reliable on this platform; disabling.",
          "arch/x86/kernel/cpu/rdrand.c boot self-test" },
        { RNG_SOURCE_RDSEED, "amd-unreliable",
          "RDSEED is not reliable on this platform; disabling.",
          "arch/x86/kernel/cpu/amd.c" },
        { RNG_SOURCE_RDSEED, "zen5-rdseed32",
          "RDSEED32 is broken. Disabling the corresponding CPUID bit.",
          "arch/x86/kernel/cpu/amd.c (Zen5 erratum)" },
        { RNG_SOURCE_RDRAND, "amd-suspend",
          "BIOS may not properly restore RDRAND after suspend, hiding RDRAND via CPUID. Use rdrand=force to reenable.",
          "arch/x86/kernel/cpu/amd.c (family 15h/16h)" },
#endif
};

const size_t kernel_reason_table_size = ELEMENTSOF(kernel_reason_table);

static const char *const kind_names[_RNG_SOURCE_KIND_MAX] = {
        [RNG_KIND_CPU_INSTRUCTION] = "cpu-instruction",
        [RNG_KIND_HWRNG_DEVICE] = "hwrng-device",
        [RNG_KIND_BOOT_SEED] = "boot-seed",
};

DEFINE_STRING_TABLE_TO_STRING(rng_source_kind, RngSourceKind, kind_names)

static const char *const architecture_names[_RNG_ARCHITECTURE_MAX] = {
        [RNG_ARCHITECTURE_ANY] = "any",
        [RNG_ARCHITECTURE_X86_64] = "x86-64",
        [RNG_ARCHITECTURE_ARM64] = "arm64",
};

DEFINE_STRING_TABLE_TO_STRING(rng_architecture, RngArchitecture, architecture_names)

static const char *const kernel_logs_names[_RNG_KERNEL_LOGS_MAX] = {
        [RNG_KERNEL_LOGS_NOTHING] = "nothing",
        [RNG_KERNEL_LOGS_ONCE_PER_BOOT] = "once per boot",
        [RNG_KERNEL_LOGS_RATE_LIMITED] = "rate-limited",
};

DEFINE_STRING_TABLE_TO_STRING(rng_kernel_logs, RngKernelLogs, kernel_logs_names)

const unsigned rng_widths[RNG_N_WIDTHS] = { 16, 32, 64 };

int rng_width_index(unsigned width) {
        for (int i = 0; i < RNG_N_WIDTHS; i++)
                if (rng_widths[i] == width)
                        return i;
        return -EINVAL;
}

int rng_width_from_string(const char *s) {
        uint64_t u;

        if (parse_u64(s, &u) < 0 || u > 64)
                return -EINVAL;
        return rng_width_index((unsigned) u);
}

const RngSourceDesc *rng_source_desc(RngSourceId id) {
        return (unsigned) id < _RNG_SOURCE_MAX ? &rng_source_table[id] : NULL;
}

const char *rng_source_name(RngSourceId id) {
        const RngSourceDesc *d = rng_source_desc(id);

        return d ? d->name : NULL;
}

const char *rng_source_display_name(RngSourceId id) {
        const RngSourceDesc *d = rng_source_desc(id);

        return d ? d->display_name : NULL;
}

int rng_source_from_name(const char *s) {
        if (!s)
                return -EINVAL;
        FOREACH_RNG_SOURCE(id)
                if (strcmp(s, rng_source_table[id].name) == 0)
                        return id;
        return -EINVAL;
}

char *rng_source_names_join(unsigned mask, bool display, const char *suffix, const char *sep, const char *last_sep,
                            char *buf, size_t len) {
        unsigned n = __builtin_popcount(mask & RNG_SOURCES_ALL), k = 0;
        size_t at = 0;

        if (len == 0)
                return buf;
        buf[0] = '\0';
        FOREACH_RNG_SOURCE(id) {
                const RngSourceDesc *d = &rng_source_table[id];
                int w;

                if (!(mask & (1u << id)))
                        continue;
                w = snprintf(buf + at, len - at, "%s%s%s", k == 0 ? "" : k + 1 == n ? last_sep : sep,
                             display ? d->display_name : d->name, suffix);
                k++;
                if (w < 0 || (size_t) w >= len - at)
                        break;
                at += (size_t) w;
        }
        return buf;
}

bool rng_source_advertised(RngSourceId id) {
        const RngSourceDesc *d = rng_source_desc(id);

        return d && d->advertised && d->advertised(d);
}

bool rng_arch_supported(void) {
        FOREACH_RNG_SOURCE(id)
                if (rng_source_table[id].kind == RNG_KIND_CPU_INSTRUCTION && rng_source_table[id].forms)
                        return true;
        return false;
}

bool rng_source_kernel_logged(RngSourceId id) {
        const RngSourceDesc *d = rng_source_desc(id);

        if (!d)
                return false;
        if (d->kernel.log_name || d->kernel.msg_failed || d->kernel.msg_defective || d->kernel.counters)
                return true;
        for (size_t k = 0; k < kernel_reason_table_size; k++)
                if (kernel_reason_table[k].instruction == id)
                        return true;
        return false;
}

unsigned rng_source_verdicts(RngSourceId id) {
        const RngSourceDesc *d = rng_source_desc(id);

        return d ? d->verdicts : 0;
}

/* Whether each source's alt fact held at the last read: the running
 * kernel's, one per process. */
static bool kernel_fact[_RNG_SOURCE_MAX];

void rng_source_kernel_facts_read(const char *root) {
        FOREACH_RNG_SOURCE(id) {
                const RngSourceDesc *d = &rng_source_table[id];
                bool holds = false;

                for (const char *const *p = d->alt.paths; p && *p && !holds; p++) {
                        _cleanup_free_ char *path = path_join(root, *p, NULL);

                        holds = path && access(path, F_OK) == 0;
                }
                kernel_fact[id] = holds;
        }
}

void rng_source_kernel_fact_set(RngSourceId id, bool holds) {
        if ((unsigned) id < _RNG_SOURCE_MAX)
                kernel_fact[id] = holds && rng_source_table[id].alt.paths;
}

bool rng_source_kernel_fact(RngSourceId id) {
        return (unsigned) id < _RNG_SOURCE_MAX && kernel_fact[id];
}

/* Whether verdict v on d weighs its alt's. */
static bool alt_applies(RngSourceId id, const RngSourceDesc *d, Verdict v) {
        return kernel_fact[id] && (d->alt.verdicts & (1u << v));
}

Severity verdict_severity(RngSourceId id, Verdict v) {
        const RngSourceDesc *d = rng_source_desc(id);

        if ((unsigned) v >= _VERDICT_MAX)
                return SEVERITY_INFO;
        /* A source beyond the table is nobody's routine. */
        if (!d)
                return SEVERITY_ERR;
        return alt_applies(id, d, v) ? d->alt.severity[v] : d->severity[v];
}

int verdict_priority(RngSourceId id, Verdict v) {
        return severity_priority(verdict_severity(id, v));
}

const char *verdict_consequence(RngSourceId id, Verdict v) {
        const RngSourceDesc *d = rng_source_desc(id);

        if (!d || (unsigned) v >= _VERDICT_MAX)
                return NULL;
        return alt_applies(id, d, v) ? d->alt.consequence[v] : d->consequence[v];
}
