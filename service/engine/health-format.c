/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The output checks' names, and the failed checks as text (status line,
 * events, table). */

#include <stdio.h>
#include <string.h>

#include "health.h"
#include "macro.h"

static const char *const check_names[] = {
        "stuck-zero", "stuck-ones", "zero-rate", "ones-rate", "repeat-rate", "rct", "apt", "empty",
        "kernel-selftest", "bit-balance",
};

const char *health_check_to_string(HealthCheck c) {
        for (size_t i = 0; i < ELEMENTSOF(check_names); i++)
                if (c == (1u << i))
                        return check_names[i];
        return NULL;
}

void health_checks_format(unsigned failed, char *buf, size_t len) {
        size_t k = 0;

        if (len == 0)
                return;
        buf[0] = '\0';
        for (unsigned b = 1; b & _HEALTH_CHECK_ALL; b <<= 1)
                if ((failed & b) && k < len)
                        k += snprintf(buf + k, len - k, "%s%s", k ? "," : "", health_check_to_string(b));
}

void health_bits_format(uint64_t bits, char *buf, size_t len) {
        size_t k = 0;

        if (len == 0)
                return;
        buf[0] = '\0';
        for (unsigned b = 0; b < 64 && k < len;) {
                unsigned e = b;

                if (!(bits & (UINT64_C(1) << b))) {
                        b++;
                        continue;
                }
                while (e + 1 < 64 && (bits & (UINT64_C(1) << (e + 1))))
                        e++;
                if (e == b)
                        k += snprintf(buf + k, len - k, "%s%u", k ? "," : "", b);
                else
                        k += snprintf(buf + k, len - k, "%s%u-%u", k ? "," : "", b, e);
                b = e + 1;
        }
}

void health_result_format(const HealthResult *h, char *buf, size_t len) {
        char bits[192];
        size_t k;

        health_checks_format(h->failed, buf, len);
        if (!(h->failed & HEALTH_BIT_BALANCE) || len == 0)
                return;
        k = strlen(buf);
        health_bits_format(h->failed_bits, bits, sizeof(bits));
        if (k < len)
                snprintf(buf + k, len - k, " (bit%s %s)",
                         __builtin_popcountll(h->failed_bits) == 1 ? "" : "s", bits);
}
