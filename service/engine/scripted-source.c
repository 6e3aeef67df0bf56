/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "macro.h"
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

static void fill(uint64_t *rng, uint8_t *buf, size_t len) {
        for (size_t k = 0; k < len; k += 8) {
                uint64_t v = splitmix64(rng);

                memcpy(buf + k, &v, MIN((size_t) 8, len - k));
        }
}

static void sleep_until(uint64_t nsec) {
        struct timespec ts = { .tv_sec = (time_t) (nsec / 1000000000u), .tv_nsec = (long) (nsec % 1000000000u) };

        (void) clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static ssize_t device_read(void *userdata, uint8_t *buf, size_t len, uint64_t deadline) {
        ScriptDevice *d = userdata;
        uint64_t start = now_nsec();
        size_t got = 0;

        d->reads++;
        switch (d->kind) {
        case SCRIPT_DEVICE_HEALTHY:
                fill(&d->rng, buf, len);
                got = len;
                break;
        case SCRIPT_DEVICE_STUCK:
                memset(buf, (int) (d->param & 0xff), len);
                got = len;
                break;
        case SCRIPT_DEVICE_REPEAT:
                for (; got < len; got += MIN(len - got, (size_t) d->param))
                        memcpy(buf + got, d->block, MIN(len - got, (size_t) d->param));
                break;
        case SCRIPT_DEVICE_SLOW:
                /* param bytes per second from the start, in steps of 1 ms. */
                for (;;) {
                        uint64_t now = now_nsec();
                        size_t due = (size_t) MIN((double) len, (double) (now - start) * 1e-9 * (double) d->param);

                        if (due > got) {
                                fill(&d->rng, buf + got, due - got);
                                got = due;
                        }
                        if (got >= len || now >= deadline)
                                break;
                        sleep_until(MIN(now + 1000000, deadline));
                }
                break;
        case SCRIPT_DEVICE_SILENT:
                sleep_until(deadline);
                break;
        case SCRIPT_DEVICE_ERROR:
                return -(ssize_t) d->param;
        }
        d->bytes += got;
        return (ssize_t) got;
}

void script_device_init(ScriptDevice *d, RngSourceId id, ScriptDeviceKind kind, uint64_t param, uint64_t seed) {
        *d = (ScriptDevice) {
                .kind = kind,
                .param = kind == SCRIPT_DEVICE_REPEAT ? MAX((uint64_t) 1, MIN(param, (uint64_t) sizeof(d->block))) : param,
                .rng = seed,
                .source = { .name = "scripted-device", .instruction = id, .width = 64, .read = device_read },
        };
        d->source.userdata = d;
        fill(&d->rng, d->block, sizeof(d->block));
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
#elif defined(__aarch64__)
                __asm__ volatile("udf #0"); /* SIGILL, as an mrs of RNDR without FEAT_RNG */
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
                        .instruction = script_cpu_instruction(1),
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

RngSourceId script_cpu_instruction(unsigned k) {
        FOREACH_RNG_SOURCE_OF_KIND(id, RNG_KIND_CPU_INSTRUCTION)
                if (k-- == 0)
                        return id;
        abort(); /* a build without two CPU instructions has no scripted reports */
}

void script_probe_values(unsigned width, const uint64_t *values, size_t n, ProbeReport *ret) {
        const RngSourceId first = script_cpu_instruction(0);
        bool cpuid[_RNG_SOURCE_MAX] = {};
        ProbeParams p;
        Script s;

        cpuid[first] = cpuid[script_cpu_instruction(1)] = true;
        script_init_values(&s, width, values, n);
        probe_params_default(&p);
        p.instructions = 1u << first;
        p.widths = 1u << rng_width_index(width);
        p.threads = 1;
        p.limits = (ProbeLimits) { .budget_usec = 0, .max_attempts = n, .min_attempts = n };
        p.source = one_source;
        p.source_userdata = &s;
        p.cpuid = cpuid;
        if (probe_run_all(&p, NULL, ret) < 0 || ret->instr[first].n_runs != 1 ||
            ret->instr[first].runs[0].attempts != n)
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

void script_make_report_of(ScriptKind first, double first_rate, uint64_t first_param, uint64_t first_param2,
                           ScriptKind second,
                           double rate, uint64_t param, const bool cpuid[_RNG_SOURCE_MAX], bool hidden,
                           ProbeReport *ret) {
        static Hook h;
        const RngSourceId a = script_cpu_instruction(0), b = script_cpu_instruction(1);
        ProbeParams p;

        for (int w = 0; w < RNG_N_WIDTHS; w++) {
                /* An instruction CPUID lacks raises SIGILL, unless hidden. */
                script_init(&h.scripts[a][w], cpuid[a] ? first : SCRIPT_SIGILL, rng_widths[w], first_rate,
                            first_param, first_param2, 1 + w);
                script_init(&h.scripts[b][w], cpuid[b] || hidden ? second : SCRIPT_SIGILL, rng_widths[w], rate,
                            param, 0, 7 + w);
                h.scripts[a][w].source.instruction = a;
                h.scripts[b][w].source.instruction = b;
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

void script_make_report(ScriptKind rdseed, double rate, uint64_t param, const bool cpuid[_RNG_SOURCE_MAX], ProbeReport *ret) {
        script_make_report_of(SCRIPT_HEALTHY, 0, 0, 0, rdseed, rate, param, cpuid, false, ret);
}

void script_make_hidden_report(ScriptKind rdseed, double rate, uint64_t param, ProbeReport *ret) {
        bool cpuid[_RNG_SOURCE_MAX] = {};

        cpuid[script_cpu_instruction(0)] = true;
        script_make_report_of(SCRIPT_HEALTHY, 0, 0, 0, rdseed, rate, param, cpuid, true, ret);
}

