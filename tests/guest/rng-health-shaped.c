/* SPDX-License-Identifier: GPL-2.0-or-later */

/* rng-health-shaped SHAPE monitor|probe [OPTIONS]: the daemon, or the
 * probe, on scripted sources shaped like hardware measured in the field,
 * for the boot tests (tests/guest/rng-health-shapes) and the host's
 * (tests/host/probe-shapes.sh: the probe's exit status). Built with -Dinstall-tests=true and
 * installed by the rng-health-tests package only: rng-health itself has no
 * way to select a source.
 *
 * Shapes:
 *   xeon              An Intel Xeon (16 vCPUs): RDSEED fails 71.6 % of
 *                     tries alone and 98.4 % while other threads draw,
 *                     independent tries; RDRAND never fails.
 *   zen5-zeros        AMD Zen5 below the fixed microcode (AMD-SB-7055):
 *                     RDSEED16/32 return 0 with CF=1 for 10 % of values;
 *                     RDSEED64 and RDRAND healthy.
 *   rdrand-exhausted  RDRAND fails in bursts of 12 tries (the kernel's
 *                     10-try loop runs out once per burst), then delivers
 *                     20 values; RDSEED healthy.
 *   zen5-hidden       AMD Zen5 under Linux >= 6.12: the kernel logged
 *                     "RDSEED32 is broken" and cleared RDSEED's CPUID bit;
 *                     the instruction still executes and 95 % of its tries
 *                     fail (independent); RDRAND healthy.
 *   zen3              AMD Zen3: both instructions healthy.
 *
 * The hwrng device (both instructions healthy, the kernel's current device
 * virtio_rng.0 credited in full, as on this project's build machines and
 * in the image's VM; its CRNG ready at 4.310 s, from the CPU):
 *   hwrng-stuck       every byte 0x5a
 *   hwrng-repeat      one block of 256 random bytes, again and again
 *   hwrng-slow        random bytes at 10 kB/s, as this build machine's
 *                     virtio-rng delivers them
 *   hwrng-healthy     random bytes, as fast as asked */

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-monitor.h"
#include "cli-probe.h"
#include "monitor.h"
#include "scripted-source.h"
#include "time-util.h"

#define MAX_THREADS 1024

typedef enum Shape {
        SHAPE_XEON,
        SHAPE_ZEN5_ZEROS,
        SHAPE_RDRAND_EXHAUSTED,
        SHAPE_ZEN5_HIDDEN,
        SHAPE_ZEN3,
        SHAPE_HWRNG_STUCK,
        SHAPE_HWRNG_REPEAT,
        SHAPE_HWRNG_SLOW,
        SHAPE_HWRNG_HEALTHY,
        _SHAPE_MAX,
} Shape;

static const char *const shape_names[_SHAPE_MAX] = {
        [SHAPE_XEON] = "xeon",
        [SHAPE_ZEN5_ZEROS] = "zen5-zeros",
        [SHAPE_RDRAND_EXHAUSTED] = "rdrand-exhausted",
        [SHAPE_ZEN5_HIDDEN] = "zen5-hidden",
        [SHAPE_ZEN3] = "zen3",
        [SHAPE_HWRNG_STUCK] = "hwrng-stuck",
        [SHAPE_HWRNG_REPEAT] = "hwrng-repeat",
        [SHAPE_HWRNG_SLOW] = "hwrng-slow",
        [SHAPE_HWRNG_HEALTHY] = "hwrng-healthy",
};

typedef struct Contended {
        uint64_t rng;
        unsigned thread;
        RngSource source;
} Contended;

static Shape shape;
static ScriptDevice device;
static Script scripts[_RNG_SOURCE_MAX][RNG_N_WIDTHS][MAX_THREADS];
static Contended contended[RNG_N_WIDTHS][MAX_THREADS];
/* When each thread last drew from a shaped RDSEED (CLOCK_MONOTONIC ns). */
static _Atomic uint64_t last_draw[MAX_THREADS];

/* Whether another thread drew within the last 50 us: the generator is shared. */
static bool others_drawing(unsigned self, uint64_t now) {
        for (unsigned t = 0; t < MAX_THREADS; t++)
                if (t != self && now - atomic_load_explicit(&last_draw[t], memory_order_relaxed) < 50000)
                        return true;
        return false;
}

