/* SPDX-License-Identifier: GPL-2.0-or-later */

/* One run as JSON (doc/probe-json.md: instructions[].runs[], the sweep's
 * points): its counts, output checks, window and latency. */

#include <errno.h>

#include "json-util.h"
#include "macro.h"
#include "probe-json-run.h"
#include "probe-summary.h"

/* Per bit position: ones counted, and which positions failed. The counts
 * only over at least bit_min_samples values: fewer give values away
 * (health.h); null then. */
static int bits_to_json(const HealthResult *h, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL, *ones = NULL, *failed = NULL;
        bool shown = health_bits_shown(h);
        int r;

        if ((r = json_new_object(&o)) < 0 || (r = json_new_array(&failed)) < 0 ||
            (shown && (r = json_new_array(&ones)) < 0))
                return r;
        for (unsigned b = 0; b < 64; b++) {
                if (shown && b < h->width)
                        JSON_ADD(ones, NULL, JSON_U64(h->bit_ones[b]));
                if (h->failed_bits & (UINT64_C(1) << b))
                        JSON_ADD(failed, NULL, json_object_new_int((int) b));
        }
        JSON_ADD(o, "min_samples", JSON_U64(h->bit_min_samples));
        JSON_ADD(o, "low_cutoff", JSON_U64(h->bit_low_cutoff));
        JSON_ADD(o, "high_cutoff", JSON_U64(h->bit_high_cutoff));
        JSON_ADD(o, "failed_bits", TAKE_PTR(failed));
        JSON_ADD(o, "worst_bit", shown ? JSON_U64(h->worst_bit) : NULL);
        JSON_ADD(o, "worst_bit_ones", shown ? JSON_U64(h->bit_ones[h->worst_bit & 63]) : NULL);
        JSON_ADD(o, "ones", TAKE_PTR(ones));
        *ret = TAKE_PTR(o);
        return 0;
}

static int health_to_json(const HealthResult *h, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL, *failed = NULL, *bits = NULL;
        int r;

        if ((r = json_new_object(&o)) < 0 || (r = json_new_array(&failed)) < 0 || (r = bits_to_json(h, &bits)) < 0)
                return r;
        for (unsigned b = 1; b & _HEALTH_CHECK_ALL; b <<= 1)
                if (h->failed & b)
                        JSON_ADD(failed, NULL, json_object_new_string(health_check_to_string(b)));
        JSON_ADD(o, "passed", json_object_new_boolean(h->failed == 0));
        JSON_ADD(o, "failed_checks", TAKE_PTR(failed));
        JSON_ADD(o, "samples", JSON_U64(h->samples));
        /* the counts only where their check can fail (health.h) */
        JSON_ADD(o, "rate_min_samples", JSON_U64(h->rate_min_samples));
        JSON_ADD(o, "zeros", health_rates_shown(h) ? JSON_U64(h->zeros) : NULL);
        JSON_ADD(o, "zeros_cutoff", JSON_U64(h->zeros_cutoff));
        JSON_ADD(o, "all_ones", health_rates_shown(h) ? JSON_U64(h->all_ones) : NULL);
        JSON_ADD(o, "all_ones_cutoff", JSON_U64(h->all_ones_cutoff));
        JSON_ADD(o, "repeats", JSON_U64(h->repeats));
        JSON_ADD(o, "repeats_cutoff", JSON_U64(h->repeats_cutoff));
        JSON_ADD(o, "rct_cutoff", JSON_U64(h->rct_cutoff));
        JSON_ADD(o, "rct_longest_run", JSON_U64(h->rct_longest_run));
        JSON_ADD(o, "rct_failures", JSON_U64(h->rct_failures));
        JSON_ADD(o, "apt_window", JSON_U64(h->apt_window));
        JSON_ADD(o, "apt_cutoff", JSON_U64(h->apt_cutoff));
        JSON_ADD(o, "apt_windows", JSON_U64(h->apt_windows));
        JSON_ADD(o, "apt_max_count", JSON_U64(h->apt_max_count));
        JSON_ADD(o, "apt_failures", JSON_U64(h->apt_failures));
        JSON_ADD(o, "kernel_selftest_changes", JSON_U64(h->selftest_changes));
        JSON_ADD(o, "bit_balance", TAKE_PTR(bits));
        *ret = TAKE_PTR(o);
        return 0;
}

