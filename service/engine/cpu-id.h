/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The CPU's identity: vendor, family/model/stepping (CPUID leaf 0/1 with the
 * extended family/model rules), the microcode revision and the model name
 * (/proc/cpuinfo); and the same as text for a fleet to compare machines by
 * (CpuAttribution). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CPU_VENDOR_MAX 13 /* 12 characters of CPUID leaf 0 + NUL */
#define CPU_MODEL_NAME_MAX 64

typedef struct CpuId {
        char vendor[CPU_VENDOR_MAX]; /* "AuthenticAMD", "GenuineIntel", "" if unknown */
        bool have_fms;               /* family/model/stepping are known */
        unsigned family, model, stepping; /* effective (extended rules applied) */
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
 *   arm64 (MIDR_EL1, to come): vendor the implementer ("0x41"), family the
 *           architecture field, model the part number ("0xd4f"), stepping
 *           the variant and revision ("r1p1"), microcode the firmware's
 *           revision where it reports one.
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
 * microcode and model name lines (the name cut at 63 bytes, every byte
 * outside printable ASCII replaced by '?'). Fields absent or malformed stay unset (have_* false,
 * vendor ""). -EINVAL on NULL, -EBADMSG if none of the fields was found. */
int cpu_id_parse_cpuinfo(const char *text, size_t len, CpuId *ret);

/* Fill from CPUID (x86-64; vendor and family/model/stepping). -EOPNOTSUPP
 * when CPUID is not available in this build. */
int cpu_id_from_cpuid(CpuId *ret);

/* Read ROOT/proc/cpuinfo (kernel_cpuinfo_read()), then override vendor and
 * family/model/stepping with CPUID where available. Negative errno if the
 * file cannot be read and CPUID is not available. */
int cpu_id_read(const char *root, CpuId *ret);
