/* SPDX-License-Identifier: GPL-2.0-or-later */

/* No output lets anyone recover a value the probe drew. A scripted source
 * delivers known values, at every count from 1 to past the count from
 * which the per-bit figures are shown (health.h: 41), at every width; every
 * output is made of the report: the JSON, the table, the status line, the
 * journal events' fields, report's text and JSON (read back from those
 * fields) and the metrics. For each value v_i the same outputs are made of
 * a second sequence in which v_i is ~v_i (each of its bits flipped); where
 * the per-bit counts are shown, each flipped bit is flipped back in
 * another value, so that the counts of ones stay. The outputs must be the
 * same, byte for byte: whatever they show, v_i could as well have been
 * its complement, so not one of its bits can be read from them.
 *
 * The values are distinct, never 0 or all ones, and never one another's
 * complement (a healthy source's values, which the checks that look at
 * equality, zeros and all-ones leave alone). The counts that the checks of
 * zeros and all-ones values look at are tested at small counts on their own
 * (every value 0 against every value another one). Controls that the test
 * can fail: where the per-bit counts are shown, flipping one value without
 * flipping back changes the JSON; where they are not, the JSON has null. */

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "format-util.h"
#include "journal-event.h"
#include "macro.h"
#include "metrics.h"
#include "probe-json.h"
#include "probe-table.h"
#include "report.h"
#include "scripted-source.h"
#include "status.h"
#include "test-util.h"

/* From 1 to past the per-bit threshold (41 at alpha = 2^-40). */
#define N_MAX 49

static uint64_t width_mask(unsigned width) {
        return width == 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
}

/* Appends s to the output buffer (a memstream). */
static void put(FILE *out, const char *what, const char *s) {
        fprintf(out, "--- %s\n%s\n", what, s ?: "(null)");
}

/* Every output of one single run over values[0..n): the probe on a
 * scripted source, its clock figures cleared, then each output. */
static char *outputs(unsigned width, const uint64_t *values, size_t n, ProbeReport *ret_report) {
        _cleanup_json_ struct json_object *j = NULL, *rj = NULL;
        char *text = NULL, *s = NULL;
        size_t len = 0, slen = 0;
        ProbeReport rep;
        EventFields f = {};
        Report report = {};
        Metrics m = {};
        sd_id128_t boot = { .bytes = { 1 } };
        FILE *out, *t;

        script_probe_values(width, values, n, &rep);
        CHECK_EQ_U64(rep.instr[RNG_SOURCE_RDRAND].runs[0].delivered, n);

        out = open_memstream(&text, &len);
        if (!out)
                abort();
        CHECK_EQ_INT(probe_report_to_json(&rep, NULL, &j), 0);
        put(out, "json", j ? json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN) : NULL);

        t = open_memstream(&s, &slen);
        if (!t)
                abort();
        probe_report_print_table(&rep, t);
        fclose(t);
        put(out, "table", s);
        free(s);
        s = status_format_probe(&rep);
        put(out, "status", s);
        free(s);

        /* the journal: the probe result, and an output check event per
         * run whose checks failed; report reads them back */
        CHECK_EQ_INT(event_probe_result(&f, &rep, RNG_SOURCE_RDRAND, "boot"), 0);
        for (size_t k = 0; k < f.n; k++)
                put(out, "probe result field", f.v[k]);
        CHECK(report_add_entry(&report, boot, 1, &f) >= 0, "report took no probe result");
        event_fields_done(&f);
        for (unsigned k = 0; k < rep.instr[RNG_SOURCE_RDRAND].n_runs; k++) {
                const ProbeRun *run = &rep.instr[RNG_SOURCE_RDRAND].runs[k];

                if (run->health.failed == 0)
                        continue;
                CHECK_EQ_INT(event_output_check(&f, RNG_SOURCE_RDRAND, run, "boot"), 0);
                for (size_t q = 0; q < f.n; q++)
                        put(out, "output check field", f.v[q]);
                (void) report_add_entry(&report, boot, 2, &f);
                event_fields_done(&f);
        }
        t = open_memstream(&s, &slen);
        if (!t)
                abort();
        report_print(&report, boot, t);
        fclose(t);
        put(out, "report", s);
        free(s);
        CHECK_EQ_INT(report_to_json(&report, boot, &rj), 0);
        put(out, "report json", rj ? json_object_to_json_string_ext(rj, JSON_C_TO_STRING_PLAIN) : NULL);
        report_done(&report);

        metrics_add_probe(&m, &rep, 0);
        s = metrics_format(&m, &(MetricsInfo) { .version = "0", .confidential_vm = "none", .probe = &rep });
        put(out, "metrics", s);
        free(s);

        fclose(out);
        if (ret_report)
                *ret_report = rep;
        return text;
}

