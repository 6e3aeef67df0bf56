/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What this boot's kernel log says about the CRNG and what seeded it, from
 * its records in order (the CLI reads /dev/kmsg, the daemon the journal's
 * kernel transport). One pure parser of the lines, verbatim from Linux
 * 6.12:
 *
 *   "Kernel command line: ..."  start_kernel() prints it just before
 *                               random_init_early(), which credits the
 *                               CPU's instructions (random.trust_cpu)
 *   "random: crng init done"    _credit_init_bits(): the CRNG is ready
 *   "random: crng reseeded due to virtual machine fork"
 *                               add_vmfork_randomness(): vmgenid says this
 *                               is a clone (or a restored snapshot)
 *   "efi: ... RNG=0x..."        efi_config_parse_tables(): the firmware or
 *                               the EFI stub left a LINUX_EFI_RANDOM_SEED
 *                               table, which efi_config_parse_tables()
 *                               hands to add_bootloader_randomness()
 *
 * Where "crng init done" falls says what made the CRNG ready, as far as the
 * log can tell (a kernel does not say which inputs it had credited): before
 * the command line, setup_arch() credited a boot loader's seed (x86
 * setup_data, EFI); within the few records after it, random_init_early()
 * credited the CPU; later, anything else (interrupt timing, the jitter
 * entropy, an hwrng device, user space). Values are never in these lines. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The CRNG's lines verbatim (a journal can match them exactly). */
#define KERNEL_BOOT_CRNG_READY_LINE "random: crng init done"
#define KERNEL_BOOT_VM_FORK_LINE "random: crng reseeded due to virtual machine fork"

typedef enum KernelBootLine {
        KERNEL_BOOT_LINE_NONE,
        KERNEL_BOOT_LINE_CMDLINE,
        KERNEL_BOOT_LINE_CRNG_READY,
        KERNEL_BOOT_LINE_VM_FORK,
        KERNEL_BOOT_LINE_EFI_SEED,
        _KERNEL_BOOT_LINE_MAX,
} KernelBootLine;

/* One record's text (any bytes, not NUL-terminated, trailing newlines
 * ignored): which of the lines above it is, or NONE. NULL: NONE. */
KernelBootLine kernel_boot_line_parse(const char *msg, size_t len);

typedef enum KernelCrngStage {
        KERNEL_CRNG_STAGE_UNKNOWN,   /* not ready, or no command line record before it */
        KERNEL_CRNG_STAGE_BOOT_SEED, /* before the command line: a boot loader's seed */
        KERNEL_CRNG_STAGE_CPU,       /* right after it: random_init_early(), the CPU */
        KERNEL_CRNG_STAGE_LATER,     /* later: interrupts, jitter, an hwrng device, user space */
        _KERNEL_CRNG_STAGE_MAX,
} KernelCrngStage;

const char *kernel_crng_stage_to_string(KernelCrngStage s); /* "boot-seed", "cpu", "later", "unknown" */
/* What it says in a sentence: "a boot loader's seed (before the kernel
 * command line)", ... */
const char *kernel_crng_stage_describe(KernelCrngStage s);

/* Records after the command line's within which "crng init done" is
 * random_init_early()'s (print_unknown_bootoptions() may print one line
 * between them). */
#define KERNEL_BOOT_CPU_RECORDS 3

typedef struct KernelBootLog {
        bool read;              /* a log was read (kernel_boot_log_feed() called) */
        bool cmdline_seen;
        unsigned since_cmdline; /* records after the command line's, up to KERNEL_BOOT_CPU_RECORDS + 1 */
        bool crng_ready;
        uint64_t crng_ready_usec; /* the record's timestamp: microseconds since the kernel started */
        KernelCrngStage crng_stage;
        bool efi_seed;          /* an EFI seed table was there */
        uint64_t vm_forks;      /* "crng reseeded due to virtual machine fork" records */
        uint64_t last_vm_fork_usec;
} KernelBootLog;

/* One record, in the log's order, with its timestamp. Returns its line. */
KernelBootLine kernel_boot_log_feed(KernelBootLog *b, const char *msg, size_t len, uint64_t usec);

/* Whether a scan from the start of the boot may stop: the command line and
 * the CRNG's readiness are known (what comes later is a VM fork, which the
 * daemon's kernel watch follows). */
bool kernel_boot_log_settled(const KernelBootLog *b);

/* One /dev/kmsg record, "PRI,SEQ,USEC,FLAGS[,...];TEXT\n[ KEY=VALUE\n]...":
 * its timestamp and text (up to the first newline). -EBADMSG if it is not
 * one; never reads past len. */
int kernel_kmsg_record_parse(const char *rec, size_t len, uint64_t *ret_usec, const char **ret_text,
                             size_t *ret_len);
