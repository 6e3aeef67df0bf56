/* SPDX-License-Identifier: GPL-2.0-or-later */

/* report's journal fields: report_add_machine_entry() on entries built
 * from the input, then report_print() and report_to_json() of the result,
 * and the fleet (fleet_build(), its table, JSON, figure panels and SVG;
 * all into memory). Entries are separated by an empty line; in each, the
 * first byte picks one of four boots (bits 0-1), one of two machines (bit
 * 2) and whether the entry names a hostname with bytes to escape (bit 3),
 * the rest are "FIELD=value" lines as the journal gives them. Also: a
 * run list (RNG_RUN_FAILURE_RATES) is taken exactly when
 * report_parse_rates() takes it, and what it gives is within bounds. Checked: -EINVAL exactly without MESSAGE_ID, -EBADMSG counted
 * as malformed and nothing else changed, 0 otherwise; no more boots than
 * entries taken; every instruction's failures within its attempts; an
 * exit status of -1 or 0..255; the kernel failure sum never decreases; the
 * text and the JSON are safe to show and valid UTF-8 whatever the fields
 * hold (escape-check.h). */

#include <errno.h>

#include "escape-check.h"
#include "fuzz-util.h"
#include "macro.h"
#include "plot-svg.h"
#include "probe-json.h"
#include "report-fleet.h"
#include "report.h"

static void fields_from(const uint8_t *p, size_t len, EventFields *f) {
        while (len > 0 && f->n < EVENT_FIELDS_MAX) {
                const uint8_t *nl = memchr(p, '\n', len);
                size_t l = nl ? (size_t) (nl - p) : len;

                f->v[f->n++] = fuzz_strndup(p, l);
                p += l + (nl ? 1 : 0);
                len -= l + (nl ? 1 : 0);
        }
}

static uint64_t sum_kernel(const Report *r) {
        uint64_t s = 0;

        for (size_t i = 0; i < r->n_boots; i++)
                s = r->boots[i].kernel_failures > UINT64_MAX - s ? UINT64_MAX : s + r->boots[i].kernel_failures;
        return s;
}

