/* SPDX-License-Identifier: GPL-2.0-or-later */

/* JSON and table output of a report built from scripted sources: schema,
 * counts that add up, and no drawn value ever appears in the output. */

#include <stdio.h>
#include <string.h>

#include "format-util.h"
#include "macro.h"
#include "probe-json-run.h"
#include "probe-json.h"
#include "probe-table.h"
#include "scripted-source.h"
#include "test-util.h"

typedef struct Hook {
        Script scripts[2][3];
} Hook;

static const RngSource *hook_source(RngSourceId i, unsigned width, unsigned thread, void *userdata) {
        Hook *h = userdata;
        return &h->scripts[i][rng_width_index(width)].source;
}

static struct json_object *get(struct json_object *o, const char *key) {
        struct json_object *v = NULL;

        CHECK(json_object_object_get_ex(o, key, &v), "missing key %s", key);
        return v;
}

/* The values the scripted sources drew, replayed, must not occur in the text. */
static void check_no_values(const char *text, uint64_t seed, unsigned n) {
        for (unsigned i = 0; i < n; i++) {
                uint64_t v = splitmix64(&seed);
                char dec[32], hex[32];

                snprintf(dec, sizeof(dec), "%" PRIu64, v);
                snprintf(hex, sizeof(hex), "%" PRIx64, v);
                CHECK(!strstr(text, dec) && !strstr(text, hex), "value %u leaked into the output", i);
        }
}

/* RDSEED hidden (not in CPUID, executes, fails 95 %): verdict hidden, the
 * runs and the hardware verdict shown, the probe's verdict RDRAND's. */
static void check_hidden(ProbeParams *p, Hook *h) {
        _cleanup_json_ struct json_object *j = NULL;
        struct json_object *rd, *parsed;
        ProbeReport rep;
        char *table = NULL;
        size_t len = 0;
        FILE *f;

        for (int w = 0; w < 3; w++) {
                script_init(&h->scripts[0][w], SCRIPT_HEALTHY, rng_widths[w], 0, 0, 0, 77);
                script_init(&h->scripts[1][w], SCRIPT_RANDOM_FAIL, rng_widths[w], 0.95, 0, 0, 78);
        }
        CHECK_EQ_INT(probe_run_all(p, NULL, &rep), 0);
        CHECK_EQ_INT(rep.verdict, VERDICT_OK);
        CHECK_EQ_INT(probe_report_to_json(&rep, NULL, &j), 0);
        parsed = json_tokener_parse(json_object_to_json_string(j));
        CHECK(parsed != NULL, "hidden: output does not parse");
        if (!parsed)
                return;
        CHECK(strcmp(json_object_get_string(get(parsed, "verdict")), "ok") == 0, "hidden: probe verdict");
        CHECK_EQ_INT(json_object_get_int(get(parsed, "exit_code")), 0);
        rd = json_object_array_get_idx(get(parsed, "instructions"), 1);
        CHECK(!json_object_get_boolean(get(rd, "cpuid")), "hidden: cpuid");
        CHECK(json_object_get_boolean(get(rd, "executed")), "hidden: executed");
        CHECK(strcmp(json_object_get_string(get(rd, "verdict")), "hidden") == 0, "hidden: verdict");
        CHECK(strcmp(json_object_get_string(get(rd, "hardware_verdict")), "exhausted") == 0, "hidden: hardware");
        CHECK_EQ_INT(json_object_array_length(get(rd, "runs")), 3);
        json_object_put(parsed);

        f = open_memstream(&table, &len);
        CHECK(f != NULL, "open_memstream");
        if (!f)
                return;
        probe_report_print_table(&rep, f);
        fclose(f);
        CHECK(strstr(table, "\nhidden       RDSEED") != NULL, "hidden row");
        CHECK(strstr(table, "RDSEED is hidden: CPUID does not advertise it, yet it executes") != NULL, "hidden note");
        CHECK(strstr(table, "hardware\nverdict exhausted") != NULL, "hidden: hardware verdict in the note");
        free(table);
}

