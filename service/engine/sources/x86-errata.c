/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The documented errata of the x86-64 sources, keyed by source (errata.h):
 * the table errata.c matches the CPU and the probe's results against. It
 * is the table of every build but arm64's (arm64-errata.c): empty off
 * x86-64. */

#include "arch.h"
#include "errata.h"
#include "health.h"
#include "macro.h"

#if RNG_SOURCES_X86_64
/* Linux 6.12 (Debian linux-source-6.12), arch/x86/kernel/cpu/amd.c,
 * check_rdseed_microcode(): p.ucode_rev >> 8 is ext_fam:8 ext_model:4 0:4
 * model:4 stepping:4, so 0xb0021 is family 1Ah model 02h stepping 1. */
static const ErratumFix zen5_rdseed_fixes[] = {
        { 0x02, 0x1, 0xb00215a }, /* case 0xb0021 */
        { 0x08, 0x1, 0xb008121 }, /* case 0xb0081 */
        { 0x11, 0x0, 0xb101054 }, /* case 0xb1010 */
        { 0x24, 0x0, 0xb204037 }, /* case 0xb2040 */
        { 0x44, 0x0, 0xb404035 }, /* case 0xb4040 */
        { 0x44, 0x1, 0xb404108 }, /* case 0xb4041 */
        { 0x60, 0x0, 0xb600037 }, /* case 0xb6000 */
        { 0x68, 0x0, 0xb608038 }, /* case 0xb6080 */
        { 0x70, 0x0, 0xb700037 }, /* case 0xb7000 */
};

/* Linux 6.12 bsp_init_amd(): the models that get X86_FEATURE_ZEN5, on which
 * init_amd_zen5() clears RDSEED unless check_rdseed_microcode() finds the
 * patch level in its table with at least the fixed revision (an unlisted
 * patch level returns false: hidden). */
static const ErratumModels zen5_models[] = {
        { 0x00, 0x2f },
        { 0x40, 0x4f },
        { 0x60, 0x7f },
        { 0xd0, 0xd7 },
};

#endif

#if !RNG_SOURCES_ARM64
const Erratum errata_table[] = {
#if RNG_SOURCES_X86_64
        {
                .id = "amd-zen5-rdseed",
                .vendor = "AuthenticAMD",
                .family = 0x1a, .model_min = 0x00, .model_max = 0x7f, .stepping = -1,
                .instruction = RNG_SOURCE_RDSEED,
                .widths = 1u << 0 | 1u << 1, /* RDSEED16, RDSEED32 */
                .symptom = HEALTH_ZERO_RATE | HEALTH_STUCK_ZERO,
                .kernel_reason_id = "zen5-rdseed32",
                .kernel_models = zen5_models, .n_kernel_models = ELEMENTSOF(zen5_models),
                .kernel_spares_fixed = true,
                .kernel_action = "Linux 6.12.58 and later hide RDSEED on Zen5 (init_amd_zen5(): CPUID bit cleared) "
                                 "unless the microcode has the fix",
                .fixes = zen5_rdseed_fixes, .n_fixes = ELEMENTSOF(zen5_rdseed_fixes),
                .fixes_only = true,
                .description = "AMD Zen5 RDSEED 16- and 32-bit forms return 0 with CF=1 (success)",
                .fix = "microcode update (AGESA); Linux disables RDSEED below the fixed revision",
                .sources = "AMD-SB-7055; Linux 6.12 arch/x86/kernel/cpu/amd.c check_rdseed_microcode() / "
                           "init_amd_zen5(): \"RDSEED32 is broken. Disabling the corresponding CPUID bit.\" "
                           "(commits \"x86/CPU/AMD: Add RDSEED fix for Zen5\", "
                           "\"x86/CPU/AMD: Add additional fixed RDSEED microcode revisions\", Debian changelog)",
        },
        {
                .id = "amd-cyan-skillfish-rdseed",
                .vendor = "AuthenticAMD",
                .family = 0x17, .model_min = 0x47, .model_max = 0x47, .stepping = 0,
                .instruction = RNG_SOURCE_RDSEED,
                .widths = 1u << 0 | 1u << 1 | 1u << 2,
                .symptom = _HEALTH_CHECK_ALL & ~HEALTH_EMPTY,
                .kernel_reason_id = "amd-unreliable",
                .kernel_action = "Linux hides RDSEED on Cyan Skillfish (init_amd_zen2(): CPUID bit cleared)",
                .description = "AMD Cyan Skillfish (family 17h model 47h stepping 0) RDSEED is unreliable",
                .fix = "kernel: Linux clears the RDSEED CPUID bit (no microcode fix documented)",
                .sources = "Linux 6.12 arch/x86/kernel/cpu/amd.c init_amd_zen2(): \"Disable RDSEED on AMD "
                           "Cyan Skillfish because of an error.\", \"RDSEED is not reliable on this platform; "
                           "disabling.\" (commit \"x86/rdrand: Disable RDSEED on AMD Cyan Skillfish\", Debian changelog)",
        },
        {
                .id = "amd-fam15h-rdrand-resume",
                .vendor = "AuthenticAMD",
                .family = 0x15, .model_min = 0x00, .model_max = 0xff, .stepping = -1,
                .instruction = RNG_SOURCE_RDRAND,
                .widths = 1u << 0 | 1u << 1 | 1u << 2,
                .symptom = HEALTH_ONES_RATE | HEALTH_STUCK_ONES,
                .kernel_reason_id = "amd-suspend",
                .kernel_action = "Linux (with suspend support) hides RDRAND on family 15h unless booted with rdrand=force "
                                 "(clear_rdrand_cpuid_bit())",
                .description = "AMD family 15h RDRAND returns all ones (CF=1) after suspend/resume with some BIOSes",
                .fix = "BIOS update; Linux hides RDRAND via CPUID (rdrand=force re-enables)",
                .sources = "Linux 6.12 arch/x86/kernel/cpu/amd.c init_amd_bd() -> clear_rdrand_cpuid_bit(): "
                           "\"BIOS may not properly restore RDRAND after suspend, hiding RDRAND via CPUID. "
                           "Use rdrand=force to reenable.\" (commit \"x86/CPU/AMD: Clear RDRAND CPUID bit on "
                           "AMD family 15h/16h\", upstream v5.3, subject from memory: not in the tree's changelog)",
        },
        {
                .id = "amd-fam16h-rdrand-resume",
                .vendor = "AuthenticAMD",
                .family = 0x16, .model_min = 0x00, .model_max = 0xff, .stepping = -1,
                .instruction = RNG_SOURCE_RDRAND,
                .widths = 1u << 0 | 1u << 1 | 1u << 2,
                .symptom = HEALTH_ONES_RATE | HEALTH_STUCK_ONES,
                .kernel_reason_id = "amd-suspend",
                .kernel_action = "Linux (with suspend support) hides RDRAND on family 16h unless booted with rdrand=force "
                                 "(clear_rdrand_cpuid_bit())",
                .description = "AMD family 16h RDRAND returns all ones (CF=1) after suspend/resume with some BIOSes",
                .fix = "BIOS update; Linux hides RDRAND via CPUID (rdrand=force re-enables)",
                .sources = "Linux 6.12 arch/x86/kernel/cpu/amd.c init_amd_jg() -> clear_rdrand_cpuid_bit() "
                           "(commit \"x86/CPU/AMD: Clear RDRAND CPUID bit on AMD family 15h/16h\", upstream v5.3)",
        },
#endif
};

const size_t errata_table_size = ELEMENTSOF(errata_table);
#endif
