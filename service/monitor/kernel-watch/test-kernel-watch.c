/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The kernel watch's pure parts: the kernel message parser (good and bad
 * input), the sysfs counter parser and reader, and the event fields. The
 * journal-following part is tested in the VM (tests/guest/kernel-*). */

#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include "journal-ids.h"
#include "kernel-counters.h"
#include "kernel-rng-msg.h"
#include "kernel-watch.h"
#include "macro.h"
#include "test-util.h"

static int parse(const char *s, KernelRngMsg *m) {
        return kernel_rng_msg_parse(s, strlen(s), m);
}

static void test_exhausted(void) {
        KernelRngMsg m;

        CHECK_EQ_INT(parse("x86/rng: RDSEED exhausted after 10 tries on CPU 1", &m), 1);
        CHECK_EQ_INT(m.kind, KERNEL_RNG_MSG_EXHAUSTED);
        CHECK_EQ_INT(m.instruction, RNG_SOURCE_RDSEED);
        CHECK(m.have_cpu, "cpu expected");
        CHECK_EQ_INT(m.cpu, 1);
        CHECK_EQ_INT(m.tries, 10);

        CHECK_EQ_INT(parse("x86/rng: RDRAND exhausted after 10 tries on CPU 4095\n", &m), 1);
        CHECK_EQ_INT(m.instruction, RNG_SOURCE_RDRAND);
        CHECK_EQ_INT(m.cpu, 4095);

        CHECK_EQ_INT(parse("x86/rng: RDSEED exhausted after 4294967295 tries on CPU 0", &m), 1);
        CHECK_EQ_INT(m.tries, UINT_MAX);

        /* Series v4: RDSEED's one line of the boot, with a note. */
        CHECK_EQ_INT(parse("x86/rng: RDSEED exhausted after 10 tries on CPU 2; logged once per boot\n", &m), 1);
        CHECK_EQ_INT(m.instruction, RNG_SOURCE_RDSEED);
        CHECK_EQ_INT(m.cpu, 2);
        /* Series v3's longer note. */
        CHECK_EQ_INT(parse("x86/rng: RDSEED exhausted after 10 tries on CPU 3; logged once per boot, "
                           "counted in /sys/devices/system/cpu/rng/rdseed/exhausted, "
                           "traced by x86_rng:x86_rng_exhausted\n",
                           &m),
                     1);
        CHECK_EQ_INT(m.kind, KERNEL_RNG_MSG_EXHAUSTED);
        CHECK_EQ_INT(m.instruction, RNG_SOURCE_RDSEED);
        CHECK(m.have_cpu, "cpu expected");
        CHECK_EQ_INT(m.cpu, 3);
        CHECK_EQ_INT(m.tries, 10);
        /* The note's text is not ABI: any note is accepted. */
        CHECK_EQ_INT(parse("x86/rng: RDRAND exhausted after 7 tries on CPU 0; x", &m), 1);
        CHECK_EQ_INT(m.instruction, RNG_SOURCE_RDRAND);
        CHECK_EQ_INT(m.tries, 7);
}

