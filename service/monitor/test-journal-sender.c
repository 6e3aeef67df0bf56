/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The one rule for reading rng-health's events
 * back (journal-sender.h), on the trusted field values. Entries read from
 * a real journal are checked in the container (tests/guest/rng-health-forged). */

#include <stdlib.h>
#include <string.h>

#include "journal-sender.h"
#include "macro.h"
#include "test-util.h"

static void test_match(void) {
        const JournalSender any = { RNG_HEALTH_UNIT, JOURNAL_SENDER_ANY_UID }, self = { RNG_HEALTH_UNIT, 61234 };
        static const struct {
                const char *transport, *unit, *uid;
                bool any, self;
        } cases[] = {
                /* the daemon's events */
                { "journal", "rng-health.service", "61234", true, true },
                { "journal", "rng-health.service", "0", true, false }, /* root's, not the daemon's uid */
                /* forgeries: another unit or uid (logger --journald, systemd-run -p User=nobody) */
                { "journal", "run-u7.service", "65534", false, false },
                { "journal", "session-1.scope", "61234", false, false },
                { "journal", "user@1000.service", "1000", false, false },
                { "journal", "rng-health-test.service", "0", false, false },
                { "journal", "rng-health.service.bak", "61234", false, false },
                { "journal", "rng-health", "61234", false, false },
                { "journal", "", "61234", false, false },
                /* not sent with sd_journal_sendv(): syslog, stdout, the kernel */
                { "syslog", "rng-health.service", "61234", false, false },
                { "stdout", "rng-health.service", "61234", false, false },
                { "kernel", "rng-health.service", "61234", false, false },
                { "Journal", "rng-health.service", "61234", false, false },
                /* a field missing (journald could not read the cgroup): fail closed */
                { NULL, "rng-health.service", "61234", false, false },
                { "journal", NULL, "61234", false, false },
                { "journal", "rng-health.service", NULL, false, false },
                /* a uid that is no uid */
                { "journal", "rng-health.service", "", false, false },
                { "journal", "rng-health.service", "-1", false, false },
                { "journal", "rng-health.service", "4294967295", false, false },
                { "journal", "rng-health.service", "61234x", false, false },
                { "journal", "rng-health.service", "99999999999999999999", false, false },
        };

        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                CHECK(journal_sender_match(&any, cases[i].transport, cases[i].unit, cases[i].uid) == cases[i].any,
                      "case %zu (any uid)", i);
                CHECK(journal_sender_match(&self, cases[i].transport, cases[i].unit, cases[i].uid) == cases[i].self,
                      "case %zu (uid 61234)", i);
        }
        CHECK(!journal_sender_match(NULL, "journal", "rng-health.service", "0"), "NULL want");
        CHECK(!journal_sender_match(&(JournalSender) { NULL, 0 }, "journal", "rng-health.service", "0"), "no unit");
}

int main(void) {
        test_match();
        return test_result("test-journal-sender");
}
