/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The source table as text, for the check that the documentation agrees
 * with it (tests/host/check-source-docs); built, never installed. One line
 * per source:
 *   source NAME DISPLAY KIND ARCHITECTURE TRIES_STOCK TRIES_SERIES
 * then the confidential VM's FailOn= default as the daemon writes it:
 *   fail-on-cvm WORD... */

#include <stdio.h>

#include "fail-on.h"
#include "sources.h"

int main(void) {
        FailOn cvm = fail_on_cvm_default();
        char buf[512];

        FOREACH_RNG_SOURCE(i) {
                const RngSourceDesc *d = rng_source_desc(i);

                printf("source %s %s %s %s %u %u\n", d->name, d->display_name, rng_source_kind_to_string(d->kind),
                       rng_architecture_to_string(d->architecture), d->kernel.tries_stock, d->kernel.tries_series);
        }
        fail_on_format(&cvm, buf, sizeof(buf));
        printf("fail-on-cvm %s\n", buf);
        return fflush(stdout) == 0 ? 0 : 1;
}