static void test_bad_input(void) {
        static const char *const bad[] = {
                "",
                "x86/rng:",
                "x86/rng: RDSEED exhausted after 10 tries on CPU",
                "x86/rng: RDSEED exhausted after 10 tries on CPU x",
                "x86/rng: RDSEED exhausted after 10 tries on CPU 1 and more",
                /* a note is "; " and at least one byte */
                "x86/rng: RDSEED exhausted after 10 tries on CPU 1;",
                "x86/rng: RDSEED exhausted after 10 tries on CPU 1; ",
                "x86/rng: RDSEED exhausted after 10 tries on CPU 1;logged once per boot",
                "x86/rng: RDSEED exhausted after 10 tries on CPU 1 ; logged once per boot",
                "x86/rng: RDSEED exhausted after 10 tries on CPU 1, logged once per boot",
                "x86/rng: RDSEED exhausted after 10 tries on CPU ; logged once per boot",
                "x86/rng: RDSEED exhausted after 10 tries on CPU 1x; logged once per boot",
                "x86/rng: RDSEED exhausted; logged once per boot",
                "x86/rng: RDSEED exhausted after -1 tries on CPU 1",
                "x86/rng: RDSEED exhausted after 4294967296 tries on CPU 1", /* overflow */
                "x86/rng: RDSEEDX exhausted after 10 tries on CPU 1",
                "x86/rng: rdseed exhausted after 10 tries on CPU 1",
                " x86/rng: RDSEED exhausted after 10 tries on CPU 1",
                "RDRAND failed to initialise",
                "xRDRAND failed",
                "random: crng init done",
                "RDRAND is defective. Or not",
        };
        KernelRngMsg m;

        for (size_t i = 0; i < ELEMENTSOF(bad); i++)
                CHECK(parse(bad[i], &m) == 0, "'%s' must not match", bad[i]);

        /* Bounded by len: the match must not read the NUL-free tail. */
        CHECK_EQ_INT(kernel_rng_msg_parse("x86/rng: RDSEED exhausted after 10 tries on CPU 12345",
                                          strlen("x86/rng: RDSEED exhausted after 10 tries on CPU 1"), &m), 1);
        CHECK_EQ_INT(m.cpu, 1);
        /* ... also where the note would begin: "; " cut to ";" is no note. */
        CHECK_EQ_INT(kernel_rng_msg_parse("x86/rng: RDSEED exhausted after 10 tries on CPU 1; note",
                                          strlen("x86/rng: RDSEED exhausted after 10 tries on CPU 1;"), &m),
                     0);
        CHECK_EQ_INT(kernel_rng_msg_parse("x86/rng: RDSEED exhausted after 10 tries on CPU 1; note",
                                          strlen("x86/rng: RDSEED exhausted after 10 tries on CPU 1; n"), &m),
                     1);
        /* Embedded NUL and non-UTF-8 bytes. */
        CHECK_EQ_INT(kernel_rng_msg_parse("RDRAND failed\0junk", 18, &m), 0);
        CHECK_EQ_INT(kernel_rng_msg_parse("\xff\xfe\x80 RDSEED failed", 17, &m), 0);
        CHECK_EQ_INT(kernel_rng_msg_parse(NULL, 0, &m), -EINVAL);
        CHECK_EQ_INT(kernel_rng_msg_parse("x", 1, NULL), -EINVAL);

        /* A huge record. */
        {
                size_t n = 1 << 20;
                char *big = malloc(n);

                CHECK(big, "malloc");
                if (big) {
                        memset(big, 'A', n);
                        CHECK_EQ_INT(kernel_rng_msg_parse(big, n, &m), 0);
                        memcpy(big + n - strlen("RDRAND is defective."), "RDRAND is defective.",
                               strlen("RDRAND is defective."));
                        CHECK_EQ_INT(kernel_rng_msg_parse(big, n, &m), 1);
                        free(big);
                }
        }
}

