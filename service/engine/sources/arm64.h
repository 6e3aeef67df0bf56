/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The arm64 draw code of the source table's RNDR and RNDRRS entries
 * (arm64.c): FEAT_RNG detection and each register's one form (64 bits).
 * Built only where RNG_ARCH_ARM64 (arch.h); the table names these for its
 * arm64 entries. */

#include <stdbool.h>

#include "rng-source.h"
#include "sources.h"

#if RNG_ARCH_ARM64
/* Whether the kernel advertises FEAT_RNG to user space: AT_HWCAP2's
 * HWCAP2_RNG (the kernel sets it only where every CPU has RNDR and RNDRRS,
 * and traps and emulates nothing: without it, an mrs of either register
 * raises SIGILL). */
bool rng_arm64_hwcap_advertises(const RngSourceDesc *d);

/* The forms of each width ([rng_width_index()]): only the 64-bit one is
 * set, with its specialised loop (probe-batch.h). */
extern const RngSource rng_arm64_rndr_forms[RNG_N_WIDTHS];
extern const RngSource rng_arm64_rndrrs_forms[RNG_N_WIDTHS];
#endif