/* n distinct values of width, none 0 or all ones, none another's
 * complement. */
static void draw_values(unsigned width, size_t n, uint64_t seed, uint64_t *ret) {
        uint64_t mask = width_mask(width);

        for (size_t k = 0; k < n;) {
                uint64_t v = splitmix64(&seed) & mask;
                bool ok = v != 0 && v != mask;

                for (size_t q = 0; q < k && ok; q++)
                        ok = ret[q] != v && ret[q] != (~v & mask);
                if (ok)
                        ret[k++] = v;
        }
}

/* Whether values[] is a healthy-looking sequence as draw_values() makes. */
static bool plain(unsigned width, const uint64_t *values, size_t n) {
        uint64_t mask = width_mask(width);

        for (size_t k = 0; k < n; k++) {
                if (values[k] == 0 || values[k] == mask)
                        return false;
                for (size_t q = 0; q < k; q++)
                        if (values[q] == values[k] || values[q] == (~values[k] & mask))
                                return false;
        }
        return true;
}

/* values with values[i] complemented; with keep_counts, each flipped bit b
 * is flipped back in another value (the first, from i + 1 + offset + b on,
 * whose bit equals v_i's new one), so that every position keeps its count
 * of ones. false if no other value has such a bit (the position would be
 * stuck: no healthy sequence of this many values is). */
static bool complement(unsigned width, const uint64_t *values, size_t n, size_t i, bool keep_counts, size_t offset,
                       uint64_t *ret) {
        memcpy(ret, values, n * sizeof(uint64_t));
        ret[i] = ~values[i] & width_mask(width);
        if (!keep_counts)
                return true;
        for (unsigned b = 0; b < width; b++) {
                uint64_t bit = UINT64_C(1) << b;
                bool found = false;

                /* spread over the values (one partner for every bit would
                         * make it the old v_i: a swap, not a new sequence) */
                for (size_t s = 0; s < n && !found; s++) {
                        size_t q = (i + 1 + offset + b + s) % n;

                        if (q == i || (ret[q] & bit) != (ret[i] & bit))
                                continue;
                        ret[q] ^= bit;
                        found = true;
                }
                if (!found)
                        return false;
        }
        return true;
}

/* The first line of a that b does not have where a has it (static buffer). */
static const char *first_difference(const char *a, const char *b) {
        static char line[200];
        size_t k = 0;

        while (a[k] && a[k] == b[k])
                k++;
        while (k > 0 && a[k - 1] != '\n')
                k--;
        snprintf(line, sizeof(line), "%.*s", (int) strcspn(a + k, "\n"), a + k);
        return line;
}

static struct json_object *bit_balance(const char *text) {
        const char *start = strstr(text, "--- json\n");
        struct json_object *doc, *o = NULL;

        if (!start)
                return NULL;
        start += strlen("--- json\n");
        {
                char *line = strndup(start, strcspn(start, "\n"));

                doc = line ? json_tokener_parse(line) : NULL;
                free(line);
        }
        if (doc) {
                struct json_object *in = json_object_array_get_idx(json_object_object_get(doc, "instructions"), 0);
                struct json_object *run = json_object_array_get_idx(json_object_object_get(in, "runs"), 0);
                struct json_object *bb = json_object_object_get(json_object_object_get(run, "health"), "bit_balance");

                o = bb ? json_object_get(bb) : NULL;
                json_object_put(doc);
        }
        return o;
}

