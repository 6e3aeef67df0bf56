/* SPDX-License-Identifier: GPL-2.0-or-later */

/* An independent minimal reference for tests/arm64/qemu-user-probe: reads
 * RNDR and RNDRRS N times each (default 1000), with no detection and no
 * SIGILL guard, and prints how many reads failed (PSTATE.Z set, the
 * register reads 0). Never prints a value. On a CPU without FEAT_RNG the
 * first read raises SIGILL and the process dies of it: what the probe's
 * guard must spare rng-health. Written apart from service/, by the
 * architecture's definition: RNDR is s3_3_c2_c4_0, RNDRRS s3_3_c2_c4_1;
 * NZCV is 0b0000 on success, 0b0100 on failure. */

#include <stdio.h>
#include <stdlib.h>

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

int main(int argc, char *argv[]) {
        long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
        long fail_rndr = 0, fail_rndrrs = 0;
        unsigned long v;

        if (n < 1)
                return 2;
        for (long i = 0; i < n; i++) {
                fail_rndr += !read_rndr(&v);
                fail_rndrrs += !read_rndrrs(&v);
        }
        printf("RNDR %ld of %ld failed\nRNDRRS %ld of %ld failed\n", fail_rndr, n, fail_rndrrs, n);
        return 0;
}
