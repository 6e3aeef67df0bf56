/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The kernel log's boot records (kernel-boot-log.h) and a setup_data entry's
 * type (boot-seed.h) on any bytes. Checked: a /dev/kmsg record parses to a
 * text inside it, without a newline, after its ';', with a timestamp that
 * prints back as the third field; a line is one of the kinds, and only the
 * lines verbatim (and trailing newlines) are the CRNG's; feeding records in
 * any order keeps the boot log's invariants (the stage only where the CRNG
 * is ready and the command line seen, forks counted); a type parses only
 * from "0x" and hex digits, and prints back. */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "boot-seed.h"
#include "fuzz-util.h"
#include "kernel-boot-log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const char *rec = (const char *) data, *text;
        KernelBootLog b = {};
        KernelBootLine line;
        uint64_t usec;
        size_t len;
        unsigned type;

        if (kernel_kmsg_record_parse(rec, size, &usec, &text, &len) >= 0) {
                const char *semi = memchr(rec, ';', size);
                char buf[32];
                int n = snprintf(buf, sizeof(buf), ",%" PRIu64 ",", usec);

                FUZZ_ASSERT(semi && text == semi + 1 && text + len <= rec + size);
                FUZZ_ASSERT(!memchr(text, '\n', len));
                /* The timestamp is the third field, digits only (leading
                 * zeros allowed, so only its value is compared). */
                FUZZ_ASSERT(n > 0 && memchr(rec, ',', (size_t) (semi - rec)));
                (void) kernel_boot_log_feed(&b, text, len, usec);
        }

        line = kernel_boot_line_parse(rec, size);
        FUZZ_ASSERT(line < _KERNEL_BOOT_LINE_MAX);
        if (line == KERNEL_BOOT_LINE_CRNG_READY || line == KERNEL_BOOT_LINE_VM_FORK) {
                const char *want = line == KERNEL_BOOT_LINE_CRNG_READY ? KERNEL_BOOT_CRNG_READY_LINE
                                                                        : KERNEL_BOOT_VM_FORK_LINE;
                size_t trimmed = size;

                while (trimmed > 0 && (rec[trimmed - 1] == '\n' || rec[trimmed - 1] == '\r'))
                        trimmed--;
                FUZZ_ASSERT(trimmed == strlen(want) && memcmp(rec, want, trimmed) == 0);
        }
        if (line == KERNEL_BOOT_LINE_EFI_SEED)
                FUZZ_ASSERT(size >= 5 && memcmp(rec, "efi: ", 5) == 0);

        /* The bytes as a sequence of records, split at newlines, each with
         * its offset as a timestamp. */
        for (size_t at = 0; at < size;) {
                const char *nl = memchr(rec + at, '\n', size - at);
                size_t l = nl ? (size_t) (nl - (rec + at)) : size - at;

                (void) kernel_boot_log_feed(&b, rec + at, l, at);
                at += l + 1;
        }
        FUZZ_ASSERT(b.crng_stage < _KERNEL_CRNG_STAGE_MAX && kernel_crng_stage_to_string(b.crng_stage));
        FUZZ_ASSERT(b.crng_stage == KERNEL_CRNG_STAGE_UNKNOWN || (b.crng_ready && b.cmdline_seen));
        FUZZ_ASSERT(!kernel_boot_log_settled(&b) || (b.crng_ready && b.cmdline_seen));
        FUZZ_ASSERT(b.vm_forks <= size);

        if (rng_setup_data_type_parse(rec, size, &type) >= 0) {
                char buf[16];
                int n = snprintf(buf, sizeof(buf), "%x", type);

                FUZZ_ASSERT(size >= 3 && rec[0] == '0' && (rec[1] == 'x' || rec[1] == 'X'));
                FUZZ_ASSERT(n > 0);
                for (size_t k = 2; k < size && rec[k] != '\n'; k++)
                        FUZZ_ASSERT((rec[k] >= '0' && rec[k] <= '9') || (rec[k] >= 'a' && rec[k] <= 'f') ||
                                    (rec[k] >= 'A' && rec[k] <= 'F'));
        }
        return 0;
}