static bool xeon_rdseed_draw(void *userdata, uint64_t *ret) {
        Contended *c = userdata;
        uint64_t now = now_nsec();
        double p = others_drawing(c->thread, now) ? 0.984 : 0.716;

        atomic_store_explicit(&last_draw[c->thread], now, memory_order_relaxed);
        if (splitmix64_double(&c->rng) < p)
                return false;
        *ret = splitmix64(&c->rng) & (c->source.width == 64 ? UINT64_MAX : (UINT64_C(1) << c->source.width) - 1);
        return true;
}

static const RngSource *shaped_source(RngSourceId i, unsigned width, unsigned thread, void *userdata) {
        int w = rng_width_index(width);
        uint64_t seed = 1000003u * (unsigned) i + 1009u * (unsigned) w + thread;
        Script *s;

        if (i == RNG_SOURCE_HWRNG)
                return &device.source;
        if (w < 0 || thread >= MAX_THREADS)
                return NULL;
        if (shape == SHAPE_XEON && i == RNG_SOURCE_RDSEED) {
                Contended *c = &contended[w][thread];

                *c = (Contended) {
                        .rng = seed,
                        .thread = thread,
                        .source = { .name = "xeon-rdseed", .instruction = i, .width = width, .draw = xeon_rdseed_draw },
                };
                c->source.userdata = c;
                return &c->source;
        }
        s = &scripts[i][w][thread];
        if (shape == SHAPE_ZEN5_ZEROS && i == RNG_SOURCE_RDSEED && width < 64)
                script_init(s, SCRIPT_ZERO_RATE, width, 0.1, 0, 0, seed);
        else if (shape == SHAPE_RDRAND_EXHAUSTED && i == RNG_SOURCE_RDRAND)
                script_init(s, SCRIPT_BURSTS, width, 0, 12, 20, seed);
        else if (shape == SHAPE_ZEN5_HIDDEN && i == RNG_SOURCE_RDSEED)
                script_init(s, SCRIPT_RANDOM_FAIL, width, 0.95, 0, 0, seed);
        else
                script_init(s, SCRIPT_HEALTHY, width, 0, 0, 0, seed);
        s->source.instruction = i;
        return &s->source;
}

/* No hwrng device and no boot loader's seed, as the kernel view reads
 * them where it can (a zeroed state would be "unknown": not read). */
#define NO_DEVICE_NO_SEED                                                                                      \
        [RNG_SOURCE_HWRNG] = { .state = KERNEL_STATE_ABSENT, .reason_id = "no-device",                       \
                               .reason = "no device registered with the hwrng core",                         \
                               .credit = { .known = true, .why = "no device" } },                            \
        [RNG_SOURCE_BOOT_SEED] = { .state = KERNEL_STATE_ABSENT, .reason_id = "none",                        \
                                   .reason = "no seed from the boot loader",                                 \
                                   .credit = { .known = true, .why = "none passed" } }

