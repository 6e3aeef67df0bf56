/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The probe's JSON writer on values the fuzzer chooses, through a scripted
 * source: the first byte picks the width (16, 32, 64), every 8 bytes after
 * it are one value (at most 64; the run makes exactly that many tries).
 * Checked, on the JSON as written (parsed back):
 * - it parses; the run made n tries and checked n values;
 * - the per-bit figures are null exactly below bit_balance.min_samples,
 *   the counts of zeros and all-ones values exactly below
 *   rate_min_samples; a shown count of ones is at most n, and a position
 *   whose count is 0 or n (a bit every value shares) is a failed bit;
 * - what it shows cannot tell the values from others: below min_samples,
 *   every value that is not 0 or all ones complemented (equal values stay
 *   equal, 0 and all ones stay) gives the same JSON, byte for byte; from
 *   min_samples on, one bit swapped between two values (the counts of
 *   ones stay) does, where equal values stay equal; below
 *   rate_min_samples, 0 and all ones replaced by values of their own do.
 * The clock's figures are cleared first (script_report_clear_timing()). */

#include <errno.h>

#include "fuzz-util.h"
#include "json-util.h"
#include "probe-json.h"
#include "scripted-source.h"

#define VALUES_MAX 64

/* The JSON of one single run over values[0..n) (malloc'ed), and its report. */
static char *probe_json(unsigned width, const uint64_t *values, size_t n, ProbeReport *rep) {
        _cleanup_json_ struct json_object *j = NULL;
        char *s;

        script_probe_values(width, values, n, rep);
        FUZZ_ASSERT(probe_report_to_json(rep, NULL, &j) == 0);
        s = strdup(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
        if (!s)
                abort();
        return s;
}

/* Whether a and b have the same equality pattern, and 0 and all ones at
 * the same places (keep_special) or nowhere new. */
static bool same_pattern(const uint64_t *a, const uint64_t *b, size_t n, uint64_t mask, bool keep_special) {
        for (size_t i = 0; i < n; i++) {
                bool sa = a[i] == 0 || a[i] == mask, sb = b[i] == 0 || b[i] == mask;

                if (keep_special ? (sa != sb || (sa && a[i] != b[i])) : sb)
                        return false;
                for (size_t k = 0; k < i; k++)
                        if ((a[i] == a[k]) != (b[i] == b[k]))
                                return false;
        }
        return true;
}

static struct json_object *get(struct json_object *o, const char *k) {
        struct json_object *v = NULL;

        FUZZ_ASSERT(json_object_object_get_ex(o, k, &v));
        return v;
}

static void check_json(const char *text, unsigned width, size_t n) {
        struct json_object *doc = json_tokener_parse(text), *run, *h, *bb, *ones, *failed;
        uint64_t min, rate_min, failed_mask = 0;

        FUZZ_ASSERT(doc);
        run = json_object_array_get_idx(get(json_object_array_get_idx(get(doc, "instructions"), 0), "runs"), 0);
        FUZZ_ASSERT(run);
        FUZZ_ASSERT(json_object_get_uint64(get(run, "attempts")) == n);
        h = get(run, "health");
        FUZZ_ASSERT(json_object_get_uint64(get(h, "samples")) == n);
        bb = get(h, "bit_balance");
        min = json_object_get_uint64(get(bb, "min_samples"));
        rate_min = json_object_get_uint64(get(h, "rate_min_samples"));
        FUZZ_ASSERT(min == 41);
        FUZZ_ASSERT(rate_min == (width == 16 ? 3u : width == 32 ? 2u : 1u));
        FUZZ_ASSERT((get(h, "zeros") == NULL) == (n < rate_min));
        FUZZ_ASSERT((get(h, "all_ones") == NULL) == (n < rate_min));
        ones = get(bb, "ones");
        FUZZ_ASSERT((ones == NULL) == (n < min));
        FUZZ_ASSERT((get(bb, "worst_bit") == NULL) == (n < min));
        failed = get(bb, "failed_bits");
        for (size_t k = 0; k < json_object_array_length(failed); k++)
                failed_mask |= UINT64_C(1) << (json_object_get_int(json_object_array_get_idx(failed, k)) & 63);
        if (ones) {
                FUZZ_ASSERT(json_object_array_length(ones) == width);
                for (unsigned b = 0; b < width; b++) {
                        uint64_t c = json_object_get_uint64(json_object_array_get_idx(ones, b));

                        FUZZ_ASSERT(c <= n);
                        /* a bit every value shares is a failure, not a secret shown */
                        if (c == 0 || c == n)
                                FUZZ_ASSERT(failed_mask & (UINT64_C(1) << b));
                }
        } else
                /* nothing within the width can fail below the threshold */
                FUZZ_ASSERT((failed_mask & (width == 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1)) == 0);
        json_object_put(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        uint64_t values[VALUES_MAX], other[VALUES_MAX], mask;
        _cleanup_free_ char *json = NULL;
        ProbeReport rep;
        unsigned width;
        size_t n;

        if (size < 1 + 8)
                return 0;
        width = rng_widths[data[0] % RNG_N_WIDTHS];
        mask = width == 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
        n = MIN((size - 1) / 8, (size_t) VALUES_MAX);
        for (size_t k = 0; k < n; k++)
                values[k] = fuzz_u64(data + 1 + 8 * k) & mask;

        json = probe_json(width, values, n, &rep);
        check_json(json, width, n);

        /* Complemented (0 and all ones kept): the same, below the threshold. */
        if (n < rep.instr[RNG_SOURCE_RDRAND].runs[0].health.bit_min_samples) {
                _cleanup_free_ char *again = NULL;

                for (size_t k = 0; k < n; k++)
                        other[k] = values[k] == 0 || values[k] == mask ? values[k] : ~values[k] & mask;
                FUZZ_ASSERT(same_pattern(values, other, n, mask, true));
                again = probe_json(width, other, n, &rep);
                FUZZ_ASSERT(strcmp(json, again) == 0);
        } else {
                /* One bit swapped between the first two values that differ
                 * in it: the counts of ones stay. */
                for (size_t i = 0; i < n; i++)
                        for (size_t k = i + 1; k < n; k++) {
                                uint64_t d = values[i] ^ values[k];
                                _cleanup_free_ char *again = NULL;

                                if (!d)
                                        continue;
                                memcpy(other, values, n * sizeof(uint64_t));
                                other[i] ^= d & -d;
                                other[k] ^= d & -d;
                                if (!same_pattern(values, other, n, mask, true))
                                        goto swapped;
                                again = probe_json(width, other, n, &rep);
                                FUZZ_ASSERT(strcmp(json, again) == 0);
                                goto swapped;
                        }
        swapped:;
        }

        /* 0 and all ones replaced by values of their own: the same, below
         * the zero and all-ones checks' threshold. */
        if (n < rep.instr[RNG_SOURCE_RDRAND].runs[0].health.rate_min_samples) {
                _cleanup_free_ char *again = NULL;
                uint64_t stand_in[2] = { 0x5a5a & mask, 0x3c3c & mask };

                for (size_t k = 0; k < n; k++)
                        other[k] = values[k] == 0 ? stand_in[0] : values[k] == mask ? stand_in[1] : values[k];
                if (same_pattern(values, other, n, mask, false)) {
                        again = probe_json(width, other, n, &rep);
                        FUZZ_ASSERT(strcmp(json, again) == 0);
                }
        }
        return 0;
}
