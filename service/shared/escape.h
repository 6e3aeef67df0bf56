/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The one rule for showing bytes that come from outside (a file, a file
 * name, the journal, the command line) to a person, in a log line or in
 * JSON. Kept as they are: printable ASCII other than the backslash, and
 * valid UTF-8 characters that are not controls. Escaped:
 *   - the backslash as "\\", and \a \b \t \n \v \f \r C-style;
 *   - every other byte below 0x20, and DEL (0x7f, ESC is 0x1b) as \xNN;
 *   - every byte of a C1 control (U+0080..U+009F, e.g. CSI U+009B), of a
 *     bidirectional-text control (U+061C, U+200E, U+200F, U+202A..U+202E,
 *     U+2066..U+2069: Trojan-Source reordering) and of a line or paragraph
 *     separator (U+2028, U+2029), as \xNN;
 *   - every byte that is not part of a valid UTF-8 sequence (a stray
 *     continuation byte, an overlong form, a surrogate, a code point above
 *     U+10FFFF, a sequence cut off) as \xNN.
 * The result is printable ASCII plus valid, printable UTF-8: it cannot move
 * the cursor, change colours, start a new log line or reorder text, and it
 * is a valid JSON string once JSON-quoted. Distinct inputs give distinct
 * outputs (a literal backslash is doubled). */

#include <stdbool.h>
#include <stddef.h>

/* The escaped form of n bytes at s (embedded NULs are escaped too), as a
 * malloc'ed string; NULL on out of memory. s may be NULL when n is 0. */
char *escape_mem(const char *s, size_t n);
/* The same for a NUL-terminated string; NULL s gives "". */
char *escape_str(const char *s);

/* Into buf (size > 0) as much of the escaped form as fits, never cutting
 * an escape or a character in two; always NUL-terminated. Returns buf.
 * For fixed-size fields (configuration errors, report). */
char *escape_to(char *buf, size_t size, const char *s, size_t n);

/* Whether the n bytes at s are already their own escaped form (nothing to
 * escape). */
bool escape_is_clean(const char *s, size_t n);