static void test_other_kinds(void) {
        KernelRngMsg m;

        CHECK_EQ_INT(parse("RDRAND failed", &m), 1);
        CHECK_EQ_INT(m.kind, KERNEL_RNG_MSG_FAILED);
        CHECK_EQ_INT(m.instruction, RNG_SOURCE_RDRAND);
        CHECK(!m.have_cpu, "no cpu for 0002's message");
        CHECK_EQ_INT(parse("RDSEED failed\n", &m), 1);
        CHECK_EQ_INT(m.instruction, RNG_SOURCE_RDSEED);

        CHECK_EQ_INT(parse("RDSEED32 is broken. Disabling the corresponding CPUID bit.", &m), 1);
        CHECK_EQ_INT(m.kind, KERNEL_RNG_MSG_DISABLED);
        CHECK_EQ_INT(m.instruction, RNG_SOURCE_RDSEED);
        CHECK(m.reason && strcmp(m.reason->id, "zen5-rdseed32") == 0, "zen5 reason");
        CHECK_EQ_INT(parse("RDRAND is not reliable on this platform; disabling.", &m), 1);
        CHECK_EQ_INT(m.instruction, RNG_SOURCE_RDRAND);
        CHECK_EQ_INT(parse("RDSEED is not reliable on this platform; disabling.", &m), 1);
        CHECK_EQ_INT(m.instruction, RNG_SOURCE_RDSEED);

        CHECK_EQ_INT(parse("Kernel panic - not syncing: RDRAND is defective.", &m), 1);
        CHECK_EQ_INT(m.kind, KERNEL_RNG_MSG_DEFECTIVE);
}

static void test_counter_parse(void) {
        uint64_t v;

        CHECK_EQ_INT(kernel_counter_parse("0\n", 2, &v), 0);
        CHECK_EQ_U64(v, 0);
        CHECK_EQ_INT(kernel_counter_parse("18446744073709551615\n", 21, &v), 0);
        CHECK_EQ_U64(v, UINT64_MAX);
        CHECK_EQ_INT(kernel_counter_parse("18446744073709551616", 20, &v), -EINVAL);
        CHECK_EQ_INT(kernel_counter_parse("", 0, &v), -EINVAL);
        CHECK_EQ_INT(kernel_counter_parse("\n", 1, &v), -EINVAL);
        CHECK_EQ_INT(kernel_counter_parse("-1\n", 3, &v), -EINVAL);
        CHECK_EQ_INT(kernel_counter_parse(" 1", 2, &v), -EINVAL);
        CHECK_EQ_INT(kernel_counter_parse("12a", 3, &v), -EINVAL);
        CHECK_EQ_INT(kernel_counter_parse("1\n\n", 3, &v), -EINVAL);
}

static int write_file(const char *path, const char *text) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        ssize_t n;

        if (fd < 0)
                return -errno;
        n = write(fd, text, strlen(text));
        close(fd);
        return n == (ssize_t) strlen(text) ? 0 : -EIO;
}

static void test_counters_read(void) {
        char root[] = "/tmp/test-kernel-watch-XXXXXX", path[4096];
        const char *values[2][2] = { { "3\n", "1\n" }, { "42\n", "7\n" } };
        KernelCounters c;

        CHECK(mkdtemp(root), "mkdtemp");
        CHECK_EQ_INT(kernel_counters_read(root, &c), -ENOENT);

        snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/rng", root);
        {
                char cmd[4200];

                snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
                CHECK(system(cmd) == 0, "mkdir");
        }
        /* One flat directory: <instruction>_retried, <instruction>_exhausted. */
        for (int i = 0; i < 2; i++) {
                const char *instr = i == 0 ? "rdrand" : "rdseed";

                snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/rng/%s_retried", root, instr);
                CHECK_EQ_INT(write_file(path, values[i][0]), 0);
                snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/rng/%s_exhausted", root, instr);
                CHECK_EQ_INT(write_file(path, values[i][1]), 0);
        }
        CHECK_EQ_INT(kernel_counters_read(root, &c), 0);
        CHECK_EQ_U64(c.retried[RNG_SOURCE_RDRAND], 3);
        CHECK_EQ_U64(c.exhausted[RNG_SOURCE_RDRAND], 1);
        CHECK_EQ_U64(c.retried[RNG_SOURCE_RDSEED], 42);
        CHECK_EQ_U64(c.exhausted[RNG_SOURCE_RDSEED], 7);

        /* A malformed value fails the read, naming nothing silently. */
        snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/rng/rdseed_exhausted", root);
        CHECK_EQ_INT(write_file(path, "7 junk\n"), 0);
        CHECK_EQ_INT(kernel_counters_read(root, &c), -EINVAL);
        CHECK_EQ_INT(write_file(path, "123456789012345678901234567890\n"), 0);
        CHECK_EQ_INT(kernel_counters_read(root, &c), -EINVAL);

        {
                char cmd[4200];

                snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
                CHECK(system(cmd) == 0, "cleanup");
        }
}