static void check_report(const Report *r, size_t taken) {
        FUZZ_ASSERT(r->n_boots <= taken && r->n_boots <= 4);
        for (size_t i = 0; i < r->n_boots; i++) {
                const ReportBoot *b = &r->boots[i];

                FUZZ_ASSERT(b->exit_status >= -1 && b->exit_status <= 255);
                FUZZ_ASSERT(b->first_usec <= b->last_usec);
                for (int k = 0; k < _RNG_SOURCE_MAX; k++) {
                        const ReportInstruction *in = &b->instr[k];

                        FUZZ_ASSERT(in->failures <= in->attempts);
                        FUZZ_ASSERT(in->failure_rate >= 0 && in->failure_rate <= 1);
                        FUZZ_ASSERT(in->kernel_retries <= UINT32_MAX);
                        FUZZ_ASSERT(in->n_rates <= REPORT_RATES_MAX);
                        for (unsigned q = 0; q < in->n_rates; q++) {
                                const ReportRate *rt = &in->rates[q];

                                FUZZ_ASSERT(rt->ratio >= 0 && rt->ratio <= 1);
                                FUZZ_ASSERT(rt->threads >= 1 && rt->threads <= 1024);
                                FUZZ_ASSERT(rt->package >= -1);
                                FUZZ_ASSERT(rt->contention || (rt->threads == 1 && rt->package == -1));
                                FUZZ_ASSERT(rt->width == 16 || rt->width == 32 || rt->width == 64);
                        }
                }
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        static const sd_id128_t boots[4] = {
                SD_ID128_MAKE(00,11,22,33,44,55,66,77,88,99,aa,bb,cc,dd,ee,ff),
                SD_ID128_MAKE(10,11,22,33,44,55,66,77,88,99,aa,bb,cc,dd,ee,ff),
                SD_ID128_MAKE(20,11,22,33,44,55,66,77,88,99,aa,bb,cc,dd,ee,ff),
                SD_ID128_MAKE(30,11,22,33,44,55,66,77,88,99,aa,bb,cc,dd,ee,ff),
        };
        static const sd_id128_t machines[2] = {
                SD_ID128_MAKE(a0,11,22,33,44,55,66,77,88,99,aa,bb,cc,dd,ee,ff),
                SD_ID128_MAKE(b0,11,22,33,44,55,66,77,88,99,aa,bb,cc,dd,ee,ff),
        };
        _cleanup_json_ struct json_object *j = NULL, *fj = NULL;
        _cleanup_free_ char *out = NULL, *svg = NULL;
        _cleanup_free_ PlotPanel *panels = calloc(PLOT_PANELS_MAX, sizeof(PlotPanel));
        Fleet fleet = {};
        char note[256];
        size_t n_panels;
        Report report = {};
        size_t taken = 0, out_size = 0;
        uint64_t realtime = UINT64_C(1764720000000000);
        FILE *f;

        while (size > 0) {
                const uint8_t *end = memmem(data, size, "\n\n", 2);
                size_t len = end ? (size_t) (end - data) : size;
                EventFields fields = {};
                unsigned malformed = report.malformed;
                uint64_t kernel = sum_kernel(&report);
                size_t n_boots = report.n_boots;
                int r;

                if (len > 0) {
                        const char *rates;

                        fields_from(data + 1, len - 1, &fields);
                        realtime += (uint64_t) data[0] * 1000000u;
                        r = report_add_machine_entry(&report, machines[(data[0] >> 2) & 1],
                                                     data[0] & 8 ? "host\033[8m\xff" : NULL, boots[data[0] & 3],
                                                     realtime, &fields);
                        rates = event_fields_get(&fields, "RNG_RUN_FAILURE_RATES");
                        if (r == 0 && rates)
                                FUZZ_ASSERT(report_parse_rates(rates, NULL, NULL) == 0);
                        FUZZ_ASSERT(r == 0 || r == -EINVAL || r == -EBADMSG);
                        FUZZ_ASSERT((r == -EINVAL) == !event_fields_get(&fields, "MESSAGE_ID"));
                        if (r == -EBADMSG) {
                                FUZZ_ASSERT(report.malformed == malformed + 1);
                                FUZZ_ASSERT(report.first_malformed_field[0]);
                        } else
                                FUZZ_ASSERT(report.malformed == malformed);
                        if (r < 0)
                                FUZZ_ASSERT(report.n_boots == n_boots);
                        else
                                taken++;
                        FUZZ_ASSERT(sum_kernel(&report) >= kernel);
                        event_fields_done(&fields);
                }
                data += len + (end ? 2 : 0);
                size -= len + (end ? 2 : 0);
        }
        check_report(&report, taken);

        f = open_memstream(&out, &out_size);
        FUZZ_ASSERT(f);
        report_print(&report, boots[0], f);
        fclose(f);
        FUZZ_ASSERT(escape_check_output(out, out_size, true));
        FUZZ_ASSERT(report_to_json(&report, boots[0], &j) >= 0 && j);
        {
                const char *json = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN);

                FUZZ_ASSERT(json && escape_check_output(json, strlen(json), false));
        }

        /* the fleet of the same entries: safe to show whatever they held */
        FUZZ_ASSERT(panels);
        FUZZ_ASSERT(fleet_build(&report, &fleet) >= 0);
        FUZZ_ASSERT(fleet.n <= 2 && fleet.n_groups <= fleet.n);
        free(out);
        out = NULL;
        out_size = 0;
        f = open_memstream(&out, &out_size);
        FUZZ_ASSERT(f);
        fleet_print(&fleet, f);
        fclose(f);
        FUZZ_ASSERT(escape_check_output(out, out_size, true));
        FUZZ_ASSERT(fleet_to_json(&fleet, &fj) >= 0 && fj);
        {
                const char *json = json_object_to_json_string_ext(fj, JSON_C_TO_STRING_PLAIN);

                FUZZ_ASSERT(json && escape_check_output(json, strlen(json), false));
        }
        n_panels = fleet_panels(&fleet, panels, note, sizeof(note));
        FUZZ_ASSERT(n_panels <= fleet.n_groups);
        if (n_panels > 0) {
                FUZZ_ASSERT(plot_svg("fuzz", panels, n_panels, note, &svg) == 0);
                /* the text the figure draws is escaped for XML */
                for (const char *c = svg; *c; c++)
                        FUZZ_ASSERT((unsigned char) *c >= 0x20 || *c == '\n');
        }
        fleet_done(&fleet);

        report_done(&report);
        return 0;
}
