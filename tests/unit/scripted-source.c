/* SPDX-License-Identifier: GPL-2.0-or-later */

#include "scripted-source.h"

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
        }
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
                        .instruction = RNG_RDSEED,
                        .width = width,
                        .draw = script_draw,
                },
        };
        s->source.userdata = s;
}
