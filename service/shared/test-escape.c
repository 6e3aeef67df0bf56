/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The one rule for printing outside bytes (escape.h): ESC, C1,
 * bidi controls and invalid UTF-8 are escaped, text is kept, the result is
 * always safe (escape-check.h, an independent decoder) and unambiguous. */

#include <string.h>

#include "escape-check.h"
#include "escape.h"
#include "macro.h"
#include "test-util.h"

#define S(x) x, sizeof(x) - 1

static void check_escape(const char *in, size_t n, const char *want) {
        _cleanup_free_ char *got = escape_mem(in, n);

        CHECK(got && strcmp(got, want) == 0, "escape of %zu bytes: '%s', expected '%s'", n, got ?: "(null)", want);
        if (got)
                CHECK(escape_check_output(got, strlen(got), false), "unsafe output '%s'", got);
        CHECK(escape_is_clean(in, n) == (strlen(want) == n && memcmp(in, want, n) == 0), "escape_is_clean of '%s'",
              want);
}

static void test_cases(void) {
        /* text stays as it is */
        check_escape(S("rng-health.conf:3: [Probe] Widths=: invalid width '8'"),
                     "rng-health.conf:3: [Probe] Widths=: invalid width '8'");
        check_escape(S(""), "");
        check_escape(S("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xe2\x80\x8b"),
                     "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xe2\x80\x8b"); /* é € 😀 ZWSP */
        /* ESC: the terminal sequence that hid report's later lines */
        check_escape(S("\x1b[8m"), "\\x1b[8m");
        check_escape(S("\x1b]0;title\a"), "\\x1b]0;title\\a");
        /* C-style for the common controls, \xNN for the rest, DEL, NUL */
        check_escape(S("a\nb\tc\rd\be\ff\vg"), "a\\nb\\tc\\rd\\be\\ff\\vg");
        check_escape(S("\x01\x05\x7f"), "\\x01\\x05\\x7f");
        check_escape(S("a\0b"), "a\\x00b");
        /* a literal backslash is doubled: "\x1b" typed is not ESC shown */
        check_escape(S("\\x1b"), "\\\\x1b");
        /* C1 controls: CSI (U+009B) and NEL (U+0085) */
        check_escape(S("\xc2\x9b" "31m"), "\\xc2\\x9b31m");
        check_escape(S("\xc2\x85"), "\\xc2\\x85");
        check_escape(S("\xc2\x80\xc2\x9f\xc2\xa0"), "\\xc2\\x80\\xc2\\x9f\xc2\xa0"); /* U+00A0 is text */
        /* bidi: RLO (Trojan Source), the isolates, the marks; separators */
        check_escape(S("ok\xe2\x80\xae" "dedarged"), "ok\\xe2\\x80\\xaededarged");
        check_escape(S("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad"),
                     "\\xe2\\x80\\xaa\\xe2\\x80\\xab\\xe2\\x80\\xac\\xe2\\x80\\xad");
        check_escape(S("\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9"),
                     "\\xe2\\x81\\xa6\\xe2\\x81\\xa7\\xe2\\x81\\xa8\\xe2\\x81\\xa9");
        check_escape(S("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c"), "\\xe2\\x80\\x8e\\xe2\\x80\\x8f\\xd8\\x9c");
        check_escape(S("a\xe2\x80\xa8" "b\xe2\x80\xa9"), "a\\xe2\\x80\\xa8b\\xe2\\x80\\xa9");
        /* invalid UTF-8: report's RNG_FAIL_ON=\xff\xfe\xc0\x80 */
        check_escape(S("\xff\xfe\xc0\x80"), "\\xff\\xfe\\xc0\\x80");
        check_escape(S("\x80x"), "\\x80x");                             /* stray continuation */
        check_escape(S("\xe2\x82"), "\\xe2\\x82");                      /* cut off */
        check_escape(S("\xe2\x82x"), "\\xe2\\x82x");                    /* cut off by ASCII */
        check_escape(S("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");             /* overlong '/' */
        check_escape(S("\xed\xa0\x80"), "\\xed\\xa0\\x80");             /* surrogate */
        check_escape(S("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");    /* above U+10FFFF */
        check_escape(S("\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf");        /* U+10FFFF itself */
        check_escape(S("\xf8\x88\x80\x80\x80"), "\\xf8\\x88\\x80\\x80\\x80");
}

static void test_str(void) {
        _cleanup_free_ char *a = escape_str(NULL), *b = escape_str("x\ny");

        CHECK(a && strcmp(a, "") == 0, "NULL");
        CHECK(b && strcmp(b, "x\\ny") == 0, "x\\ny: %s", b ?: "(null)");
}

static void test_to(void) {
        char buf[8];

        /* as much as fits, never half an escape or half a character */
        CHECK(strcmp(escape_to(buf, sizeof(buf), S("abcdefghij")), "abcdefg") == 0, "plain: %s", buf);
        CHECK(strcmp(escape_to(buf, sizeof(buf), S("ab\x1b\x1b")), "ab\\x1b") == 0, "escape: %s", buf);
        CHECK(strcmp(escape_to(buf, sizeof(buf), S("abcde\xc3\xa9\xc3\xa9")), "abcde\xc3\xa9") == 0, "char: %s", buf);
        CHECK(strcmp(escape_to(buf, 5, S("\xe2\x80\xae")), "") == 0, "bidi: %s", buf);
        CHECK(strcmp(escape_to(buf, 1, S("abc")), "") == 0, "size 1: %s", buf);
        CHECK(strcmp(escape_to(buf, sizeof(buf), S("")), "") == 0, "empty: %s", buf);
}

/* The inverse of escape_mem(), written here: distinct inputs must give
 * distinct outputs, so unescape(escape(x)) is x. */
static size_t unescape(const char *s, char *out) {
        size_t k = 0;

        while (*s) {
                if (*s != '\\') {
                        out[k++] = *s++;
                        continue;
                }
                s++;
                switch (*s) {
                case 'x': {
                        char h[3] = { s[1], s[2], 0 };

                        out[k++] = (char) strtoul(h, NULL, 16);
                        s += 3;
                        continue;
                }
                case 'a': out[k++] = '\a'; break;
                case 'b': out[k++] = '\b'; break;
                case 't': out[k++] = '\t'; break;
                case 'n': out[k++] = '\n'; break;
                case 'v': out[k++] = '\v'; break;
                case 'f': out[k++] = '\f'; break;
                case 'r': out[k++] = '\r'; break;
                default: out[k++] = *s; break;
                }
                s++;
        }
        return k;
}

/* Every string of up to two bytes, and every three-byte string with a
 * lead byte of 0xe0..0xef (the bidi controls and separators): safe output
 * that decodes back to the input. */
static void test_exhaustive(void) {
        unsigned bad = 0;

        for (unsigned n = 0; n <= 3; n++)
                for (unsigned v = 0; v < (1u << (8 * n)); v++) {
                        char in[3], back[16];
                        _cleanup_free_ char *out = NULL;

                        for (unsigned i = 0; i < n; i++)
                                in[i] = (char) (v >> (8 * i));
                        if (n == 3 && ((unsigned char) in[0] < 0xe0 || (unsigned char) in[0] > 0xef))
                                continue;
                        out = escape_mem(in, n);
                        if (!out || !escape_check_output(out, strlen(out), false) || unescape(out, back) != n ||
                            memcmp(back, in, n) != 0) {
                                if (bad++ < 5)
                                        CHECK(false, "%u bytes 0x%06x: '%s'", n, v, out ?: "(null)");
                        }
                }
        CHECK_EQ_INT(bad, 0);
}

int main(void) {
        test_cases();
        test_str();
        test_to();
        test_exhaustive();
        return test_result("test-escape");
}
