/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The boot loader's seed (sources.c's RNG_SOURCE_BOOT_SEED): whether one
 * was handed over this boot, by which way, and whether the kernel credited
 * it. The kernel zeroes the seed once it has mixed it in; what is left:
 *   x86 setup_data  an entry of type SETUP_RNG_SEED (9) under
 *                   /sys/kernel/boot_params/setup_data/N/type ("0x9"; its
 *                   length is zeroed), credited in setup_arch() before the
 *                   kernel parses its parameters: whatever
 *                   random.trust_bootloader says
 *   EFI             the table in the kernel log's "efi: ... RNG=0x..." line,
 *                   credited when random.trust_bootloader is on
 *   Hyper-V         its ACPI table OEM0 (/sys/firmware/acpi/tables/OEM0),
 *                   credited when random.trust_bootloader is on
 * and, from the log, "crng init done" before the kernel command line: a
 * seed made the CRNG ready. In a VM each is the host's (the VMM writes
 * setup_data and the ACPI tables, the firmware it loads makes the EFI
 * table). */

#include "kernel-state.h"
#include "sources.h"

void rng_boot_seed_kernel_view(const RngSourceDesc *d, const KernelViewInput *in, KernelSourceState *ret);

/* "0x9\n" and the like, a setup_data entry's type file: its value, or
 * -EBADMSG. */
int rng_setup_data_type_parse(const char *text, size_t len, unsigned *ret);
