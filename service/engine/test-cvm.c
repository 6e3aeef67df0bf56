/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Confidential-VM detection from its inputs, and from a fake root. */

#include <limits.h>
#include <string.h>

#include "cvm.h"
#include "kernel-state.h"
#include "test-util.h"

static ConfidentialVm from(const char *cpuinfo, bool tdx, bool hv, bool tdx_dev, bool sev_dev) {
        CvmInputs in = {
                .cpuid_tdx = tdx,
                .cpuid_hypervisor = hv,
                .cpuinfo = cpuinfo,
                .cpuinfo_len = cpuinfo ? strlen(cpuinfo) : 0,
                .tdx_guest_dev = tdx_dev,
                .sev_guest_dev = sev_dev,
        };
        return cvm_from_inputs(&in);
}

int main(void) {
        const char *host = "processor\t: 0\nflags\t\t: fpu sev sev_es sev_snp rdrand\n";
        const char *guest_snp = "processor\t: 0\nflags\t\t: fpu hypervisor sev sev_es sev_snp rdrand\n";
        const char *guest_es = "flags\t\t: fpu hypervisor sev sev_es\n";
        const char *guest_sev = "flags\t\t: fpu hypervisor sev\n";
        const char *guest = "flags\t\t: fpu hypervisor rdrand rdseed\nbugs\t\t: sev_snp\n";
        char root[] = "/tmp/test-cvm.XXXXXX", cmd[256];

        CHECK_EQ_INT(from(NULL, false, false, false, false), CVM_NONE);
        CHECK_EQ_INT(from(NULL, true, true, false, false), CVM_TDX);
        CHECK_EQ_INT(from(guest, false, true, true, false), CVM_TDX);
        /* a host with SEV support is not a confidential VM */
        CHECK_EQ_INT(from(host, false, false, false, false), CVM_NONE);
        CHECK_EQ_INT(from(guest_snp, false, false, false, false), CVM_SEV_SNP);
        CHECK_EQ_INT(from(guest_es, false, false, false, false), CVM_SEV_ES);
        CHECK_EQ_INT(from(guest_sev, false, false, false, false), CVM_SEV);
        CHECK_EQ_INT(from(host, false, true, false, false), CVM_SEV_SNP); /* hypervisor bit from CPUID */
        /* only the flags line counts */
        CHECK_EQ_INT(from(guest, false, false, false, false), CVM_NONE);
        CHECK_EQ_INT(from(guest, false, false, false, true), CVM_SEV_SNP);
        CHECK(!kernel_cpuinfo_has_flag("flags\t\t: sev_snp\n", 17, "sev"), "prefix matched a flag");
        CHECK(kernel_cpuinfo_has_flag("flags\t\t: a sev\n", 14, "sev"), "last flag");
        CHECK(!kernel_cpuinfo_has_flag("flag: sev\n", 10, "sev"), "not a flags line");
        CHECK(strcmp(cvm_to_string(CVM_SEV_ES), "sev-es") == 0, "names");

        /* A fake root: no CPUID, files only. */
        if (!mkdtemp(root))
                return EXIT_FAILURE;
        CHECK_EQ_INT(cvm_detect(root), CVM_NONE);
        snprintf(cmd, sizeof(cmd), "mkdir -p %s/proc %s/sys/class/misc/tdx_guest && printf '%%s' '%s' >%s/proc/cpuinfo",
                 root, root, guest_snp, root);
        CHECK(system(cmd) == 0, "%s", cmd);
        CHECK_EQ_INT(cvm_detect(root), CVM_TDX);
        snprintf(cmd, sizeof(cmd), "rmdir %s/sys/class/misc/tdx_guest", root);
        CHECK(system(cmd) == 0, "%s", cmd);
        CHECK_EQ_INT(cvm_detect(root), CVM_SEV_SNP);
        /* An Arm CCA realm: the platform device its kernel registers. */
        snprintf(cmd, sizeof(cmd), "rm %s/proc/cpuinfo && mkdir -p %s/sys/bus/platform/devices/arm-cca-dev", root, root);
        CHECK(system(cmd) == 0, "%s", cmd);
        CHECK_EQ_INT(cvm_detect(root), CVM_CCA);
        CHECK(strcmp(cvm_to_string(CVM_CCA), "cca") == 0, "cca's name");
        snprintf(cmd, sizeof(cmd), "mv %s/sys/bus/platform/devices/arm-cca-dev %s/sys/bus/platform/devices/arm-cca-de",
                 root, root);
        CHECK(system(cmd) == 0, "%s", cmd);
        CHECK_EQ_INT(cvm_detect(root), CVM_NONE);
        snprintf(cmd, sizeof(cmd), "mkdir %s/sys/bus/platform/devices/arm-rsi-dev", root);
        CHECK(system(cmd) == 0, "%s", cmd);
        CHECK_EQ_INT(cvm_detect(root), CVM_CCA);
        snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
        (void) system(cmd);
        /* this machine: whatever it is, a valid answer */
        CHECK(cvm_to_string(cvm_detect(NULL)) != NULL, "detect on this machine");
        printf("this machine: %s\n", cvm_to_string(cvm_detect(NULL)));
        return test_result("test-cvm");
}
