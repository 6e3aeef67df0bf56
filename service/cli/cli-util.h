/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* What every verb's command line needs: one-line usage errors that show
 * the arguments escaped (escape.h: the command line is outside input), and
 * output that fails loudly when it cannot be written. */

#include <stdio.h>

/* getopt_long()'s '?' (optstring starts with ':'), for prog ("rng-health
 * probe"): "-x: unknown option" for a short option (the character
 * escaped), "ARG: unknown option" for an unknown long one, and "ARG: the
 * option takes no value" for a long option without an argument that was
 * given one ("--json=1"; getopt sets optopt to its val then). shortopts
 * are the verb's short options. Returns -EINVAL. */
int cli_option_error(const char *prog, int argc, char *argv[], const char *shortopts);

/* "PROG: " + fmt + "\n" on stderr, fmt with up to two %s, each an outside
 * string shown escaped (NULL: ""). Returns -EINVAL. */
int cli_usage_error(const char *prog, const char *fmt, const char *a, const char *b);

/* Help text: text from column col on (what is before it on the line is
 * printed), its words wrapped into lines of at most width characters,
 * each further line indented to column indent, and a newline. */
void cli_print_wrapped(FILE *f, size_t col, size_t indent, size_t width, const char *text);

/* Flushes f (stdout); on a write error (--help > /dev/full) logs "failed
 * to write output" once and returns -errno. */
int cli_flush(FILE *f);

/* The exit status of `probe --sweep --svg FILE` and `report --fleet --svg
 * FILE` when the figure cannot be written there (sysexits.h's
 * EX_CANTCREAT): one meaning for both (tests/host/check-man). */
enum {
        EXIT_CANTCREAT = 73,
};