/* --count 1 (MaxAttempts 1, MinAttempts the default 1024): params say
 * what each run did, min_attempts 1 beside max_attempts 1, not 1024. */
static void check_params_effective(Hook *h) {
        _cleanup_json_ struct json_object *j = NULL;
        const bool cpuid[_RNG_SOURCE_MAX] = { true, true };
        struct json_object *parsed, *params, *run;
        ProbeReport rep;
        ProbeParams p;

        for (int w = 0; w < 3; w++) {
                script_init(&h->scripts[0][w], SCRIPT_HEALTHY, rng_widths[w], 0, 0, 0, 77);
                script_init(&h->scripts[1][w], SCRIPT_HEALTHY, rng_widths[w], 0, 0, 0, 78);
        }
        probe_params_default(&p);
        p.threads = 1;
        p.limits.max_attempts = 1;
        p.limits.budget_usec = 0;
        p.source = hook_source;
        p.source_userdata = h;
        p.cpuid = cpuid;
        CHECK_EQ_U64(p.limits.min_attempts, 1024);
        CHECK_EQ_INT(probe_run_all(&p, NULL, &rep), 0);
        CHECK_EQ_U64(rep.limits.min_attempts, 1);
        CHECK_EQ_INT(probe_report_to_json(&rep, NULL, &j), 0);
        parsed = json_tokener_parse(json_object_to_json_string(j));
        CHECK(parsed != NULL, "params: output does not parse");
        if (!parsed)
                return;
        params = get(parsed, "params");
        CHECK_EQ_INT(json_object_get_int64(get(params, "max_attempts")), 1);
        CHECK_EQ_INT(json_object_get_int64(get(params, "min_attempts")), 1);
        run = json_object_array_get_idx(get(json_object_array_get_idx(get(parsed, "instructions"), 0), "runs"), 0);
        CHECK_EQ_INT(json_object_get_int64(get(run, "attempts")), 1);
        json_object_put(parsed);

        /* no cap (--duration alone): the minimum stands */
        p.limits = (ProbeLimits) { .budget_usec = 1, .max_attempts = 0, .min_attempts = 1024 };
        p.widths = 1u << 2;
        p.instructions = 1u << RNG_SOURCE_RDRAND;
        CHECK_EQ_INT(probe_run_all(&p, NULL, &rep), 0);
        CHECK_EQ_U64(rep.limits.min_attempts, 1024);
        CHECK(rep.instr[RNG_SOURCE_RDRAND].runs[0].attempts >= 1024, "%" PRIu64 " tries", rep.instr[RNG_SOURCE_RDRAND].runs[0].attempts);
}

/* A sweep of scripted sources: the JSON's points add up and parse; the
 * table has a row per point. */
