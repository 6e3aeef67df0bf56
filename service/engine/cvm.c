/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "cvm.h"
#include "fileio.h"
#include "kernel-state.h"
#include "macro.h"

static const char *const cvm_names[_CVM_MAX] = {
        [CVM_NONE] = "none",
        [CVM_TDX] = "tdx",
        [CVM_SEV] = "sev",
        [CVM_SEV_ES] = "sev-es",
        [CVM_SEV_SNP] = "sev-snp",
        [CVM_CCA] = "cca",
};

DEFINE_STRING_TABLE_TO_STRING(cvm, ConfidentialVm, cvm_names)

ConfidentialVm cvm_from_inputs(const CvmInputs *in) {
        bool guest;

        if (in->cpuid_tdx || in->tdx_guest_dev)
                return CVM_TDX;
        if (in->cca_realm_dev)
                return CVM_CCA;
        guest = in->cpuid_hypervisor || kernel_cpuinfo_has_flag(in->cpuinfo, in->cpuinfo_len, "hypervisor");
        if (in->sev_guest_dev || (guest && kernel_cpuinfo_has_flag(in->cpuinfo, in->cpuinfo_len, "sev_snp")))
                return CVM_SEV_SNP;
        if (guest && kernel_cpuinfo_has_flag(in->cpuinfo, in->cpuinfo_len, "sev_es"))
                return CVM_SEV_ES;
        if (guest && kernel_cpuinfo_has_flag(in->cpuinfo, in->cpuinfo_len, "sev"))
                return CVM_SEV;
        return CVM_NONE;
}

static void cpuid_probe(bool *ret_tdx, bool *ret_hypervisor) {
        *ret_tdx = *ret_hypervisor = false;
#if defined(__x86_64__)
        uint32_t a, b, c, d;
        char sig[13];

        if (__get_cpuid(1, &a, &b, &c, &d))
                *ret_hypervisor = c & (1u << 31);
        if (__get_cpuid_max(0, NULL) < 0x21)
                return;
        __cpuid_count(0x21, 0, a, b, c, d);
        memcpy(sig + 0, &b, 4);
        memcpy(sig + 4, &d, 4);
        memcpy(sig + 8, &c, 4);
        sig[12] = '\0';
        *ret_tdx = strcmp(sig, "IntelTDX    ") == 0;
#endif
}

static bool path_exists(const char *root, const char *path) {
        _cleanup_free_ char *p = path_join(root, path, NULL);

        return p && access(p, F_OK) == 0;
}

ConfidentialVm cvm_detect(const char *root) {
        _cleanup_free_ char *cpuinfo = NULL;
        CvmInputs in = {};

        if (!root || strcmp(root, "/") == 0)
                cpuid_probe(&in.cpuid_tdx, &in.cpuid_hypervisor);
        if (kernel_cpuinfo_read(root, &cpuinfo, &in.cpuinfo_len) >= 0)
                in.cpuinfo = cpuinfo;
        in.tdx_guest_dev = path_exists(root, "/sys/class/misc/tdx_guest");
        in.sev_guest_dev = path_exists(root, "/sys/class/misc/sev-guest");
        in.cca_realm_dev = path_exists(root, "/sys/bus/platform/devices/arm-cca-dev") ||
                           path_exists(root, "/sys/bus/platform/devices/arm-rsi-dev");
        return cvm_from_inputs(&in);
}
