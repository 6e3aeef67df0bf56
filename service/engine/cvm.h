/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Confidential VM detection, as far as an unprivileged process can see it
 * (compare `systemd-detect-virt --cvm`):
 *   Intel TDX: CPUID leaf 0x21 subleaf 0 spells "IntelTDX    " in
 *     EBX,EDX,ECX (what systemd checks), or the TDX guest driver's misc
 *     device /sys/class/misc/tdx_guest exists.
 *   AMD SEV:  systemd reads MSR 0xc0010131 through /dev/cpu/N/msr, which
 *     needs CAP_SYS_RAWIO; instead, in a guest (CPUID hypervisor bit or the
 *     "hypervisor" flag) the /proc/cpuinfo flags sev_snp, sev_es, sev, or
 *     the SNP guest driver's /sys/class/misc/sev-guest.
 * Limits: a kernel without the guest drivers and a hypervisor that hides
 * the sev flags from the guest give "none" on SEV/SEV-ES; a non-confidential
 * guest whose hypervisor passes the host's sev flags through is taken for a
 * SEV guest.
 *   Arm CCA: a realm's kernel (arch/arm64/kernel/rsi.c) registers a
 *     platform device for its attestation driver to bind to: arm-cca-dev
 *     (RSI_PDEV_NAME, with the driver's module autoloading), arm-rsi-dev
 *     in a 2025 proposal that renames it; either, below
 *     /sys/bus/platform/devices. Linux 6.12 has no realm guest code and
 *     shows nothing to tell one by: "none" there.
 * ConfidentialVM=yes|no in rng-health.conf overrides. */

#include <stdbool.h>
#include <stddef.h>

typedef enum ConfidentialVm {
        CVM_NONE,
        CVM_TDX,
        CVM_SEV,
        CVM_SEV_ES,
        CVM_SEV_SNP,
        CVM_CCA,
        _CVM_MAX,
} ConfidentialVm;

const char *cvm_to_string(ConfidentialVm c); /* "none", "tdx", "sev", "sev-es", "sev-snp", "cca" */

typedef struct CvmInputs {
        bool cpuid_tdx;        /* CPUID leaf 0x21 is "IntelTDX    " */
        bool cpuid_hypervisor; /* CPUID leaf 1 ECX bit 31 */
        const char *cpuinfo;   /* /proc/cpuinfo text, may be NULL */
        size_t cpuinfo_len;
        bool tdx_guest_dev;    /* /sys/class/misc/tdx_guest */
        bool sev_guest_dev;    /* /sys/class/misc/sev-guest */
        bool cca_realm_dev;    /* /sys/bus/platform/devices/arm-cca-dev or arm-rsi-dev */
} CvmInputs;

ConfidentialVm cvm_from_inputs(const CvmInputs *in);

/* Reads ROOT/proc/cpuinfo, ROOT/sys/class/misc/ and the realm's platform
 * device; CPUID only when root
 * is NULL or "/" (tests pass a temporary directory). Never fails: what
 * cannot be read counts as absent. */
ConfidentialVm cvm_detect(const char *root);
