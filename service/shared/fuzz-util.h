/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Helpers of the libFuzzer targets (service/LAYER/fuzz-NAME.c, built with
 * -Dfuzz=true). A target never prints: FUZZ_ASSERT() reports a broken
 * contract on stderr and aborts, which libFuzzer records as a crash. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ASSERT(cond)                                                                  \
        do {                                                                               \
                if (!(cond)) {                                                             \
                        fprintf(stderr, "%s:%d: contract broken: %s\n", __FILE__, __LINE__, #cond); \
                        abort();                                                           \
                }                                                                          \
        } while (0)

/* The input as a NUL-terminated string (cut at an embedded NUL, as a C
 * string would be). Aborts on out of memory. */
static inline char *fuzz_strndup(const uint8_t *data, size_t size) {
        char *s = malloc(size + 1);

        if (!s)
                abort();
        if (size > 0)
                memcpy(s, data, size);
        s[size] = '\0';
        return s;
}

/* Little-endian u64 from the first 8 bytes (the caller checks size). */
static inline uint64_t fuzz_u64(const uint8_t *data) {
        uint64_t v = 0;

        for (int i = 7; i >= 0; i--)
                v = v << 8 | data[i];
        return v;
}

/* Bounds for a bounded parser from the first 16 bytes, which are consumed;
 * [0, UINT64_MAX] for a shorter input. */
static inline void fuzz_take_bounds(const uint8_t **data, size_t *size, uint64_t *min, uint64_t *max) {
        *min = 0;
        *max = UINT64_MAX;
        if (*size < 16)
                return;
        *min = fuzz_u64(*data);
        *max = fuzz_u64(*data + 8);
        *data += 16;
        *size -= 16;
}

/* Runs f with stderr pointed at /dev/null: the parsers of the command line
 * print one line on a usage error, a fuzz target must not. */
#define FUZZ_QUIET(stmt)                                                                   \
        do {                                                                               \
                static FILE *_null;                                                        \
                FILE *_saved = stderr;                                                     \
                if (!_null && !(_null = fopen("/dev/null", "we")))                         \
                        abort();                                                           \
                stderr = _null;                                                            \
                stmt;                                                                      \
                stderr = _saved;                                                           \
        } while (0)
