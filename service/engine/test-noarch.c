/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Built with -DRNG_NO_X86_64 -DRNG_NO_ARM64 against a library built the
 * same way: the paths of architectures without draw code. Every instruction is
 * unsupported, nothing is executed, the probe still succeeds. */

#include "probe.h"
#include "rng-source.h"
#include "test-util.h"

int main(void) {
        ProbeParams p;
        ProbeReport rep;

        CHECK(!RNG_ARCH_X86_64, "built for x86-64 paths");
        CHECK(!RNG_ARCH_ARM64, "built for arm64 paths");
        CHECK(!rng_arch_supported(), "arch supported");
        FOREACH_RNG_SOURCE(i) {
                CHECK(!rng_source_advertised(i), "CPUID claims %s", rng_source_name(i));
                /* The devices are read by every build. */
                for (int w = 0; w < RNG_N_WIDTHS; w++)
                        CHECK((rng_source_hardware(i, rng_widths[w]) == NULL) ==
                              (rng_source_desc(i)->kind != RNG_KIND_HWRNG_DEVICE),
                              "%s: draw code", rng_source_name(i));
        }

        probe_params_default(&p);
        p.threads = 1;
        CHECK_EQ_INT(probe_run_all(&p, NULL, &rep), 0);
        CHECK(!rep.arch_supported, "report says arch supported");
        for (int i = 0; i < _RNG_SOURCE_MAX; i++) {
                CHECK(!rep.instr[i].cpuid, "cpuid");
                CHECK_EQ_U64(rep.instr[i].n_runs, 0);
                CHECK_EQ_INT(rep.instr[i].verdict, VERDICT_UNSUPPORTED);
        }
        CHECK_EQ_INT(rep.verdict, VERDICT_UNSUPPORTED);
        CHECK_EQ_INT(probe_report_exit_status(&rep, NULL), 0);
        return test_result("test-noarch");
}
