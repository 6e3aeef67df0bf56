/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The STATUS= text's one home (status.h): the line around the fragments,
 * the join, the kernel watch's fragment and the daemon's other states, in
 * the words `systemctl status rng-health` has always shown. (The probe's
 * fragment is tested with probes in cli/test-report.c.) */

#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "status.h"
#include "test-util.h"

static void check_str(char *got, const char *want) {
        CHECK(got && strcmp(got, want) == 0, "'%s', expected '%s'", got ?: "(null)", want);
        free(got);
}

static void test_line(void) {
        check_str(status_format_line("A ok", NULL, NULL, NULL, false), "A ok");
        check_str(status_format_line(NULL, NULL, NULL, NULL, false), "");
        check_str(status_format_line("A ok", "broken", NULL, NULL, false), "FAILED (FailOn=broken): A ok");
        check_str(status_format_line("A ok", NULL, NULL, "tdx", false), "A ok; confidential VM: tdx");
        check_str(status_format_line("A ok", "exhausted", "CRNG ready", "forced", true),
                  "FAILED (FailOn=exhausted): A ok; CRNG ready; confidential VM: forced; configuration error on "
                  "reload, previous configuration kept (see journalctl -u rng-health)");
        check_str(status_format_line("A ok", NULL, "", NULL, false), "A ok");
}

static void test_join(void) {
        const char *f[] = { "probe: a", NULL, "", "kernel: b" };

        check_str(status_join(f, ELEMENTSOF(f)), "probe: a; kernel: b");
        check_str(status_join(f + 1, 2), "");
        check_str(status_join(f, 0), "");
}

static void test_kernel(void) {
        StatusKernelSource s[_RNG_SOURCE_MAX] = {};

        check_str(status_format_kernel(s, true, false), "kernel: no RNG failures");
        check_str(status_format_kernel(s, false, false), "kernel: no RNG failures logged");
        check_str(status_format_kernel(s, true, true), "kernel: no RNG failures; no journal: kernel messages not followed");
#if RNG_SOURCES_X86_64
        s[RNG_SOURCE_RDSEED] = (StatusKernelSource) { .failures = 3, .waiting = 2 };
        s[RNG_SOURCE_RDRAND] = (StatusKernelSource) { .own = 4, .disabled = true, .defective = true };
        check_str(status_format_kernel(s, true, false),
                  "kernel: RDRAND exhausted 4x during rng-health's own probe, RDRAND disabled, RDRAND defective, "
                  "RDSEED exhausted 3x (the kernel seeds from RDRAND instead; 2 of them recorded in the journal "
                  "when the routine interval ends)");
        char buf[96];

        CHECK(strcmp(status_probing(buf, sizeof(buf)), "Probing RDRAND/RDSEED/HWRNG/BOOT_SEED...") == 0, "%s", buf);
#endif
}

static void test_fixed(void) {
        CHECK(strcmp(STATUS_STOPPING, "Stopping.") == 0, "stopping");
        CHECK(strcmp(STATUS_RELOADING, "Reloading configuration...") == 0, "reloading");
        CHECK(strcmp(STATUS_KERNEL_NOT_WATCHED, "kernel: not watched (journal not readable)") == 0, "not watched");
        CHECK(strcmp(STATUS_PROBE_FAILED_ON_RELOAD, "probe failed on reload (see journalctl -u rng-health)") == 0,
              "reload");
}

int main(void) {
        test_line();
        test_join();
        test_kernel();
        test_fixed();
        return test_result("test-status");
}
