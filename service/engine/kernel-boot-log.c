/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <string.h>

#include "kernel-boot-log.h"
#include "macro.h"

#define CMDLINE_PREFIX "Kernel command line: "
#define CRNG_READY KERNEL_BOOT_CRNG_READY_LINE
#define VM_FORK KERNEL_BOOT_VM_FORK_LINE
#define EFI_PREFIX "efi: "
#define EFI_SEED "RNG=0x"

static const char *const stage_names[_KERNEL_CRNG_STAGE_MAX] = {
        [KERNEL_CRNG_STAGE_UNKNOWN] = "unknown",
        [KERNEL_CRNG_STAGE_BOOT_SEED] = "boot-seed",
        [KERNEL_CRNG_STAGE_CPU] = "cpu",
        [KERNEL_CRNG_STAGE_LATER] = "later",
};

DEFINE_STRING_TABLE_TO_STRING(kernel_crng_stage, KernelCrngStage, stage_names)

const char *kernel_crng_stage_describe(KernelCrngStage s) {
        switch (s) {
        case KERNEL_CRNG_STAGE_BOOT_SEED:
                return "before the kernel command line: a boot loader's seed";
        case KERNEL_CRNG_STAGE_CPU:
                return "at random_init_early(), from the CPU's instructions with random.trust_cpu";
        case KERNEL_CRNG_STAGE_LATER:
                return "after early boot: interrupts, jitter, an hwrng device or user space";
        default:
                return "unknown";
        }
}

static bool starts_with(const char *msg, size_t len, const char *lit) {
        size_t n = strlen(lit);

        return len >= n && memcmp(msg, lit, n) == 0;
}

static bool equals(const char *msg, size_t len, const char *lit) {
        return len == strlen(lit) && memcmp(msg, lit, len) == 0;
}

/* "efi: ... RNG=0x...": the table as a word of the line, not "(RNG=0x...
 * unusable)". */
static bool efi_seed(const char *msg, size_t len) {
        const char *p = msg + strlen(EFI_PREFIX), *end = msg + len;

        if (!starts_with(msg, len, EFI_PREFIX))
                return false;
        while (p < end) {
                const char *m = memmem(p, end - p, EFI_SEED, strlen(EFI_SEED));

                if (!m)
                        return false;
                if (m == msg + strlen(EFI_PREFIX) || m[-1] == ' ')
                        return true;
                p = m + 1;
        }
        return false;
}

KernelBootLine kernel_boot_line_parse(const char *msg, size_t len) {
        if (!msg)
                return KERNEL_BOOT_LINE_NONE;
        while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == '\r'))
                len--;
        if (starts_with(msg, len, CMDLINE_PREFIX))
                return KERNEL_BOOT_LINE_CMDLINE;
        if (equals(msg, len, CRNG_READY))
                return KERNEL_BOOT_LINE_CRNG_READY;
        if (equals(msg, len, VM_FORK))
                return KERNEL_BOOT_LINE_VM_FORK;
        if (efi_seed(msg, len))
                return KERNEL_BOOT_LINE_EFI_SEED;
        return KERNEL_BOOT_LINE_NONE;
}

KernelBootLine kernel_boot_log_feed(KernelBootLog *b, const char *msg, size_t len, uint64_t usec) {
        KernelBootLine l = kernel_boot_line_parse(msg, len);

        b->read = true;
        switch (l) {
        case KERNEL_BOOT_LINE_CMDLINE:
                if (b->cmdline_seen)
                        break;
                b->cmdline_seen = true;
                b->since_cmdline = 0;
                /* Ready before the command line: setup_arch() credited a
                 * boot loader's seed. */
                if (b->crng_ready)
                        b->crng_stage = KERNEL_CRNG_STAGE_BOOT_SEED;
                return l;
        case KERNEL_BOOT_LINE_CRNG_READY:
                /* The first: the CRNG becomes ready once a boot. Before the
                 * command line's record the stage waits for it. */
                if (b->crng_ready)
                        break;
                b->crng_ready = true;
                b->crng_ready_usec = usec;
                if (b->cmdline_seen)
                        b->crng_stage = b->since_cmdline < KERNEL_BOOT_CPU_RECORDS ? KERNEL_CRNG_STAGE_CPU
                                                                                  : KERNEL_CRNG_STAGE_LATER;
                break;
        case KERNEL_BOOT_LINE_VM_FORK:
                if (b->vm_forks < UINT64_MAX)
                        b->vm_forks++;
                b->last_vm_fork_usec = usec;
                break;
        case KERNEL_BOOT_LINE_EFI_SEED:
                b->efi_seed = true;
                break;
        default:
                break;
        }
        if (b->cmdline_seen && b->since_cmdline <= KERNEL_BOOT_CPU_RECORDS)
                b->since_cmdline++;
        return l;
}

bool kernel_boot_log_settled(const KernelBootLog *b) {
        return b->crng_ready && b->cmdline_seen;
}

int kernel_kmsg_record_parse(const char *rec, size_t len, uint64_t *ret_usec, const char **ret_text,
                             size_t *ret_len) {
        const char *p, *end, *semi, *nl;
        unsigned field = 0;
        uint64_t usec = 0;
        bool digits = false;

        if (!rec || !ret_usec || !ret_text || !ret_len)
                return -EINVAL;
        end = rec + len;
        semi = memchr(rec, ';', len);
        if (!semi)
                return -EBADMSG;
        /* PRI,SEQ,USEC,FLAGS: the third field is the timestamp. */
        for (p = rec; p < semi; p++) {
                if (*p == ',') {
                        if (field == 2 && !digits)
                                return -EBADMSG;
                        field++;
                        continue;
                }
                if (field != 2)
                        continue;
                if (*p < '0' || *p > '9')
                        return -EBADMSG;
                if (usec > (UINT64_MAX - (uint64_t) (*p - '0')) / 10)
                        return -EBADMSG;
                usec = usec * 10 + (uint64_t) (*p - '0');
                digits = true;
        }
        if (field < 3 || !digits)
                return -EBADMSG;
        p = semi + 1;
        nl = memchr(p, '\n', end - p);
        *ret_usec = usec;
        *ret_text = p;
        *ret_len = (size_t) ((nl ?: end) - p);
        return 0;
}
