/* SPDX-License-Identifier: GPL-2.0-or-later */

/* parse_u64() and parse_u64_range(): input = [8 bytes min][8 bytes max]
 * text (shorter inputs: the whole is the text, bounds 0..UINT64_MAX).
 * Checked against a reference: accepted exactly when the text is one or
 * more decimal digits whose value fits, with that value; within the bounds
 * exactly when the range parser accepts it. */

#include <errno.h>
#include <inttypes.h>

#include "fuzz-util.h"
#include "parse-util.h"

/* 0 and the value, -ERANGE on overflow, -EINVAL on anything but digits;
 * *ret_both: overflowing digits followed by junk (either error is right). */
static int reference(const char *s, uint64_t *ret, bool *ret_both) {
        uint64_t v = 0;
        bool overflow = false;

        *ret_both = false;
        if (!*s)
                return -EINVAL;
        for (const char *p = s; *p; p++) {
                if (*p < '0' || *p > '9') {
                        *ret_both = overflow && p > s;
                        return -EINVAL;
                }
                if (!overflow && v > (UINT64_MAX - (uint64_t) (*p - '0')) / 10)
                        overflow = true;
                else if (!overflow)
                        v = v * 10 + (uint64_t) (*p - '0');
        }
        if (overflow)
                return -ERANGE;
        *ret = v;
        return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        uint64_t min = 0, max = UINT64_MAX, v = 0, w = 0, ref = 0, u = 0xdead;
        bool both;
        int r, rr, rref;
        char *s;

        fuzz_take_bounds(&data, &size, &min, &max);
        s = fuzz_strndup(data, size);

        r = parse_u64(s, &v);
        rref = reference(s, &ref, &both);
        FUZZ_ASSERT(r == rref || (both && r == -ERANGE));
        if (r == 0)
                FUZZ_ASSERT(v == ref);

        rr = parse_u64_range(s, min, max, &w);
        if (r < 0)
                FUZZ_ASSERT(rr == r);
        else if (v < min || v > max)
                FUZZ_ASSERT(rr == -ERANGE);
        else {
                FUZZ_ASSERT(rr == 0);
                FUZZ_ASSERT(w == v && w >= min && w <= max);
        }

        /* A refused value leaves *ret alone. */
        if (parse_u64(s, &u) < 0)
                FUZZ_ASSERT(u == 0xdead);

        /* The value, printed, parses back to itself. */
        if (r == 0) {
                char buf[32];

                snprintf(buf, sizeof(buf), "%" PRIu64, v);
                FUZZ_ASSERT(parse_u64(buf, &u) == 0 && u == v);
        }
        free(s);
        return 0;
}
