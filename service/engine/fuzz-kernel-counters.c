/* SPDX-License-Identifier: GPL-2.0-or-later */

/* kernel_counter_parse() on one sysfs value's raw bytes. Checked against a
 * reference: accepted exactly when the bytes are 1 to 20 decimal digits
 * with an optional trailing newline and the value fits, with that value;
 * a refused value leaves *ret alone; the value printed as sysfs does
 * ("%llu\n") parses back to itself. */

#include <errno.h>
#include <inttypes.h>

#include "fuzz-util.h"
#include "kernel-counters.h"

static int reference(const uint8_t *p, size_t len, uint64_t *ret) {
        unsigned __int128 v = 0;

        if (len > 0 && p[len - 1] == '\n')
                len--;
        if (len == 0 || len > 20)
                return -EINVAL;
        for (size_t i = 0; i < len; i++) {
                if (p[i] < '0' || p[i] > '9')
                        return -EINVAL;
                v = v * 10 + (unsigned) (p[i] - '0');
        }
        if (v > UINT64_MAX)
                return -EINVAL;
        *ret = (uint64_t) v;
        return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        uint64_t v = 0xdead, ref = 0, again = 0;
        char buf[32];
        int r, n;

        r = kernel_counter_parse((const char *) data, size, &v);
        FUZZ_ASSERT(r == reference(data, size, &ref));
        if (r < 0) {
                FUZZ_ASSERT(r == -EINVAL && v == 0xdead);
                return 0;
        }
        FUZZ_ASSERT(v == ref);
        n = snprintf(buf, sizeof(buf), "%" PRIu64 "\n", v);
        FUZZ_ASSERT(kernel_counter_parse(buf, (size_t) n, &again) == 0 && again == v);
        return 0;
}
