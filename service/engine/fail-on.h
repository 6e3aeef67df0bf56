/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* FailOn= (rng-health.conf(5)): per source, the verdicts that make the
 * daemon fail. Its words are a verdict (every source) or "NAME:VERDICT"
 * with a source's name from the table (sources.h). */

#include <stdbool.h>
#include <stddef.h>

#include "sources.h"
#include "verdict.h"

typedef struct FailOn {
        unsigned mask[_RNG_SOURCE_MAX]; /* of 1u << Verdict */
} FailOn;

/* The default on a confidential VM: each source's descriptor's
 * (fail_on_cvm), so that a routine failure (one the kernel falls back
 * from) fails nothing. */
FailOn fail_on_cvm_default(void);

/* One FailOn= word into *f: a verdict (every source) or "NAME:VERDICT".
 * -EDOM for NAME:VERDICT where the source can never have the verdict
 * (rng_source_verdicts(): a CPU instruction is never host-fed, a boot
 * seed never exhausted); -EINVAL
 * for anything else, "none" included: it is no entry but the empty list
 * (the parsers of the list, config and report, take it alone). */
int fail_on_add_word(FailOn *f, const char *word);
/* What fail_on_add_word() takes, in words for an error message: "a
 * verdict: ..., optionally after NAME: or NAME:", into buf (returned). */
const char *fail_on_words_expect(char *buf, size_t len);
bool fail_on_empty(const FailOn *f);
/* "broken NAME:exhausted" (a verdict every source shares is written
 * once, bare), "none" if empty. */
void fail_on_format(const FailOn *f, char *buf, size_t len);
/* Whether per-source verdicts v[] match f; *ret_verdict: the worst
 * matching verdict, *ret_instruction: its source. */
bool fail_on_match(const FailOn *f, const Verdict v[_RNG_SOURCE_MAX], Verdict *ret_verdict,
                   RngSourceId *ret_instruction);

/* The exit status of a program that judged the sources in `selected` (of
 * 1u << RngSourceId) with verdicts v[] (rng-health(8), EXIT STATUS):
 * verdict_exit_status() of the worst verdict that counts, 0 if none does.
 * What counts, with strict NULL: a verdict that weighs err
 * (verdict_severity(): what the running kernel cannot work around, as the
 * daemon and the alerts weigh it; exhausted on a source the kernel falls
 * back from, kernel.has_fallback, does not); with strict: a verdict it matches, as
 * FailOn= does for the daemon. */
int fail_on_exit_status(const FailOn *strict, const Verdict v[_RNG_SOURCE_MAX], unsigned selected);