static void test_event_fields(void) {
        EventFields f = {};
        KernelEventInfo in = {
                .kind = KERNEL_RNG_MSG_EXHAUSTED,
                .instruction = RNG_SOURCE_RDSEED,
                .messages = 3,
                .count = 12,
                .have_counters = true,
                .exhausted_total = 12,
                .retried_total = 15,
                .have_cpu = true,
                .cpu = 1,
                .tries = 10,
                .kernel_message = "x86/rng: RDSEED exhausted after 10 tries on CPU 1",
                .state_serial = 5,
        };
        const char *v;

        CHECK_EQ_INT(event_kernel(&f, &in), 0);
        v = event_fields_get(&f, "MESSAGE_ID");
        CHECK(v && strcmp(v, RNG_MID_KERNEL_EXHAUSTED_STR) == 0, "MESSAGE_ID %s", v ?: "(none)");
        /* RDSEED's exhaustion is routine for the kernel (it falls back to RDRAND): notice. */
        v = event_fields_get(&f, "PRIORITY");
        CHECK(v && atoi(v) == LOG_NOTICE, "PRIORITY %s", v ?: "(none)");
        static const char *const expect[][2] = {
                { "RNG_INSTRUCTION", "RDSEED" }, { "RNG_KERNEL_EVENT", "exhausted" },
                { "RNG_VERDICT", "exhausted" }, { "RNG_SEVERITY", "notice" }, { "RNG_COUNT", "12" }, { "RNG_MESSAGES", "3" },
                { "RNG_CPU", "1" }, { "RNG_TRIES", "10" }, { "RNG_KERNEL_EXHAUSTED", "12" },
                { "RNG_KERNEL_RETRIED", "15" }, { "RNG_SOURCE", "kernel" },
                { "RNG_KERNEL_MESSAGE", "x86/rng: RDSEED exhausted after 10 tries on CPU 1" },
                { "RNG_STATE_SERIAL", "5" },
        };
        for (size_t i = 0; i < ELEMENTSOF(expect); i++) {
                v = event_fields_get(&f, expect[i][0]);
                CHECK(v && strcmp(v, expect[i][1]) == 0, "%s=%s, expected %s", expect[i][0],
                      v ?: "(none)", expect[i][1]);
        }
        v = event_fields_get(&f, "MESSAGE");
        CHECK(v && strstr(v, "RDSEED") && strstr(v, "12"), "MESSAGE %s", v ?: "(none)");
        event_fields_done(&f);

        /* RDRAND's is not: the kernel's loop returns nothing. err. */
        in.instruction = RNG_SOURCE_RDRAND;
        CHECK_EQ_INT(event_kernel(&f, &in), 0);
        v = event_fields_get(&f, "PRIORITY");
        CHECK(v && atoi(v) == LOG_ERR, "RDRAND exhausted: PRIORITY %s", v ?: "(none)");
        event_fields_done(&f);

        /* A routine record: the count and its rate over the interval. */
        in.instruction = RNG_SOURCE_RDSEED;
        in.routine = true;
        in.interval_usec = 2 * 3600ull * 1000000;
        CHECK_EQ_INT(event_kernel(&f, &in), 0);
        v = event_fields_get(&f, "RNG_ROUTINE");
        CHECK(v && strcmp(v, "1") == 0, "RNG_ROUTINE %s", v ?: "(none)");
        v = event_fields_get(&f, "RNG_RATE_PER_HOUR");
        CHECK(v && strcmp(v, "6") == 0, "RNG_RATE_PER_HOUR %s", v ?: "(none)");
        v = event_fields_get(&f, "MESSAGE");
        CHECK(v && strcmp(v, "Kernel: RDSEED retry loop exhausted 12 time(s) in the last 2.0 h (6 per hour): routine, "
                             "the kernel seeds from RDRAND instead") == 0, "MESSAGE %s", v ?: "(none)");
        event_fields_done(&f);
        /* A short interval is said in seconds, a flood's rate with a suffix. */
        in.interval_usec = 20ull * 1000000;
        CHECK_EQ_INT(event_kernel(&f, &in), 0);
        v = event_fields_get(&f, "MESSAGE");
        CHECK(v && strstr(v, "exhausted 12 time(s) in the last 20 s (2.16k per hour): routine"), "MESSAGE %s",
              v ?: "(none)");
        event_fields_done(&f);
        in.routine = false;
        in.interval_usec = 0;

        /* Counted by the kernel, no line logged: how it logs each source. */
        in.messages = 0;
        in.have_cpu = false;
        CHECK_EQ_INT(event_kernel(&f, &in), 0);
        v = event_fields_get(&f, "MESSAGE");
        CHECK(v && strcmp(v, "Kernel: RDSEED retry loop exhausted 12 time(s) (the kernel's counter: it logs RDSEED's "
                             "once per boot and RDRAND's rate-limited)") == 0, "MESSAGE %s", v ?: "(none)");
        event_fields_done(&f);

        /* Disabled: RDSEED's is notice (RDRAND's would be warning), the reason, no CPU or counters. */
        in = (KernelEventInfo) {
                .kind = KERNEL_RNG_MSG_DISABLED,
                .instruction = RNG_SOURCE_RDSEED,
                .messages = 1,
                .count = 1,
                .kernel_message = "RDSEED32 is broken. Disabling the corresponding CPUID bit.",
                .reason_id = "zen5-rdseed32",
        };
        CHECK_EQ_INT(event_kernel(&f, &in), 0);
        v = event_fields_get(&f, "MESSAGE_ID");
        CHECK(v && strcmp(v, RNG_MID_KERNEL_DISABLED_STR) == 0, "MESSAGE_ID %s", v ?: "(none)");
        v = event_fields_get(&f, "PRIORITY");
        CHECK(v && atoi(v) == LOG_NOTICE, "PRIORITY %s", v ?: "(none)");
        CHECK(!event_fields_get(&f, "RNG_CPU"), "no RNG_CPU without a CPU");
        CHECK(!event_fields_get(&f, "RNG_KERNEL_EXHAUSTED"), "no counters without counters");
        v = event_fields_get(&f, "RNG_KERNEL_REASON");
        CHECK(v && strcmp(v, "zen5-rdseed32") == 0, "reason %s", v ?: "(none)");
        event_fields_done(&f);

        /* Bad input: an unknown kind is refused. */
        in.kind = _KERNEL_RNG_MSG_MAX;
        CHECK_EQ_INT(event_kernel(&f, &in), -EINVAL);
        event_fields_done(&f);

        CHECK_EQ_INT(kernel_rng_msg_kind_verdict(KERNEL_RNG_MSG_EXHAUSTED), VERDICT_EXHAUSTED);
        CHECK_EQ_INT(kernel_rng_msg_kind_verdict(KERNEL_RNG_MSG_FAILED), VERDICT_EXHAUSTED);
        CHECK_EQ_INT(kernel_rng_msg_kind_verdict(KERNEL_RNG_MSG_DISABLED), VERDICT_DEGRADED);
        CHECK_EQ_INT(kernel_rng_msg_kind_verdict(KERNEL_RNG_MSG_DEFECTIVE), VERDICT_BROKEN);
}

int main(void) {
        test_exhausted();
        test_bad_input();
        test_other_kinds();
        test_counter_parse();
        test_counters_read();
        test_event_fields();
        return test_result("test-kernel-watch");
}
