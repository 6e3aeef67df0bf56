/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The one screen of a configuration line, in front of inih: every line is
 * checked here, so that inih only ever sees what it parses completely.
 * Refused: a NUL byte or another control character (the value would be
 * cut or echoed), a line longer than inih's buffer (it would split it: the
 * tail would become a line of its own), an indented setting (inih would
 * take it as a continuation of the previous value), text after a section
 * header's "]" (inih would drop it), and in a setting a ';' or '#' (inih
 * cuts the value at " ;" as an inline comment: "Widths=64 ;32 16" would
 * probe 64 only) or a ':' before the '=' (inih takes ':' as '=':
 * "Instructions: all"), and a UTF-8 byte-order mark at the start of a
 * line (the file's own, at its very start, is dropped before: config.c;
 * inih would drop one more from the first line unchecked). Pure. */

#include <stddef.h>

/* line: len bytes without the newline; bufsize: inih's line buffer (the
 * line, its newline and the NUL). 0, or -EINVAL with why in msg (printable
 * ASCII; the caller adds file:line). */
int config_line_check(const char *line, size_t len, int bufsize, char *msg, size_t msglen);