/* A contention run's common window; *ret NULL (JSON null) for a single run. */
int probe_run_window_to_json(const ProbeRun *r, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL;
        int k;

        *ret = NULL;
        if (r->mode != PROBE_CONTENTION)
                return 0;
        k = json_new_object(&o);
        if (k < 0)
                return k;
        JSON_ADD(o, "span_usec", JSON_U64(r->window.span_nsec / 1000));
        JSON_ADD(o, "usec", JSON_U64(r->window.nsec / 1000));
        JSON_ADD(o, "overlap", JSON_DBL(r->window.overlap));
        JSON_ADD(o, "attempts", JSON_U64(r->window.attempts));
        JSON_ADD(o, "failures", JSON_U64(r->window.failures));
        JSON_ADD(o, "delivered", JSON_U64(r->window.delivered));
        JSON_ADD(o, "kernel_loop_failures", JSON_U64(r->window.kernel_loop_failures));
        *ret = TAKE_PTR(o);
        return 0;
}

/* The kernel's exhausted counters' growth over a contention run; *ret
 * NULL (JSON null) without counters. */
int probe_run_kernel_during_to_json(const ProbeRun *r, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL;
        int k;

        *ret = NULL;
        if (!r->have_kernel_counters)
                return 0;
        k = json_new_object(&o);
        if (k < 0)
                return k;
        /* the sources the kernel counts */
        FOREACH_RNG_SOURCE(i)
                if (rng_source_desc(i)->kernel.counters)
                        JSON_ADD(o, rng_source_name(i), JSON_U64(probe_run_kernel_exhausted(r, i)));
        *ret = TAKE_PTR(o);
        return 0;
}

static int histogram_to_json(const ProbeRun *r, struct json_object **ret) {
        _cleanup_json_ struct json_object *hist = NULL;
        int k;

        k = json_new_array(&hist);
        if (k < 0)
                return k;
        for (unsigned b = 0; b < PROBE_HIST_BUCKETS; b++) {
                _cleanup_json_ struct json_object *e = NULL;
                uint64_t max = probe_hist_max(b);

                k = json_new_object(&e);
                if (k < 0)
                        return k;
                JSON_ADD(e, "min_tries", JSON_U64(probe_hist_min[b]));
                JSON_ADD(e, "max_tries", max == UINT64_MAX ? NULL : JSON_U64(max));
                JSON_ADD(e, "values", JSON_U64(r->hist[b]));
                JSON_ADD(hist, NULL, TAKE_PTR(e));
        }
        *ret = TAKE_PTR(hist);
        return 0;
}

/* [low, high] of the failure rate's 95 % interval. */
int probe_run_ci_to_json(const ProbeRun *r, struct json_object **ret) {
        _cleanup_json_ struct json_object *ci = NULL;
        int k;

        k = json_new_array(&ci);
        if (k < 0)
                return k;
        JSON_ADD(ci, NULL, JSON_DBL(r->failure_ci_low));
        JSON_ADD(ci, NULL, JSON_DBL(r->failure_ci_high));
        *ret = TAKE_PTR(ci);
        return 0;
}

/* Counter ticks per try (TSC cycles on x86-64, CNTVCT_EL0 ticks on arm64:
 * "unit"); *ret NULL (JSON null) where not timed. */
