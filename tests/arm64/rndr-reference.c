/* SPDX-License-Identifier: GPL-2.0-or-later */

/* An independent minimal reference for tests/arm64/qemu-user-probe: reads
 * RNDR and RNDRRS N times each (default 1000), with no detection and no
 * SIGILL guard, and prints how many reads failed (PSTATE.Z set, the
 * register reads 0) and how many reads a second each loop made. Never
 * prints a value. On a CPU without FEAT_RNG the
 * first read raises SIGILL and the process dies of it: what the probe's
 * guard must spare rng-health. Written apart from service/, by the
 * architecture's definition: RNDR is s3_3_c2_c4_0, RNDRRS s3_3_c2_c4_1;
 * NZCV is 0b0000 on success, 0b0100 on failure. */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int read_rndr(unsigned long *v) {
        int ok;
        __asm__ volatile("mrs %0, s3_3_c2_c4_0\n\tcset %w1, ne" : "=r"(*v), "=r"(ok) : : "cc");
        return ok;
}

static int read_rndrrs(unsigned long *v) {
        int ok;
        __asm__ volatile("mrs %0, s3_3_c2_c4_1\n\tcset %w1, ne" : "=r"(*v), "=r"(ok) : : "cc");
        return ok;
}

static double now_sec(void) {
        struct timespec t;

        clock_gettime(CLOCK_MONOTONIC, &t);
        return (double) t.tv_sec + (double) t.tv_nsec / 1e9;
}

/* n reads of one register: failures, and reads per second over the loop. */
static long count(int (*read)(unsigned long *), long n, double *rate) {
        unsigned long v;
        long failed = 0;
        double t0 = now_sec(), dt;

        for (long i = 0; i < n; i++)
                failed += !read(&v);
        dt = now_sec() - t0;
        *rate = dt > 0 ? (double) n / dt : 0;
        return failed;
}

int main(int argc, char *argv[]) {
        long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
        long fail_rndr, fail_rndrrs;
        double rate_rndr, rate_rndrrs;

        if (n < 1)
                return 2;
        fail_rndr = count(read_rndr, n, &rate_rndr);
        fail_rndrrs = count(read_rndrrs, n, &rate_rndrrs);
        printf("RNDR %ld of %ld failed\nRNDRRS %ld of %ld failed\n", fail_rndr, n, fail_rndrrs, n);
        printf("RNDR reads/s %.0f\nRNDRRS reads/s %.0f\n", rate_rndr, rate_rndrrs);
        return 0;
}
