/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Names the documented erratum (errata.h) that a probe's result matches on
 * this CPU. Pure: the CPU identity is read by the caller (cpu_id_read()). */

#include "cpu-id.h"
#include "errata.h"
#include "probe.h"

/* Sets r->cpu and, per probed instruction, in->erratum (the matching entry:
 * CPU in range, symptom observed in a run or in the kernel's reason,
 * microcode below the fix) and in->erratum_fixed (the CPU is affected but
 * its microcode has the fix: said, not blamed). An instruction hidden for a
 * reason the kernel log did not give gets the errata table's, where the
 * kernel hides it on this CPU model. cpu NULL: nothing named. */
void probe_report_name_errata(ProbeReport *r, const CpuId *cpu);