static int latency_to_json(const ProbeRun *r, struct json_object **ret) {
        _cleanup_json_ struct json_object *lat = NULL;
        int k;

        *ret = NULL;
        if (r->latency_samples == 0 || !rng_arch_supported())
                return 0;
        k = json_new_object(&lat);
        if (k < 0)
                return k;
        JSON_ADD(lat, "samples", JSON_U64(r->latency_samples));
        JSON_ADD(lat, "median", JSON_U64(r->latency_median));
        JSON_ADD(lat, "p99", JSON_U64(r->latency_p99));
        JSON_ADD(lat, "unit", json_object_new_string(RNG_TIMER_UNIT));
        *ret = TAKE_PTR(lat);
        return 0;
}

int probe_run_to_json(const ProbeRun *r, struct json_object **ret) {
        _cleanup_json_ struct json_object *o = NULL, *hist = NULL, *ci = NULL, *lat = NULL, *window = NULL,
                                          *during = NULL, *health = NULL;
        int k;

        if ((k = json_new_object(&o)) < 0 || (k = histogram_to_json(r, &hist)) < 0 || (k = probe_run_ci_to_json(r, &ci)) < 0 ||
            (k = latency_to_json(r, &lat)) < 0 || (k = probe_run_window_to_json(r, &window)) < 0 ||
            (k = probe_run_kernel_during_to_json(r, &during)) < 0 || (k = health_to_json(&r->health, &health)) < 0)
                return k;
        JSON_ADD(o, "width", json_object_new_int((int) r->width));
        JSON_ADD(o, "mode", JSON_STR(probe_mode_to_string(r->mode)));
        JSON_ADD(o, "threads", json_object_new_int((int) r->threads));
        JSON_ADD(o, "package", r->package >= 0 ? json_object_new_int(r->package) : NULL);
        JSON_ADD(o, "verdict", JSON_STR(verdict_to_string(r->verdict)));
        JSON_ADD(o, "attempts", JSON_U64(r->attempts));
        JSON_ADD(o, "failures", JSON_U64(r->failures));
        JSON_ADD(o, "delivered", JSON_U64(r->delivered));
        JSON_ADD(o, "failure_rate", JSON_DBL(r->failure_rate));
        JSON_ADD(o, "failure_rate_ci95", TAKE_PTR(ci));
        JSON_ADD(o, "longest_failure_streak", JSON_U64(r->longest_failure_streak));
        JSON_ADD(o, "trailing_failures", JSON_U64(r->trailing_failures));
        JSON_ADD(o, "kernel_retries", JSON_U64(r->kernel_retries));
        JSON_ADD(o, "values_over_kernel_retries", JSON_U64(r->values_over_retries));
        JSON_ADD(o, "kernel_loop_failures", JSON_U64(r->kernel_loop_failures));
        JSON_ADD(o, "kernel_loop_failure_rate", JSON_DBL(r->kernel_loop_failure_rate));
        JSON_ADD(o, "tries_histogram", TAKE_PTR(hist));
        JSON_ADD(o, "wall_usec", JSON_U64(r->wall_nsec / 1000));
        JSON_ADD(o, "window", TAKE_PTR(window));
        JSON_ADD(o, "contended", r->mode == PROBE_CONTENTION ? json_object_new_boolean(r->contended) : NULL);
        JSON_ADD(o, "kernel_exhausted_during", TAKE_PTR(during));
        JSON_ADD(o, "values_per_sec", JSON_DBL(r->values_per_sec));
        JSON_ADD(o, "bytes_per_sec", JSON_DBL(r->bytes_per_sec));
        /* a device's run: what it read, 0 included; an instruction's: null */
        JSON_ADD(o, "bytes", rng_source_desc(r->instruction)->kind == RNG_KIND_HWRNG_DEVICE ? JSON_U64(r->bytes) : NULL);
        JSON_ADD(o, "latency_tsc_cycles", TAKE_PTR(lat));
        JSON_ADD(o, "health", TAKE_PTR(health));
        *ret = TAKE_PTR(o);
        return 0;
}
