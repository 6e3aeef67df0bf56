/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The CPU's identity: vendor, family/model/stepping (CPUID leaf 0/1 with the
 * extended family/model rules) and the microcode revision (/proc/cpuinfo). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CPU_VENDOR_MAX 13 /* 12 characters of CPUID leaf 0 + NUL */

typedef struct CpuId {
        char vendor[CPU_VENDOR_MAX]; /* "AuthenticAMD", "GenuineIntel", "" if unknown */
        bool have_fms;               /* family/model/stepping are known */
        unsigned family, model, stepping; /* effective (extended rules applied) */
        bool have_microcode;
        uint32_t microcode;          /* "microcode : 0xa0011d5" */
} CpuId;

/* CPUID leaf 1 EAX → effective family/model/stepping: family = base + ext
 * when base == 0xf; model = (ext << 4) + base when base is 0x6 or 0xf. */
void cpu_id_decode_leaf1(uint32_t eax, unsigned *ret_family, unsigned *ret_model, unsigned *ret_stepping);

/* Parse /proc/cpuinfo text (any bytes, not NUL-terminated, never read past
 * len): the first processor's vendor_id, cpu family, model, stepping and
 * microcode lines. Fields absent or malformed stay unset (have_* false,
 * vendor ""). -EINVAL on NULL, -EBADMSG if none of the fields was found. */
int cpu_id_parse_cpuinfo(const char *text, size_t len, CpuId *ret);

/* Fill from CPUID (x86-64; vendor and family/model/stepping). -EOPNOTSUPP
 * when CPUID is not available in this build. */
int cpu_id_from_cpuid(CpuId *ret);

/* Read ROOT/proc/cpuinfo (kernel_cpuinfo_read()), then override vendor and
 * family/model/stepping with CPUID where available. Negative errno if the
 * file cannot be read and CPUID is not available. */
int cpu_id_read(const char *root, CpuId *ret);
