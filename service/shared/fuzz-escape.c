/* SPDX-License-Identifier: GPL-2.0-or-later */

/* escape.h on any bytes. Checked: the output is safe to show
 * (escape-check.h, a decoder independent of escape.c); it decodes back to the input (no two inputs share an
 * output); escape_to() into a buffer of any size gives a prefix of it that
 * ends at a unit boundary; escape_is_clean() is true exactly when the
 * output equals the input. */

#include "escape-check.h"
#include "escape.h"
#include "fuzz-util.h"

/* The inverse of the escaping, for the check; NULL on a malformed escape. */
static char *unescape(const char *s, size_t *ret_len) {
        char *out = malloc(strlen(s) + 1);
        size_t k = 0;

        if (!out)
                abort();
        while (*s) {
                const char *m = "a\ab\bt\tn\nv\vf\fr\r\\\\";
                char c;

                if (*s != '\\') {
                        out[k++] = *s++;
                        continue;
                }
                c = s[1];
                if (c == 'x') {
                        unsigned v = 0;

                        for (int i = 2; i < 4; i++) {
                                char h = s[i];

                                if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f'))) {
                                        free(out);
                                        return NULL;
                                }
                                v = v * 16 + (unsigned) (h <= '9' ? h - '0' : h - 'a' + 10);
                        }
                        out[k++] = (char) v;
                        s += 4;
                        continue;
                }
                for (; *m && *m != c; m += 2)
                        ;
                if (!*m || !c) {
                        free(out);
                        return NULL;
                }
                out[k++] = m[1];
                s += 2;
        }
        *ret_len = k;
        return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const char *in = (const char *) data;
        char *out, *back, buf[64];
        size_t out_len, back_len = 0, size_to;

        out = escape_mem(in, size);
        FUZZ_ASSERT(out);
        out_len = strlen(out);
        FUZZ_ASSERT(out_len >= size && out_len <= 4 * size);
        FUZZ_ASSERT(escape_check_output(out, out_len, false));
        FUZZ_ASSERT(escape_is_clean(in, size) == (out_len == size && memcmp(out, in, size) == 0));

        back = unescape(out, &back_len);
        FUZZ_ASSERT(back && back_len == size && memcmp(back, in, size) == 0);
        free(back);

        /* a buffer of 1..64 bytes, picked by the input */
        size_to = size > 0 ? (size_t) data[0] % sizeof(buf) + 1 : 1;
        escape_to(buf, size_to, in, size);
        FUZZ_ASSERT(strlen(buf) < size_to);
        FUZZ_ASSERT(strncmp(out, buf, strlen(buf)) == 0);
        FUZZ_ASSERT(escape_check_output(buf, strlen(buf), false));
        /* it stopped at a unit boundary: what follows in the full output
         * is the start of a unit (an escape, or not a continuation byte) */
        FUZZ_ASSERT(strlen(buf) == out_len || ((unsigned char) out[strlen(buf)] & 0xc0) != 0x80);
        FUZZ_ASSERT(strlen(buf) == out_len || strlen(buf) + 16 > size_to - 1);
        free(out);
        return 0;
}