int main(int argc, char *argv[]) {
        static const bool cpuid[_RNG_SOURCE_MAX] = { true, true }, cpuid_hidden[_RNG_SOURCE_MAX] = { true, false };
        /* The kernel of such a machine: both enabled, a stock kernel's loops
         * (RDRAND 10 tries, RDSEED one). */
        static const KernelState kernel = {
                .instr = { [RNG_SOURCE_RDRAND] = { .state = KERNEL_STATE_ENABLED },
                           [RNG_SOURCE_RDSEED] = { .state = KERNEL_STATE_ENABLED },
                           NO_DEVICE_NO_SEED },
                .log = KERNEL_LOG_NOT_NEEDED,
        };
        /* Zen5's: RDSEED hidden, with the kernel's own line as the reason
         * (as kernel_state_build() makes it from the kernel log). */
        static const KernelState kernel_hidden = {
                .instr = { [RNG_SOURCE_RDRAND] = { .state = KERNEL_STATE_ENABLED },
                           [RNG_SOURCE_RDSEED] = { .state = KERNEL_STATE_HIDDEN, .reason_id = "zen5-rdseed32",
                                                   .reason = "RDSEED32 is broken. Disabling the corresponding CPUID bit.",
                                                   .reason_source = KERNEL_REASON_KERNEL_LOG },
                           NO_DEVICE_NO_SEED },
                .log = KERNEL_LOG_READ,
        };
        /* With the hwrng device: virtio_rng.0, credited in full, fed by
         * the host; no boot loader's seed; the CRNG ready from the CPU. */
        static const bool cpuid_hwrng[_RNG_SOURCE_MAX] = {
                [RNG_SOURCE_RDRAND] = true, [RNG_SOURCE_RDSEED] = true, [RNG_SOURCE_HWRNG] = true };
        static const KernelState kernel_hwrng = {
                .instr = {
                        [RNG_SOURCE_RDRAND] = { .state = KERNEL_STATE_ENABLED },
                        [RNG_SOURCE_RDSEED] = { .state = KERNEL_STATE_ENABLED },
                        [RNG_SOURCE_HWRNG] = { .state = KERNEL_STATE_ENABLED,
                                               .credit = { .known = true, .credited = true, .host_fed = true,
                                                           .quality = 1024, .device = "virtio_rng.0",
                                                           .available = "virtio_rng.0 none",
                                                           .why = "rng_quality, until the CRNG is ready" } },
                        [RNG_SOURCE_BOOT_SEED] = { .state = KERNEL_STATE_ABSENT, .reason_id = "none",
                                                   .reason = "no seed from the boot loader",
                                                   .credit = { .known = true, .why = "none passed" } },
                },
                .log = KERNEL_LOG_NOT_NEEDED,
                .boot = { .read = true, .cmdline_seen = true, .crng_ready = true, .crng_ready_usec = 4310123,
                          .crng_stage = KERNEL_CRNG_STAGE_CPU },
        };
        ProbeSourceHook hook = { .source = shaped_source, .cpuid = cpuid, .kernel = &kernel };

        if (argc < 3 || (strcmp(argv[2], "monitor") != 0 && strcmp(argv[2], "probe") != 0)) {
                fprintf(stderr, "usage: rng-health-shaped xeon|zen5-zeros|rdrand-exhausted|zen5-hidden|zen3|"
                        "hwrng-stuck|hwrng-repeat|hwrng-slow|hwrng-healthy monitor|probe [OPTIONS]\n");
                return EXIT_MONITOR_USAGE;
        }
        for (shape = 0; shape < _SHAPE_MAX; shape++)
                if (strcmp(argv[1], shape_names[shape]) == 0)
                        break;
        if (shape == _SHAPE_MAX) {
                fprintf(stderr, "rng-health-shaped: unknown shape '%s'\n", argv[1]);
                return EXIT_MONITOR_USAGE;
        }
        if (shape == SHAPE_ZEN5_HIDDEN) {
                hook.cpuid = cpuid_hidden;
                hook.kernel = &kernel_hidden;
        }
        if (shape >= SHAPE_HWRNG_STUCK) {
                static const struct {
                        ScriptDeviceKind kind;
                        uint64_t param;
                } dev[] = {
                        [SHAPE_HWRNG_STUCK - SHAPE_HWRNG_STUCK] = { SCRIPT_DEVICE_STUCK, 0x5a },
                        [SHAPE_HWRNG_REPEAT - SHAPE_HWRNG_STUCK] = { SCRIPT_DEVICE_REPEAT, 256 },
                        [SHAPE_HWRNG_SLOW - SHAPE_HWRNG_STUCK] = { SCRIPT_DEVICE_SLOW, 10240 },
                        [SHAPE_HWRNG_HEALTHY - SHAPE_HWRNG_STUCK] = { SCRIPT_DEVICE_HEALTHY, 0 },
                };

                script_device_init(&device, RNG_SOURCE_HWRNG, dev[shape - SHAPE_HWRNG_STUCK].kind,
                                   dev[shape - SHAPE_HWRNG_STUCK].param, 4242);
                hook.cpuid = cpuid_hwrng;
                hook.kernel = &kernel_hwrng;
        } else
                /* The other shapes have no device: never read. */
                script_device_init(&device, RNG_SOURCE_HWRNG, SCRIPT_DEVICE_ERROR, ENODEV, 1);
        if (strcmp(argv[2], "probe") == 0)
                return verb_probe_hooked(argc - 2, argv + 2, &hook);
        return verb_monitor_hooked(argc - 2, argv + 2, &hook);
}
