/* SPDX-License-Identifier: GPL-2.0-or-later */

/* parse_cpu_list() on the raw bytes (not NUL-terminated: ASan catches a
 * read past len). Checked: an accepted list holds only digits, ',' and '-'
 * (and one trailing newline); the set printed back as a canonical list
 * parses to the same set; a refused list leaves *ret alone. */

#include <errno.h>

#include "fuzz-util.h"
#include "parse-util.h"

static size_t format_set(const cpu_set_t *set, char *buf, size_t size) {
        size_t n = 0;

        for (unsigned c = 0; c < CPU_SETSIZE; c++) {
                unsigned e = c;

                if (!CPU_ISSET(c, set))
                        continue;
                while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
                        e++;
                n += (size_t) snprintf(buf + n, size - n, "%s%u", n ? "," : "", c);
                if (e > c)
                        n += (size_t) snprintf(buf + n, size - n, "-%u", e);
                FUZZ_ASSERT(n < size);
                c = e;
        }
        return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static char buf[CPU_SETSIZE * 12];
        cpu_set_t set, again, untouched;
        int r;

        memset(&set, 0xa5, sizeof(set));
        untouched = set;
        r = parse_cpu_list((const char *) data, size, &set);
        FUZZ_ASSERT(r == 0 || r == -EINVAL || r == -ERANGE);
        if (r < 0) {
                FUZZ_ASSERT(memcmp(&set, &untouched, sizeof(set)) == 0);
                return 0;
        }
        for (size_t i = 0; i < size; i++)
                FUZZ_ASSERT((data[i] >= '0' && data[i] <= '9') || data[i] == ',' || data[i] == '-' ||
                            (data[i] == '\n' && i == size - 1));
        if (size == 0 || (size == 1 && data[0] == '\n'))
                FUZZ_ASSERT(CPU_COUNT(&set) == 0);

        size_t n = format_set(&set, buf, sizeof(buf));
        FUZZ_ASSERT(parse_cpu_list(buf, n, &again) == 0);
        FUZZ_ASSERT(CPU_EQUAL(&set, &again));
        return 0;
}
