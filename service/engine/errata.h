/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Documented RNG errata: one table keyed by source (beside the source
 * table: sources/x86-errata.c or sources/arm64-errata.c, the build's
 * architecture's), matched against the CPU's identity and
 * what the probe observed. An unknown CPU never matches. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu-id.h"
#include "kernel-state.h"
#include "sources.h"

#define ERRATUM_MAX_FIXES 12

/* A fixed microcode revision for one model/stepping. */
typedef struct ErratumFix {
        unsigned model, stepping;
        uint32_t microcode; /* first revision with the fix */
} ErratumFix;

/* An inclusive range of models. */
typedef struct ErratumModels {
        unsigned min, max;
} ErratumModels;

typedef struct Erratum {
        const char *id;          /* short, stable: RNG_ERRATUM= and the JSON name it */
        const char *vendor;      /* CPUID vendor string */
        unsigned family;
        unsigned model_min, model_max; /* inclusive */
        int stepping;            /* -1: any */
        RngSourceId instruction;
        unsigned widths;         /* bit mask: 16 → 1<<0, 32 → 1<<1, 64 → 1<<2 */
        unsigned symptom;        /* HealthCheck mask: any of these failed is the symptom */
        /* Failed tries are the symptom too: a run whose failure rate is at
         * least min_failure_rate (and above 0). */
        bool symptom_failures;
        double min_failure_rate;
        const char *kernel_reason_id; /* KernelReason id that is evidence too, or NULL */
        /* Where the kernel hides the instruction (clears its CPUID bit) because
         * of this erratum: its own model ranges (NULL: the entry's), and
         * whether the listed fixed microcode stops it (a model/stepping the
         * kernel does not list is hidden whatever its microcode). */
        const ErratumModels *kernel_models;
        size_t n_kernel_models;
        bool kernel_spares_fixed;
        const char *kernel_action; /* what the kernel does, one line; NULL: nothing */
        const ErratumFix *fixes; /* per model/stepping; NULL: no microcode fix */
        size_t n_fixes;
        bool fixes_only;         /* only the listed model/steppings are affected */
        const char *description; /* one line */
        const char *fix;         /* microcode / kernel / BIOS */
        const char *sources;     /* advisories, kernel commit subjects, files */
} Erratum;

#define ERRATUM_WIDTH_BIT(w) ((w) == 16 ? 1u : (w) == 32 ? 2u : (w) == 64 ? 4u : 0u)

/* One observed result of the probe. */
typedef struct ErratumObservation {
        RngSourceId instruction;
        unsigned width;         /* 16, 32, 64; 0: no run (only kernel evidence) */
        bool broken;            /* the verdict was broken */
        unsigned failed;        /* HealthCheck mask */
        double failure_rate;    /* failed tries / tries of the run */
        KernelSourceState kernel; /* the kernel's state for the instruction */
} ErratumObservation;

typedef enum ErratumMatch {
        ERRATUM_NOT_AFFECTED,  /* CPU not in the entry's range */
        ERRATUM_AFFECTED_FIXED, /* CPU in range, microcode has the fix */
        ERRATUM_AFFECTED,      /* CPU in range, microcode not fixed (or unknown / no fix) */
} ErratumMatch;

extern const Erratum errata_table[];
extern const size_t errata_table_size;

/* Whether the CPU is affected by e, taking the microcode into account.
 * *ret_fix: the fixed revision for this model/stepping (0 if none). */
ErratumMatch erratum_cpu_affected(const Erratum *e, const CpuId *cpu, uint32_t *ret_fix);

typedef enum ErratumKernel {
        ERRATUM_KERNEL_NONE,          /* the kernel does not hide the instruction on this CPU */
        ERRATUM_KERNEL_HIDES,         /* it does (microcode below the fix, unlisted, or no fix) */
        ERRATUM_KERNEL_HIDES_UNLESS_FIXED, /* it does unless the microcode, unknown here, has the fix */
} ErratumKernel;

/* Whether the kernel hides e's instruction on cpu (Linux 6.12: the CPU
 * setup code named in e->sources). */
ErratumKernel erratum_kernel_hides(const Erratum *e, const CpuId *cpu);
/* The first entry for instruction i that the kernel hides it for on cpu;
 * NULL (and *ret ERRATUM_KERNEL_NONE) if none. */
const Erratum *errata_kernel_hides(const CpuId *cpu, RngSourceId i, ErratumKernel *ret);

/* Whether the observations show e's symptom. */
bool erratum_symptom_present(const Erratum *e, const ErratumObservation *obs, size_t n_obs);

/* The first erratum whose CPU range holds cpu, whose microcode is below the
 * fix and whose symptom is observed; NULL otherwise. */
const Erratum *errata_match(const CpuId *cpu, const ErratumObservation *obs, size_t n_obs);

/* The first erratum the CPU is in range of but whose fix the microcode has
 * ("affected by X, microcode has the fix"); NULL otherwise. */
const Erratum *errata_fixed_by_microcode(const CpuId *cpu, uint32_t *ret_fix);

const Erratum *errata_find(const char *id);

/* Source i's erratum status on cpu, one line (RNG_ERRATUM_STATUS, the
 * metrics' erratum_status label, the fleet table): for the first erratum
 * of i whose CPU range holds cpu, whatever the probe observed,
 *   "ID: fixed in microcode X, running Y: fixed" (or ": not fixed"),
 *   "ID: fixed in microcode X, running unknown" (a VM hides the revision),
 *   "ID: no microcode fix, running Y" (or "running unknown");
 * "none" where no erratum of i covers this CPU, "unknown" for cpu NULL or
 * without family/model/stepping. Returns buf. */
const char *erratum_status_format(const CpuId *cpu, RngSourceId i, char *buf, size_t len);
