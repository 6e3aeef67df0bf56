/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "scripted-source.h"
#include "time-util.h"

static void busy_wait(uint64_t nsec) {
        uint64_t end = now_nsec() + nsec;

        while (now_nsec() < end)
                ;
}

uint64_t splitmix64(uint64_t *state) {
        uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));

        z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
        return z ^ (z >> 31);
}

double splitmix64_double(uint64_t *state) {
        return (double) (splitmix64(state) >> 11) * 0x1.0p-53;
}

static uint64_t mask(unsigned width) {
        return width == 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
}

static bool script_draw(void *userdata, uint64_t *ret) {
        Script *s = userdata;
        uint64_t t = s->tries++;
        bool ok = true;
        uint64_t v = 0;

        if (t == 0 && s->first_delay_nsec)
                nanosleep(&(struct timespec) { .tv_sec = s->first_delay_nsec / 1000000000,
                                               .tv_nsec = s->first_delay_nsec % 1000000000 }, NULL);
        if (t == 0 && s->after) {
                uint64_t give_up = now_nsec() + 1000000000;

                while (atomic_load(&s->after->finished) < s->after_draws && now_nsec() < give_up)
                        sched_yield();
        }
        if (s->draw_nsec)
                busy_wait(s->draw_nsec);
        switch (s->kind) {
        case SCRIPT_HEALTHY:
                v = splitmix64(&s->rng) & mask(s->width);
                break;
        case SCRIPT_ALWAYS_FAIL:
                ok = false;
                break;
        case SCRIPT_RANDOM_FAIL:
                ok = splitmix64_double(&s->rng) >= s->rate;
                v = splitmix64(&s->rng) & mask(s->width);
                break;
        case SCRIPT_BURSTS:
                ok = t % (s->param + s->param2) >= s->param;
                v = splitmix64(&s->rng) & mask(s->width);
                break;
        case SCRIPT_STUCK:
                v = s->param & mask(s->width);
                break;
        case SCRIPT_ONES_AFTER:
                v = s->values >= s->param ? mask(s->width) : splitmix64(&s->rng) & mask(s->width);
                break;
        case SCRIPT_ZERO_RATE:
                v = splitmix64_double(&s->rng) < s->rate ? 0 : splitmix64(&s->rng) & mask(s->width);
                break;
        case SCRIPT_STUCK_BIT:
                v = splitmix64(&s->rng) & mask(s->width) & ~(UINT64_C(1) << s->param);
                v |= (s->param2 & 1) << s->param;
                break;
        case SCRIPT_VALUES:
                v = s->n_list > 0 ? s->list[s->values % s->n_list] & mask(s->width) : 0;
                break;
        case SCRIPT_SIGILL:
#if defined(__x86_64__) || defined(__i386__)
                __asm__ volatile("ud2");
#else
                __builtin_trap();
#endif
                break;
        }
        if (t < s->times_cap) {
                s->times[t] = now_nsec();
                s->oks[t] = ok;
        }
        atomic_fetch_add(&s->finished, 1);
        if (ok) {
                s->values++;
                *ret = v;
        }
        return ok;
}

void script_init(Script *s, ScriptKind kind, unsigned width, double rate, uint64_t param, uint64_t param2,
                 uint64_t seed) {
        *s = (Script) {
                .kind = kind,
                .width = width,
                .rate = rate,
                .param = param,
                .param2 = param2,
                .rng = seed,
                .source = {
                        .name = "scripted",
                        .instruction = RNG_SOURCE_RDSEED,
                        .width = width,
                        .draw = script_draw,
                },
        };
        s->source.userdata = s;
}

void script_init_values(Script *s, unsigned width, const uint64_t *list, size_t n) {
        script_init(s, SCRIPT_VALUES, width, 0, 0, 0, 0);
        s->list = list;
        s->n_list = n;
}

static void run_clear_timing(ProbeRun *r) {
        r->values_per_sec = r->bytes_per_sec = 0;
        r->wall_nsec = r->start_nsec = r->end_nsec = 0;
        r->window.span_nsec = r->window.nsec = 0;
        r->latency_samples = r->latency_median = r->latency_p99 = 0;
}

void script_report_clear_timing(ProbeReport *r) {
        r->wall_nsec = 0;
        for (int i = 0; i < _RNG_SOURCE_MAX; i++)
                for (unsigned j = 0; j < r->instr[i].n_runs; j++)
                        run_clear_timing(&r->instr[i].runs[j]);
}

static const RngSource *one_source(RngSourceId i, unsigned width, unsigned thread, void *userdata) {
        return &((Script *) userdata)->source;
}

void script_probe_values(unsigned width, const uint64_t *values, size_t n, ProbeReport *ret) {
        const bool cpuid[_RNG_SOURCE_MAX] = { true, true };
        ProbeParams p;
        Script s;

        script_init_values(&s, width, values, n);
        probe_params_default(&p);
        p.instructions = 1u << RNG_SOURCE_RDRAND;
        p.widths = 1u << rng_width_index(width);
        p.threads = 1;
        p.limits = (ProbeLimits) { .budget_usec = 0, .max_attempts = n, .min_attempts = n };
        p.source = one_source;
        p.source_userdata = &s;
        p.cpuid = cpuid;
        if (probe_run_all(&p, NULL, ret) < 0 || ret->instr[RNG_SOURCE_RDRAND].n_runs != 1 ||
            ret->instr[RNG_SOURCE_RDRAND].runs[0].attempts != n)
                abort();
        script_report_clear_timing(ret);
}

typedef struct Hook {
        Script scripts[_RNG_SOURCE_MAX][RNG_N_WIDTHS];
} Hook;

static const RngSource *hook_source(RngSourceId i, unsigned width, unsigned thread, void *userdata) {
        Hook *h = userdata;

        return &h->scripts[i][rng_width_index(width)].source;
}

static void make_report(ScriptKind rdseed, double rate, uint64_t param, const bool cpuid[2], bool hidden,
                        ProbeReport *ret) {
        static Hook h;
        ProbeParams p;

        for (int w = 0; w < RNG_N_WIDTHS; w++) {
                /* An instruction CPUID lacks raises SIGILL, unless hidden. */
                script_init(&h.scripts[RNG_SOURCE_RDRAND][w], cpuid[RNG_SOURCE_RDRAND] ? SCRIPT_HEALTHY : SCRIPT_SIGILL,
                            rng_widths[w], 0, 0, 0, 1 + w);
                script_init(&h.scripts[RNG_SOURCE_RDSEED][w], cpuid[RNG_SOURCE_RDSEED] || hidden ? rdseed : SCRIPT_SIGILL,
                            rng_widths[w], rate, param, 0, 7 + w);
        }
        probe_params_default(&p);
        p.threads = 1;
        p.limits = (ProbeLimits) { .budget_usec = 0, .max_attempts = 2048, .min_attempts = 2048 };
        p.source = hook_source;
        p.source_userdata = &h;
        p.cpuid = cpuid;
        if (probe_run_all(&p, NULL, ret) < 0)
                abort();
}

void script_make_report(ScriptKind rdseed, double rate, uint64_t param, const bool cpuid[2], ProbeReport *ret) {
        make_report(rdseed, rate, param, cpuid, false, ret);
}

void script_make_hidden_report(ScriptKind rdseed, double rate, uint64_t param, ProbeReport *ret) {
        make_report(rdseed, rate, param, (const bool[2]) { true, false }, true, ret);
}

