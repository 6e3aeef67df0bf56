/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in nanoseconds (vDSO: ~20 ns, no system call). */
static inline uint64_t now_nsec(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t) ts.tv_sec * UINT64_C(1000000000) + (uint64_t) ts.tv_nsec;
}