static void check_sweep(Hook *h) {
        _cleanup_json_ struct json_object *j = NULL;
        _cleanup_free_ ProbeSweepReport *rep = malloc(sizeof(ProbeSweepReport));
        struct json_object *parsed, *sweeps, *points;
        const bool cpuid[_RNG_SOURCE_MAX] = { true, true };
        char *table = NULL;
        size_t len = 0;
        ProbeParams p;
        FILE *f;

        CHECK(rep != NULL, "malloc");
        if (!rep)
                return;
        for (int w = 0; w < 3; w++) {
                script_init(&h->scripts[0][w], SCRIPT_HEALTHY, rng_widths[w], 0, 0, 0, 77);
                script_init(&h->scripts[1][w], SCRIPT_BURSTS, rng_widths[w], 0, 12, 20, 78);
        }
        probe_params_default(&p);
        p.threads = 1;
        p.instructions = 1u << RNG_SOURCE_RDSEED;
        p.widths = 1u << 1;
        p.limits = (ProbeLimits) { .budget_usec = 0, .max_attempts = 3200, .min_attempts = 0 };
        p.source = hook_source;
        p.source_userdata = h;
        p.cpuid = cpuid;
        p.verdict.kernel_retries = 10;
        CHECK_EQ_INT(probe_sweep(&p, NULL, rep), 0);
        CHECK_EQ_INT(probe_sweep_to_json(rep, &j), 0);
        parsed = json_tokener_parse(json_object_to_json_string(j));
        CHECK(parsed != NULL, "sweep: output does not parse");
        if (!parsed)
                return;
        CHECK(strcmp(json_object_get_string(get(parsed, "schema")), "rng-health.probe/3") == 0, "sweep schema");
        CHECK(strcmp(json_object_get_string(get(parsed, "kind")), "sweep") == 0, "sweep kind");
        {
                struct json_object *ins = get(parsed, "instructions");
                size_t n = json_object_array_length(ins);

                /* Each source with its kind, as in a probe's report. */
                CHECK(n > 0, "sweep: no sources");
                for (size_t k = 0; k < n; k++)
                        CHECK(json_object_get_string(get(json_object_array_get_idx(ins, k), "kind")), "sweep: source %zu without a kind", k);
        }
        sweeps = get(parsed, "sweeps");
        CHECK_EQ_INT(json_object_array_length(sweeps), 1);
        points = get(json_object_array_get_idx(sweeps, 0), "points");
        CHECK_EQ_INT(json_object_array_length(points), 1);
        if (json_object_array_length(points) == 1) {
                struct json_object *pt = json_object_array_get_idx(points, 0);

                CHECK_EQ_INT(json_object_get_int(get(pt, "threads")), 1);
                CHECK_EQ_INT(json_object_get_int64(get(pt, "attempts")), 3200);
                /* Over the window: after the first try, which failed (1199 of 3199). */
                CHECK(json_object_get_double(get(pt, "failure_rate")) == 1199.0 / 3199, "sweep: failure rate %g",
                      json_object_get_double(get(pt, "failure_rate")));
                CHECK(json_object_get_double(get(pt, "kernel_loop_failure_rate")) == 100.0 / 2100,
                      "sweep: loop failure rate %g", json_object_get_double(get(pt, "kernel_loop_failure_rate")));
                CHECK(json_object_get_double(get(pt, "overlap")) == 1.0, "sweep: one thread overlaps itself");
        }
        json_object_put(parsed);

        f = open_memstream(&table, &len);
        CHECK(f != NULL, "open_memstream");
        if (!f)
                return;
        probe_sweep_print_table(rep, f);
        fclose(f);
        CHECK(strncmp(table, "Sweep: 1 instruction form in", 28) == 0, "sweep table: %.40s", table);
        CHECK(strstr(table, "\nRDSEED 32-bit (kernel: unknown") != NULL, "sweep heading");
        CHECK(strstr(table, "KLOOP(10)") != NULL, "sweep: kernel loop column");
        CHECK(strstr(table, "\n      1        3200   37.48%") != NULL, "sweep row:\n%s", table);
        free(table);
}

/* A device's run that read nothing says 0 bytes, not null (null: an
 * instruction's run, which reads no bytes). */
static void check_run_bytes(void) {
        _cleanup_json_ struct json_object *dev = NULL, *ins = NULL;
        ProbeRun r = { .instruction = RNG_SOURCE_HWRNG, .width = 64, .mode = PROBE_SINGLE, .threads = 1,
                       .bytes = 0, .verdict = VERDICT_DEGRADED };
        struct json_object *b;

        CHECK_EQ_INT(probe_run_to_json(&r, &dev), 0);
        CHECK(json_object_object_get_ex(dev, "bytes", &b) && b && json_object_get_int64(b) == 0,
              "device run of 0 bytes: %s", json_object_to_json_string(dev));
        r.instruction = RNG_SOURCE_RDRAND;
        CHECK_EQ_INT(probe_run_to_json(&r, &ins), 0);
        CHECK(json_object_object_get_ex(ins, "bytes", &b) && !b, "instruction run: bytes not null");
}

