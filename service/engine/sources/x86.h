/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The x86-64 draw code of the source table's RDRAND and RDSEED entries
 * (x86.c): CPUID detection and each instruction form. Built only where
 * RNG_ARCH_X86_64 (arch.h); the table names these for its x86-64 entries. */

#include <stdbool.h>

#include "rng-source.h"
#include "sources.h"

#if RNG_ARCH_X86_64
/* Whether CPUID advertises d: its leaf, subleaf, register and bit. */
bool rng_x86_cpuid_advertises(const RngSourceDesc *d);

/* The forms of each width ([rng_width_index()]), with their specialised
 * loops (probe-batch.h). */
extern const RngSource rng_x86_rdrand_forms[RNG_N_WIDTHS];
extern const RngSource rng_x86_rdseed_forms[RNG_N_WIDTHS];
#endif
