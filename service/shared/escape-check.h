/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* For tests and fuzz targets only: whether text is safe to show, checked
 * independently of escape.c (its own decoder, from the well-formed byte
 * sequences of RFC 3629 / Unicode table 3-7): valid UTF-8, no C0 control
 * (not even a newline or tab), no DEL, no C1 control, no bidirectional
 * control, no line or paragraph separator. With allow_newline, '\n' is
 * allowed (a multi-line text such as report's output). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline bool escape_check_output(const char *text, size_t n, bool allow_newline) {
        const unsigned char *s = (const unsigned char *) text;

        for (size_t i = 0; i < n;) {
                unsigned char c = s[i];
                unsigned char lo = 0x80, hi = 0xbf;
                size_t len;
                uint32_t cp;

                if (c < 0x80) {
                        if ((c < 0x20 && !(allow_newline && c == '\n')) || c == 0x7f)
                                return false;
                        i++;
                        continue;
                }
                /* lead byte: length and the range of the second byte */
                if (c >= 0xc2 && c <= 0xdf)
                        len = 2;
                else if (c == 0xe0)
                        len = 3, lo = 0xa0;
                else if ((c >= 0xe1 && c <= 0xec) || c == 0xee || c == 0xef)
                        len = 3;
                else if (c == 0xed)
                        len = 3, hi = 0x9f;
                else if (c == 0xf0)
                        len = 4, lo = 0x90;
                else if (c >= 0xf1 && c <= 0xf3)
                        len = 4;
                else if (c == 0xf4)
                        len = 4, hi = 0x8f;
                else
                        return false;
                if (n - i < len || s[i + 1] < lo || s[i + 1] > hi)
                        return false;
                for (size_t k = 2; k < len; k++)
                        if (s[i + k] < 0x80 || s[i + k] > 0xbf)
                                return false;
                cp = len == 2 ? (uint32_t) (c & 0x1f) << 6 | (s[i + 1] & 0x3f)
                   : len == 3 ? (uint32_t) (c & 0x0f) << 12 | (uint32_t) (s[i + 1] & 0x3f) << 6 | (s[i + 2] & 0x3f)
                              : (uint32_t) (c & 0x07) << 18 | (uint32_t) (s[i + 1] & 0x3f) << 12 |
                                        (uint32_t) (s[i + 2] & 0x3f) << 6 | (s[i + 3] & 0x3f);
                if (cp <= 0x9f || cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
                    (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029)
                        return false;
                i += len;
        }
        return true;
}
