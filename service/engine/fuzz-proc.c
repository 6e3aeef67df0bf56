/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The /proc scanners on raw bytes (not NUL-terminated): /proc/cpuinfo as
 * the CPU identity (cpu_id_parse_cpuinfo), the kernel state's flags
 * (kernel_cpuinfo_*) and the confidential VM detection (cvm_from_inputs),
 * and /proc/cmdline (kernel_cmdline_has_word). The first byte sets the CVM
 * inputs' booleans; the rest is the text. Checked: the identity's fields
 * are NUL-terminated text of the input, or -EBADMSG; "has" is "count > 0"; an instruction is in the
 * flags exactly when every flags line has it; the CVM verdict follows the
 * rules of cvm.h; a command-line word is found exactly when a reference
 * tokenizer finds it before "--". The same text as the hwrng core's
 * rng_current and rng_available (sysfs, below a scratch root): the names
 * kept are terminated and escaped (escape-check.h). */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu-id.h"
#include "cvm.h"
#include "escape-check.h"
#include "fuzz-util.h"
#include "hwrng.h"
#include "kernel-state.h"

static bool ref_has_word(const char *s, size_t len, const char *word) {
        size_t i = 0, wl = strlen(word);

        while (i < len) {
                size_t start;

                while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\0'))
                        i++;
                start = i;
                while (i < len && !(s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\0'))
                        i++;
                if (i - start == 2 && memcmp(s + start, "--", 2) == 0)
                        return false;
                if (i > start && i - start == wl && memcmp(s + start, word, wl) == 0)
                        return true;
        }
        return false;
}

static void check_cmdline(const char *text, size_t len) {
        char word[64];
        size_t i = 0, n = 0;

        FUZZ_ASSERT(kernel_cmdline_has_word(text, len, "nordrand") == ref_has_word(text, len, "nordrand"));
        /* The first word of the text, looked up in it. */
        while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\0'))
                i++;
        while (i < len && n + 1 < sizeof(word) && !(text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\0'))
                word[n++] = text[i++];
        word[n] = '\0';
        if (n > 0)
                FUZZ_ASSERT(kernel_cmdline_has_word(text, len, word) == ref_has_word(text, len, word));
}

static void check_cpuinfo_flags(const char *text, size_t len) {
        static const char *const flags[] = { "rdrand", "rdseed", "rng", "hypervisor", "sev", "sev_es", "sev_snp" };
        bool instr[_RNG_SOURCE_MAX] = {};
        size_t lines = 0;
        int r;

        for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
                size_t l = 0;
                int n = kernel_cpuinfo_count_flag(text, len, flags[i], &l);

                FUZZ_ASSERT(n >= 0 && (size_t) n <= l);
                FUZZ_ASSERT(kernel_cpuinfo_has_flag(text, len, flags[i]) == (n > 0));
                lines = l; /* the same for every flag */
        }
        r = kernel_cpuinfo_parse(text, len, instr);
        if (lines == 0)
                FUZZ_ASSERT(r == -EBADMSG);
        else {
                FUZZ_ASSERT(r == 0);
                /* A source with a flag: on every CPU's line; one without
                 * (a device, a boot seed): never from /proc/cpuinfo. */
                FOREACH_RNG_SOURCE(i) {
                        const char *flag = rng_source_desc(i)->detect.cpuinfo_flag;
                        size_t l = 0;
                        int n = flag ? kernel_cpuinfo_count_flag(text, len, flag, &l) : 0;

                        FUZZ_ASSERT(n >= 0);
                        FUZZ_ASSERT(instr[i] == (flag && (size_t) n == lines));
                }
        }
}

static void check_cvm(uint8_t bits, const char *text, size_t len) {
        CvmInputs in = {
                .cpuid_tdx = bits & 1,
                .cpuid_hypervisor = bits & 2,
                .tdx_guest_dev = bits & 4,
                .sev_guest_dev = bits & 8,
                .cca_realm_dev = bits & 32,
                .cpuinfo = (bits & 16) ? NULL : text,
                .cpuinfo_len = (bits & 16) ? 0 : len,
        };
        ConfidentialVm c = cvm_from_inputs(&in);
        bool guest = in.cpuid_hypervisor || kernel_cpuinfo_has_flag(in.cpuinfo, in.cpuinfo_len, "hypervisor");

        FUZZ_ASSERT(c < _CVM_MAX && cvm_to_string(c));
        FUZZ_ASSERT((c == CVM_TDX) == (in.cpuid_tdx || in.tdx_guest_dev));
        FUZZ_ASSERT((c == CVM_CCA) == (c != CVM_TDX && in.cca_realm_dev));
        if (c != CVM_TDX && c != CVM_CCA && !guest)
                FUZZ_ASSERT(c == (in.sev_guest_dev ? CVM_SEV_SNP : CVM_NONE));
        if (c == CVM_SEV || c == CVM_SEV_ES)
                FUZZ_ASSERT(guest);
}

static void check_cpu_id(const char *text, size_t len) {
        CpuId id;
        int r;

        memset(&id, 0xa5, sizeof(id));
        r = cpu_id_parse_cpuinfo(text, len, &id);
        FUZZ_ASSERT(r == 0 || r == -EBADMSG);
        if (r < 0)
                return;
        FUZZ_ASSERT(strnlen(id.vendor, sizeof(id.vendor)) < sizeof(id.vendor));
        /* x86: vendor_id's text; arm64: the implementer as MIDR_EL1 has it,
         * "0x" and two lowercase hex digits, from a "CPU implementer" line. */
        if (id.vendor[0] && !memmem(text, len, id.vendor, strlen(id.vendor)))
                FUZZ_ASSERT(strlen(id.vendor) == 4 && id.vendor[0] == '0' && id.vendor[1] == 'x' &&
                            strchr("0123456789abcdef", id.vendor[2]) && strchr("0123456789abcdef", id.vendor[3]) &&
                            memmem(text, len, "CPU implementer", strlen("CPU implementer")));
        /* The model name: terminated, printable ASCII only (it reaches
         * journal fields, metrics labels and terminals). */
        FUZZ_ASSERT(strnlen(id.model_name, sizeof(id.model_name)) < sizeof(id.model_name));
        for (const char *c = id.model_name; *c; c++)
                FUZZ_ASSERT(*c >= 0x20 && *c < 0x7f);
}

static char hwrng_root[] = "/tmp/fuzz-proc-XXXXXX";

static void remove_hwrng_root(void) {
        char cmd[64];

        snprintf(cmd, sizeof(cmd), "rm -rf %s", hwrng_root);
        (void) system(cmd);
}

static void put(const char *name, const char *text, size_t len) {
        char p[128];
        int fd;

        snprintf(p, sizeof(p), "%s/sys/class/misc/hw_random/%s", hwrng_root, name);
        fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0 || write(fd, text, len) != (ssize_t) len)
                abort();
        close(fd);
}

/* Terminated, and escaped: no control byte, only valid printable UTF-8. */
static void check_escaped(const char *s, size_t size) {
        FUZZ_ASSERT(strnlen(s, size) < size);
        FUZZ_ASSERT(escape_check_output(s, strlen(s), false));
}

static void check_hwrng_sysfs(const char *text, size_t len) {
        static bool ready;
        KernelSourceState k;

        if (!ready) {
                char p[128];

                if (!mkdtemp(hwrng_root))
                        abort();
                snprintf(p, sizeof(p), "mkdir -p %s/sys/class/misc/hw_random", hwrng_root);
                if (system(p) != 0)
                        abort();
                atexit(remove_hwrng_root);
                put("rng_quality", "1024\n", 5);
                ready = true;
        }
        put("rng_current", text, len);
        put("rng_available", text, len);
        memset(&k, 0x5a, sizeof(k));
        rng_hwrng_kernel_view(rng_source_desc(RNG_SOURCE_HWRNG), &(KernelViewInput) { .root = hwrng_root }, &k);
        FUZZ_ASSERT(k.state == KERNEL_STATE_ENABLED || k.state == KERNEL_STATE_ABSENT ||
                    k.state == KERNEL_STATE_UNKNOWN);
        if (k.state != KERNEL_STATE_ENABLED)
                return;
        check_escaped(k.credit.device, sizeof(k.credit.device));
        check_escaped(k.credit.available, sizeof(k.credit.available));
        FUZZ_ASSERT(k.credit.device[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const char *text;
        uint8_t bits;

        if (size < 1)
                return 0;
        bits = data[0];
        text = (const char *) data + 1;
        size--;

        check_cpu_id(text, size);
        check_cpuinfo_flags(text, size);
        check_cvm(bits, text, size);
        check_cmdline(text, size);
        check_hwrng_sysfs(text, size);
        return 0;
}
