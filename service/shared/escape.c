/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

/* The length of the valid UTF-8 sequence at s (at most n bytes) and its
 * code point, or 0 if there is none: a stray continuation byte, a lead
 * byte of 0xc0, 0xc1 or 0xf5..0xff, a sequence cut off, an overlong form,
 * a surrogate (U+D800..U+DFFF) or a code point above U+10FFFF. ASCII is
 * handled by the caller. */
static size_t utf8_sequence(const unsigned char *s, size_t n, uint32_t *ret) {
        unsigned char c = s[0];
        uint32_t cp, min;
        size_t len;

        if (c >= 0xc2 && c <= 0xdf) {
                len = 2;
                cp = c & 0x1f;
                min = 0x80;
        } else if (c >= 0xe0 && c <= 0xef) {
                len = 3;
                cp = c & 0x0f;
                min = 0x800;
        } else if (c >= 0xf0 && c <= 0xf4) {
                len = 4;
                cp = c & 0x07;
                min = 0x10000;
        } else
                return 0;
        if (n < len)
                return 0;
        for (size_t i = 1; i < len; i++) {
                if ((s[i] & 0xc0) != 0x80)
                        return 0;
                cp = cp << 6 | (s[i] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
                return 0;
        *ret = cp;
        return len;
}

/* The non-ASCII characters that are shown escaped although valid. */
static bool hidden_code_point(uint32_t cp) {
        return (cp >= 0x80 && cp <= 0x9f) ||       /* C1 controls */
               cp == 0x061c ||                     /* ARABIC LETTER MARK */
               cp == 0x200e || cp == 0x200f ||     /* LRM, RLM */
               (cp >= 0x202a && cp <= 0x202e) ||   /* LRE, RLE, PDF, LRO, RLO */
               (cp >= 0x2066 && cp <= 0x2069) ||   /* LRI, RLI, FSI, PDI */
               cp == 0x2028 || cp == 0x2029;       /* LINE and PARAGRAPH SEPARATOR */
}

/* The escaped form of the unit at s: its text in out (up to 16 bytes:
 * four \xNN), the bytes it consumed in *ret_used. Returns the text's
 * length. */
static size_t escape_unit(const unsigned char *s, size_t n, char out[static 16], size_t *ret_used) {
        static const char hex[] = "0123456789abcdef";
        unsigned char c = s[0];
        uint32_t cp;
        size_t len;

        *ret_used = 1;
        if (c >= 0x20 && c < 0x7f && c != '\\') {
                out[0] = (char) c;
                return 1;
        }
        if (c >= 0x80) {
                len = utf8_sequence(s, n, &cp);
                if (len > 0 && !hidden_code_point(cp)) {
                        memcpy(out, s, len);
                        *ret_used = len;
                        return len;
                }
                if (len > 0) {
                        /* every byte of the sequence: the reader sees which
                         * character it was, the terminal does not act on it */
                        for (size_t i = 0; i < len; i++) {
                                out[4 * i] = '\\';
                                out[4 * i + 1] = 'x';
                                out[4 * i + 2] = hex[s[i] >> 4];
                                out[4 * i + 3] = hex[s[i] & 15];
                        }
                        *ret_used = len;
                        return 4 * len;
                }
        }
        out[0] = '\\';
        switch (c) {
        case '\\': out[1] = '\\'; return 2;
        case '\a': out[1] = 'a'; return 2;
        case '\b': out[1] = 'b'; return 2;
        case '\t': out[1] = 't'; return 2;
        case '\n': out[1] = 'n'; return 2;
        case '\v': out[1] = 'v'; return 2;
        case '\f': out[1] = 'f'; return 2;
        case '\r': out[1] = 'r'; return 2;
        default:
                out[1] = 'x';
                out[2] = hex[c >> 4];
                out[3] = hex[c & 15];
                return 4;
        }
}

char *escape_mem(const char *s, size_t n) {
        const unsigned char *p = (const unsigned char *) s;
        char *buf, *q;

        /* at most four bytes of output per byte of input */
        if (n > (SIZE_MAX - 1) / 4)
                return NULL;
        buf = malloc(4 * n + 1);
        if (!buf)
                return NULL;
        q = buf;
        for (size_t i = 0; i < n;) {
                char unit[16];
                size_t used, k = escape_unit(p + i, n - i, unit, &used);

                memcpy(q, unit, k);
                q += k;
                i += used;
        }
        *q = '\0';
        return buf;
}

char *escape_str(const char *s) {
        return escape_mem(s ?: "", s ? strlen(s) : 0);
}

char *escape_to(char *buf, size_t size, const char *s, size_t n) {
        const unsigned char *p = (const unsigned char *) s;
        size_t k = 0;

        if (size == 0)
                return buf;
        for (size_t i = 0; i < n;) {
                char unit[16];
                size_t used, l = escape_unit(p + i, n - i, unit, &used);

                if (l >= size - k)
                        break;
                memcpy(buf + k, unit, l);
                k += l;
                i += used;
        }
        buf[k] = '\0';
        return buf;
}

bool escape_is_clean(const char *s, size_t n) {
        const unsigned char *p = (const unsigned char *) s;

        for (size_t i = 0; i < n;) {
                char unit[16];
                size_t used, l = escape_unit(p + i, n - i, unit, &used);

                if (l != used || memcmp(unit, p + i, l) != 0)
                        return false;
                i += used;
        }
        return true;
}
