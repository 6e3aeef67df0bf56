/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The CPU's identity: vendor, family/model/stepping (x86-64: CPUID leaf 0/1
 * with the extended family/model rules; arm64: MIDR_EL1), the microcode
 * revision and the model name (/proc/cpuinfo); and the same as text for a
 * fleet to compare machines by (CpuAttribution). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CPU_VENDOR_MAX 13 /* 12 characters of CPUID leaf 0 + NUL */
#define CPU_MODEL_NAME_MAX 64

typedef struct CpuId {
        char vendor[CPU_VENDOR_MAX]; /* "AuthenticAMD", "GenuineIntel"; arm64: the implementer, "0x41"; "" if unknown */
        bool have_fms;               /* family/model/stepping are known */
        /* x86-64: effective (extended rules applied). arm64 (midr true):
         * MIDR_EL1's architecture field (0xf on every CPU that identifies
         * itself by the ID registers), part number, and variant << 4 |
         * revision. */
        unsigned family, model, stepping;
        bool midr;
        bool have_microcode;
        uint32_t microcode;          /* "microcode : 0xa0011d5" */
        char model_name[CPU_MODEL_NAME_MAX]; /* "model name : ...": printable ASCII, "" if unknown */
} CpuId;

/* The CPU's identity as the journal events (RNG_CPU_*) and the metrics
 * (rng_health_info's cpu_* labels) carry it, so that failures that cluster
 * by CPU model and microcode can be seen across a fleet: text, one struct
 * for every architecture, "" where unknown.
 *   x86-64: vendor  the CPUID vendor string ("GenuineIntel")
 *           family, model, stepping  the effective values, in hex ("0x6",
 *                   "0x8f", "0x8"), as the errata and the vendors' lists
 *                   name them
 *           microcode  /proc/cpuinfo's revision ("0x2b000620")
 *   arm64:  vendor the implementer ("0x41"), family the architecture
 *           field ("0xf"), model the part number ("0xd4f"), stepping the
 *           variant and revision ("r1p1") of MIDR_EL1; microcode "" (the
 *           kernel reports no firmware revision).
 * model_name is for people (the fleet table): /proc/cpuinfo's "model
 * name", never a key. */
typedef struct CpuAttribution {
        char vendor[CPU_VENDOR_MAX];
        char family[12], model[12], stepping[12];
        char microcode[20];
        char model_name[CPU_MODEL_NAME_MAX];
} CpuAttribution;

/* id NULL: every field "". */
void cpu_attribution_from_id(const CpuId *id, CpuAttribution *ret);

/* CPUID leaf 1 EAX → effective family/model/stepping: family = base + ext
 * when base == 0xf; model = (ext << 4) + base when base is 0x6 or 0xf. */
void cpu_id_decode_leaf1(uint32_t eax, unsigned *ret_family, unsigned *ret_model, unsigned *ret_stepping);

/* Parse /proc/cpuinfo text (any bytes, not NUL-terminated, never read past
 * len): the first processor's vendor_id, cpu family, model, stepping,
 * microcode and model name lines (x86), or its CPU implementer, CPU part,
 * CPU variant and CPU revision lines (arm64: midr set, family 0xf; its "CPU
 * architecture: 8" is a constant, not MIDR's field) (the name cut at 63 bytes, every byte
 * outside printable ASCII replaced by '?'). Fields absent or malformed stay unset (have_* false,
 * vendor ""). -EINVAL on NULL, -EBADMSG if none of the fields was found. */
int cpu_id_parse_cpuinfo(const char *text, size_t len, CpuId *ret);

/* Fill from the CPU's own identification: CPUID on x86-64 (vendor and
 * family/model/stepping); on arm64 MIDR_EL1, as the kernel gives cpu0's in
 * sysfs below root (midr set). -EOPNOTSUPP when this build has no way to
 * read it, -errno when the kernel does not give it. */
int cpu_id_from_hardware(const char *root, CpuId *ret);

/* MIDR_EL1's value → vendor, family/model/stepping (midr set). */
void cpu_id_from_midr(uint64_t midr, CpuId *ret);

/* Read ROOT/proc/cpuinfo (kernel_cpuinfo_read()), then override vendor and
 * family/model/stepping with CPUID where available (x86-64), or with
 * ROOT/sys/devices/system/cpu/cpu0/regs/identification/midr_el1 (arm64). Negative errno if the
 * file cannot be read and CPUID is not available. */
int cpu_id_read(const char *root, CpuId *ret);
