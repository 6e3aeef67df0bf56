/* SPDX-License-Identifier: GPL-2.0-or-later */

/* report's journal fields: report_add_entry() on entries built from the
 * input, then report_print() and report_to_json() of the result (into
 * memory). Entries are separated by an empty line; in each, the first byte
 * picks one of four boots, the rest are "FIELD=value" lines as the journal
 * gives them. Checked: -EINVAL exactly without MESSAGE_ID, -EBADMSG counted
 * as malformed and nothing else changed, 0 otherwise; no more boots than
 * entries taken; every instruction's failures within its attempts; an
 * exit status of -1 or 0..255; the kernel failure sum never decreases; the
 * text and the JSON are safe to show and valid UTF-8 whatever the fields
 * hold (escape-check.h). */

#include <errno.h>

#include "escape-check.h"
#include "fuzz-util.h"
#include "macro.h"
#include "probe-json.h"
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
                        FUZZ_ASSERT(b->instr[k].failures <= b->instr[k].attempts);
                        FUZZ_ASSERT(b->instr[k].failure_rate >= 0 && b->instr[k].failure_rate <= 1);
                        FUZZ_ASSERT(b->instr[k].kernel_retries <= UINT32_MAX);
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
        _cleanup_json_ struct json_object *j = NULL;
        _cleanup_free_ char *out = NULL;
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
                        fields_from(data + 1, len - 1, &fields);
                        realtime += (uint64_t) data[0] * 1000000u;
                        r = report_add_entry(&report, boots[data[0] & 3], realtime, &fields);
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

        report_done(&report);
        return 0;
}