int main(void) {
        _cleanup_json_ struct json_object *j = NULL, *parsed = NULL;
        const bool cpuid[_RNG_SOURCE_MAX] = { true, false };
        struct json_object *instrs, *rd, *runs, *run, *hist;
        char *table = NULL;
        size_t table_len = 0;
        FILE *f;
        ProbeParams p;
        ProbeReport rep;
        Hook h = {};

        for (int w = 0; w < 3; w++) {
                script_init(&h.scripts[0][w], SCRIPT_HEALTHY, rng_widths[w], 0, 0, 0, 77);
                /* CPUID lacks RDSEED, and the CPU too. */
                script_init(&h.scripts[1][w], SCRIPT_SIGILL, rng_widths[w], 0, 0, 0, 78);
        }
        /* Bursts at 64 bits so that histogram and verdict are non-trivial. */
        script_init(&h.scripts[0][2], SCRIPT_BURSTS, 64, 0, 12, 20, 77);

        probe_params_default(&p);
        p.threads = 1;
        p.limits = (ProbeLimits) { .budget_usec = 0, .max_attempts = 1024, .min_attempts = 0 };
        p.source = hook_source;
        p.source_userdata = &h;
        p.cpuid = cpuid;
        CHECK_EQ_INT(probe_run_all(&p, NULL, &rep), 0);
        CHECK_EQ_INT(rep.verdict, VERDICT_EXHAUSTED);

        CHECK_EQ_INT(probe_report_to_json(&rep, NULL, &j), 0);
        const char *text = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN);
        parsed = json_tokener_parse(text);
        CHECK(parsed != NULL, "output does not parse");
        if (!parsed)
                return test_result("test-json");

        CHECK(strcmp(json_object_get_string(get(parsed, "schema")), "rng-health.probe/3") == 0, "schema");
        CHECK(strcmp(json_object_get_string(get(parsed, "kind")), "probe") == 0, "kind");
        CHECK(strcmp(json_object_get_string(get(parsed, "verdict")), "exhausted") == 0, "verdict");
        CHECK_EQ_INT(json_object_get_int(get(parsed, "exit_code")), 3);
        instrs = get(parsed, "instructions");
        CHECK_EQ_INT(json_object_array_length(instrs), _RNG_SOURCE_MAX);
        /* The sources that are no instruction: their kind, and nothing run
         * where they are not there. */
        for (int k = 2; k < _RNG_SOURCE_MAX; k++) {
                struct json_object *o = json_object_array_get_idx(instrs, k);

                CHECK(strcmp(json_object_get_string(get(o, "kind")),
                             rng_source_kind_to_string(rng_source_desc(k)->kind)) == 0, "kind of %d", k);
                CHECK(!json_object_get_boolean(get(o, "executed")), "%d executed", k);
        }

        rd = json_object_array_get_idx(instrs, 0);
        CHECK(strcmp(json_object_get_string(get(rd, "name")), "rdrand") == 0, "name");
        CHECK(json_object_get_boolean(get(rd, "executed")), "executed");
        CHECK(strcmp(json_object_get_string(get(get(rd, "kernel"), "state")), "unknown") == 0, "kernel state");
        runs = get(rd, "runs");
        CHECK_EQ_INT(json_object_array_length(runs), 3);
        for (size_t i = 0; i < json_object_array_length(runs); i++) {
                int64_t sum = 0;

                run = json_object_array_get_idx(runs, i);
                CHECK(json_object_is_type(get(run, "attempts"), json_type_int), "attempts is an integer");
                CHECK(json_object_is_type(get(run, "failure_rate"), json_type_double), "failure_rate is a double");
                CHECK_EQ_INT(json_object_get_int64(get(run, "attempts")),
                             json_object_get_int64(get(run, "failures")) + json_object_get_int64(get(run, "delivered")));
                CHECK(json_object_is_type(get(run, "window"), json_type_null), "single run has no window");
                CHECK(json_object_is_type(get(run, "contended"), json_type_null), "single run: contended null");
                CHECK(json_object_is_type(get(run, "kernel_loop_failure_rate"), json_type_double), "loop rate");
                hist = get(run, "tries_histogram");
                CHECK_EQ_INT(json_object_array_length(hist), PROBE_HIST_BUCKETS);
                for (size_t b = 0; b < json_object_array_length(hist); b++)
                        sum += json_object_get_int64(get(json_object_array_get_idx(hist, b), "values"));
                CHECK_EQ_INT(sum, json_object_get_int64(get(run, "delivered")));
        }
        run = json_object_array_get_idx(runs, 2);
        CHECK(strcmp(json_object_get_string(get(run, "verdict")), "exhausted") == 0, "64-bit run verdict");
        CHECK_EQ_INT(json_object_get_int64(get(run, "longest_failure_streak")), 12);

        /* RDSEED: unsupported (SIGILL), never executed but for the guarded try, no runs. */
        rd = json_object_array_get_idx(instrs, 1);
        CHECK(!json_object_get_boolean(get(rd, "cpuid")), "rdseed cpuid");
        CHECK(!json_object_get_boolean(get(rd, "executed")), "rdseed executed");
        CHECK(strcmp(json_object_get_string(get(rd, "verdict")), "unsupported") == 0, "rdseed verdict");
        CHECK_EQ_INT(json_object_array_length(get(rd, "runs")), 0);
        CHECK(strcmp(json_object_get_string(get(get(rd, "kernel"), "reason_source")), "none") == 0 ||
              strcmp(json_object_get_string(get(get(rd, "kernel"), "reason_source")), "cpu") == 0, "reason_source");

        /* Table: verdicts first, aligned rows, no values. */
        f = open_memstream(&table, &table_len);
        CHECK(f != NULL, "open_memstream");
        if (f) {
                probe_report_print_table(&rep, f);
                fclose(f);
                CHECK(strncmp(table, "Verdict: exhausted", 18) == 0, "table starts with the verdict: %.40s", table);
                CHECK(strstr(table, "\nexhausted    RDRAND") != NULL, "instruction row");
                CHECK(strstr(table, "\nunsupported  RDSEED") != NULL, "unsupported row");
                check_no_values(table, 77, 3 * 1024);
                free(table);
        }
        /* Plurals: "1 CPU", not "1 CPUs"; and only where a contention
         * run was made (an hwrng-only probe once said "contention runs on 2
         * CPUs"). */
        for (int n = 0; n <= 2; n++) {
                ProbeMode mode = rep.instr[0].runs[0].mode;

                table = NULL;
                rep.cpus.contention = true;
                rep.instr[0].runs[0].mode = n > 0 ? PROBE_CONTENTION : PROBE_SINGLE;
                CPU_ZERO(&rep.cpus.used);
                for (int c = 0; c < n; c++)
                        CPU_SET(c, &rep.cpus.used);
                f = open_memstream(&table, &table_len);
                CHECK(f != NULL, "open_memstream");
                if (!f)
                        break;
                probe_report_print_table(&rep, f);
                fclose(f);
                rep.instr[0].runs[0].mode = mode;
                CHECK(strstr(table, n == 0   ? "no contention run: no source probed that contends)\n"
                                    : n == 1 ? "contention runs on 1 CPU)\n"
                                             : "contention runs on 2 CPUs)\n"),
                      "%.80s", table);
                free(table);
        }
        check_no_values(text, 77, 3 * 1024);

        check_hidden(&p, &h);
        check_run_bytes();
        check_sweep(&h);
        check_params_effective(&h);

        /* format_si */
        char b[16];
        CHECK(strcmp(format_si(25400000, b, sizeof(b)), "25.4M") == 0, "25.4M: %s", b);
        CHECK(strcmp(format_si(999, b, sizeof(b)), "999") == 0, "999: %s", b);
        CHECK(strcmp(format_si(1000, b, sizeof(b)), "1.00k") == 0, "1.00k: %s", b);
        /* 2^64-1 (a counter's largest): "18.4E", not "18446744T" */
        CHECK(strcmp(format_si((double) UINT64_MAX, b, sizeof(b)), "18.4E") == 0, "2^64-1: %s", b);
        CHECK(strcmp(format_si(2.5e15, b, sizeof(b)), "2.50P") == 0, "2.5e15: %s", b);
        CHECK(strcmp(format_si(3e21, b, sizeof(b)), "3.0e+21") == 0, "3e21: %s", b);

        return test_result("test-json");
}