static void test_widths(void) {
        unsigned compared = 0, controls = 0;
        uint64_t threshold;

        /* The engine's threshold, and independently: the fewest n with
         * 2^-n <= alpha/2 = 2^-41. */
        threshold = health_min_samples(0.5, HEALTH_PARAMS_DEFAULT.log2_alpha - 1);
        CHECK_EQ_U64(threshold, 41);
        CHECK(N_MAX > threshold + 4, "the test stops short of the threshold");

        for (int w = 0; w < RNG_N_WIDTHS; w++) {
                unsigned width = rng_widths[w];

                for (size_t n = 1; n <= N_MAX; n++) {
                        uint64_t values[N_MAX], other[N_MAX];
                        _cleanup_free_ char *base = NULL;
                        struct json_object *bb;
                        bool shown = n >= threshold;

                        draw_values(width, n, UINT64_C(0x5eed) * (w + 1) + n, values);
                        base = outputs(width, values, n, NULL);

                        /* where the counts are shown, and where not */
                        bb = bit_balance(base);
                        CHECK(bb != NULL, "w %u n %zu: no bit_balance", width, n);
                        if (bb) {
                                struct json_object *ones = json_object_object_get(bb, "ones");

                                CHECK_EQ_U64(json_object_get_uint64(json_object_object_get(bb, "min_samples")),
                                             threshold);
                                if (shown)
                                        CHECK(ones && json_object_array_length(ones) == width,
                                              "w %u n %zu: the counts of %zu values are not shown", width, n, n);
                                else
                                        CHECK(!ones && !json_object_object_get(bb, "worst_bit"),
                                              "w %u n %zu: per-bit figures over %zu values", width, n, n);
                                json_object_put(bb);
                        }

                        for (size_t i = 0; i < n; i++) {
                                _cleanup_free_ char *variant = NULL;
                                bool made = false;

                                /* the complement, its bits flipped back
                                 * elsewhere where the counts are shown */
                                for (size_t offset = 0; offset < n && !made; offset++)
                                        made = complement(width, values, n, i, shown, offset, other) &&
                                               plain(width, other, n);
                                CHECK(made, "w %u n %zu: no second sequence for value %zu", width, n, i);
                                if (!made)
                                        continue;
                                variant = outputs(width, other, n, NULL);
                                CHECK(strcmp(base, variant) == 0,
                                      "w %u n %zu: value %zu can be told from its complement by the output: %s", width,
                                      n, i, first_difference(base, variant));
                                compared++;
                        }

                        /* From the threshold on, a position where every
                         * value agrees (whose count would give that bit of
                         * each away) is a failed check, said as such. */
                        if (n == threshold) {
                                _cleanup_free_ char *stuck = NULL;

                                memcpy(other, values, sizeof(other));
                                for (size_t k = 0; k < n; k++)
                                        other[k] |= 1;
                                stuck = outputs(width, other, n, NULL);
                                CHECK(strstr(stuck, "\"failed_checks\":[\"bit-balance\"]") &&
                                      strstr(stuck, "\"failed_bits\":[0]"),
                                      "w %u n %zu: bit 0 set in every value is no failed check", width, n);
                                CHECK(strstr(stuck, "RNG_FAILED_BITS=0\n"), "w %u n %zu: no RNG_FAILED_BITS=0", width, n);
                        }

                        /* Control: where the counts are shown, one value
                         * complemented alone changes them. */
                        if (shown) {
                                _cleanup_free_ char *variant = NULL;

                                complement(width, values, n, 0, false, 0, other);
                                variant = outputs(width, other, n, NULL);
                                CHECK(strcmp(base, variant) != 0, "w %u n %zu: the control did not change the output",
                                      width, n);
                                controls++;
                        }
                }
        }
        printf("test-value-recovery: %u values compared with their complements, %u controls\n", compared, controls);
}

/* The counts of zeros and all-ones values: over fewer values than their
 * check needs (3 at 16 bits, 2 at 32), every value 0 gives the same
 * outputs as every value one other value; so does every value all ones. At
 * 64 bits one 0 is itself an alarm (zero-rate): that output is a failure,
 * of a source whose value is no secret. */
static void test_zeros(void) {
        for (int w = 0; w < RNG_N_WIDTHS; w++) {
                unsigned width = rng_widths[w];
                uint64_t mask = width_mask(width), zeros[3] = {}, ones[3] = { mask, mask, mask }, other[3];
                uint64_t min = health_min_samples(exp2(-(double) width), HEALTH_PARAMS_DEFAULT.log2_alpha);

                CHECK_EQ_U64(min, width == 16 ? 3 : width == 32 ? 2 : 1);
                for (size_t n = 1; n < min; n++) {
                        _cleanup_free_ char *a = NULL, *b = NULL, *c = NULL;

                        for (size_t k = 0; k < n; k++)
                                other[k] = UINT64_C(0x1234) & mask;
                        a = outputs(width, zeros, n, NULL);
                        b = outputs(width, other, n, NULL);
                        c = outputs(width, ones, n, NULL);
                        CHECK(strcmp(a, b) == 0, "w %u n %zu: a 0 can be told from 0x1234", width, n);
                        CHECK(strcmp(c, b) == 0, "w %u n %zu: all ones can be told from 0x1234", width, n);
                        CHECK(strstr(a, "\"zeros\":null") && strstr(a, "\"all_ones\":null"),
                              "w %u n %zu: the counts are shown", width, n);
                }
                {
                        _cleanup_free_ char *a = outputs(width, zeros, min, NULL);

                        CHECK(!strstr(a, "\"zeros\":null"), "w %u n %" PRIu64 ": the count is not shown", width, min);
                }
        }
}

int main(void) {
        test_widths();
        test_zeros();
        return test_result("test-value-recovery");
}
