/* SPDX-License-Identifier: GPL-2.0-or-later */

/* /proc/cpuinfo, /proc/cmdline and kernel log parsers, including bad and odd input. */

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel-state.h"
#include "macro.h"
#include "test-util.h"

#define S(x) x, sizeof(x) - 1

static void test_reason_match(void) {
        const KernelReason *m;
        char *big;

        m = kernel_reason_match(S("6,1234,567890,-;x86/cpu: RDSEED32 is broken. Disabling the corresponding CPUID bit.\n"));
        CHECK(m && m->instruction == RNG_SOURCE_RDSEED && strcmp(m->id, "zen5-rdseed32") == 0, "zen5");
        m = kernel_reason_match(S("4,1,2,-;RDRAND is not reliable on this platform; disabling.\n"));
        CHECK(m && m->instruction == RNG_SOURCE_RDRAND && strcmp(m->id, "self-test") == 0, "self-test");
        m = kernel_reason_match(S("4,1,2,-;RDSEED is not reliable on this platform; disabling.\n"));
        CHECK(m && m->instruction == RNG_SOURCE_RDSEED && strcmp(m->id, "amd-unreliable") == 0, "amd-unreliable");
        m = kernel_reason_match(S("4,1,2,-;x86/cpu: BIOS may not properly restore RDRAND after suspend, hiding RDRAND via CPUID. Use rdrand=force to reenable.\n"));
        CHECK(m && m->instruction == RNG_SOURCE_RDRAND && strcmp(m->id, "amd-suspend") == 0, "amd-suspend");

        /* No newline at the end: still a match. */
        m = kernel_reason_match(S("RDSEED32 is broken. Disabling the corresponding CPUID bit."));
        CHECK(m && m->instruction == RNG_SOURCE_RDSEED, "no newline");
        /* Truncated: no match. */
        CHECK(!kernel_reason_match(S("6,1,2,-;RDSEED32 is broken. Disabling the corr")), "truncated matched");
        /* Length shorter than the string: the matcher must not read past len. */
        CHECK(!kernel_reason_match("RDRAND is not reliable on this platform; disabling.", 20), "len ignored");
        /* Case and near-misses. */
        CHECK(!kernel_reason_match(S("rdseed32 is broken. disabling the corresponding cpuid bit.")), "case");
        CHECK(!kernel_reason_match(S("RDRAND is reliable on this platform")), "near miss");
        /* Empty, NULL, unrelated. */
        CHECK(!kernel_reason_match(S("")), "empty");
        CHECK(!kernel_reason_match(NULL, 10), "NULL");
        CHECK(!kernel_reason_match(S("6,1,2,-;random: crng init done\n")), "unrelated");
        /* Non-UTF-8 bytes and NULs around the message. */
        m = kernel_reason_match(S("\xff\xfe\x00\xc3(;RDRAND is not reliable on this platform; disabling.\x80\x00"));
        CHECK(m && m->instruction == RNG_SOURCE_RDRAND, "non-UTF-8");
        /* A huge record with the message at the very end. */
        big = malloc(1 << 20);
        CHECK(big != NULL, "malloc");
        if (big) {
                const char *msg = "RDSEED is not reliable on this platform; disabling.";
                memset(big, 'x', 1 << 20);
                memcpy(big + (1 << 20) - strlen(msg), msg, strlen(msg));
                m = kernel_reason_match(big, 1 << 20);
                CHECK(m && m->instruction == RNG_SOURCE_RDSEED, "huge record");
                CHECK(!kernel_reason_match(big, (1 << 20) - 1), "huge record cut by one");
                free(big);
        }
}

static void test_cpuinfo(void) {
        bool f[_RNG_SOURCE_MAX];

        CHECK_EQ_INT(kernel_cpuinfo_parse(S("processor\t: 0\nflags\t\t: fpu rdrand sse rdseed adx\n\n"
                                            "processor\t: 1\nflags\t\t: fpu rdrand sse rdseed adx\n"), f), 0);
        CHECK(f[RNG_SOURCE_RDRAND] && f[RNG_SOURCE_RDSEED], "both present");

        /* One CPU lacks rdseed: not enabled for the machine. */
        CHECK_EQ_INT(kernel_cpuinfo_parse(S("flags\t: rdrand rdseed\nflags\t: rdrand\n"), f), 0);
        CHECK(f[RNG_SOURCE_RDRAND] && !f[RNG_SOURCE_RDSEED], "heterogeneous");

        /* The Zen5 case: rdseed cleared. Last line without newline. */
        CHECK_EQ_INT(kernel_cpuinfo_parse(S("flags : fpu rdrand"), f), 0);
        CHECK(f[RNG_SOURCE_RDRAND] && !f[RNG_SOURCE_RDSEED], "no newline");

        /* Prefixes, suffixes and look-alikes do not count. */
        CHECK_EQ_INT(kernel_cpuinfo_parse(S("flags\t: nordrand rdrand_x xrdseed rdseed1\n"), f), 0);
        CHECK(!f[RNG_SOURCE_RDRAND] && !f[RNG_SOURCE_RDSEED], "look-alikes");
        /* "vmx flags" (a different line) and "flagsx" are not the flags line. */
        CHECK(kernel_cpuinfo_parse(S("vmx flags\t: rdrand\nflagsx : rdrand\n"), f) == -EBADMSG, "not a flags line");

        /* No flags line at all, no colon, empty, NULL. */
        CHECK(kernel_cpuinfo_parse(S("processor : 0\nmodel name : x\n"), f) == -EBADMSG, "no flags");
        CHECK(kernel_cpuinfo_parse(S("flags rdrand rdseed\n"), f) == -EBADMSG, "no colon");
        CHECK(kernel_cpuinfo_parse(S(""), f) == -EBADMSG, "empty");
        CHECK(kernel_cpuinfo_parse(NULL, 0, f) == -EINVAL, "NULL");

        /* Truncated in the middle of a word. */
        CHECK_EQ_INT(kernel_cpuinfo_parse(S("flags : rdrand rdse"), f), 0);
        CHECK(f[RNG_SOURCE_RDRAND] && !f[RNG_SOURCE_RDSEED], "truncated word");

        /* Non-UTF-8 and NUL bytes between words. */
        CHECK_EQ_INT(kernel_cpuinfo_parse(S("flags : \xff\xfe rdrand \x80 rdseed\n"), f), 0);
        CHECK(f[RNG_SOURCE_RDRAND] && f[RNG_SOURCE_RDSEED], "non-UTF-8");
}

static void test_cmdline(void) {
        CHECK(kernel_cmdline_has_word(S("quiet nordrand\n"), "nordrand"), "plain");
        CHECK(kernel_cmdline_has_word(S("nordrand"), "nordrand"), "alone");
        CHECK(!kernel_cmdline_has_word(S("nordrand=1 xnordrand nordrandx\n"), "nordrand"), "look-alikes");
        CHECK(!kernel_cmdline_has_word(S("quiet -- nordrand\n"), "nordrand"), "after --");
        CHECK(!kernel_cmdline_has_word(S(""), "nordrand"), "empty");
        CHECK(!kernel_cmdline_has_word(NULL, 0, "nordrand"), "NULL");
        CHECK(kernel_cmdline_has_word(S("a\tnordrand\0b"), "nordrand"), "tab and NUL");
}

#define HAS(cpuid_) ((RngPresence) { .cpuid = (cpuid_), .executes = (cpuid_) })
#define HIDDEN ((RngPresence) { .cpuid = false, .tried = true, .executes = true })
#define SIGILL_ ((RngPresence) { .cpuid = false, .tried = true, .executes = false })

static void test_build(void) {
        const RngPresence cpuid_both[_RNG_SOURCE_MAX] = { HAS(true), HAS(true) }, cpuid_rdrand[_RNG_SOURCE_MAX] = { HAS(true), HAS(false) },
                          rdseed_hidden[_RNG_SOURCE_MAX] = { HAS(true), HIDDEN }, rdseed_sigill[_RNG_SOURCE_MAX] = { HAS(true), SIGILL_ };
        const bool flags_both[_RNG_SOURCE_MAX] = { true, true }, flags_rdrand[_RNG_SOURCE_MAX] = { true, false }, flags_none[_RNG_SOURCE_MAX] = {};
        const KernelReason *none[_RNG_SOURCE_MAX] = {}, *zen5[_RNG_SOURCE_MAX] = {};
        /* the kernel command line: nothing turned off, or nordrand */
        const bool on[_RNG_SOURCE_MAX] = {}, nordrand[_RNG_SOURCE_MAX] = { [RNG_SOURCE_RDRAND] = true };
        KernelState k;

        zen5[RNG_SOURCE_RDSEED] = kernel_reason_match(S("RDSEED32 is broken. Disabling the corresponding CPUID bit."));

        kernel_state_build(&k, cpuid_both, true, flags_both, on, KERNEL_LOG_NOT_NEEDED, none);
        CHECK(k.instr[0].state == KERNEL_STATE_ENABLED && k.instr[1].state == KERNEL_STATE_ENABLED, "enabled");
        CHECK(k.instr[0].reason == NULL, "enabled has no reason");
        CHECK_EQ_INT(k.instr[0].reason_source, KERNEL_REASON_NONE);

        kernel_state_build(&k, cpuid_both, true, flags_rdrand, on, KERNEL_LOG_READ, zen5);
        CHECK(k.instr[1].state == KERNEL_STATE_DISABLED && strcmp(k.instr[1].reason_id, "zen5-rdseed32") == 0,
              "zen5 disabled");
        CHECK_EQ_INT(k.instr[1].reason_source, KERNEL_REASON_KERNEL_LOG);

        kernel_state_build(&k, cpuid_both, true, flags_rdrand, on, KERNEL_LOG_UNREADABLE, none);
        CHECK(strcmp(k.instr[1].reason, "unknown (kernel log not readable)") == 0, "kmsg unreadable: %s",
              k.instr[1].reason);

        kernel_state_build(&k, cpuid_both, true, flags_rdrand, on, KERNEL_LOG_READ, none);
        CHECK(strcmp(k.instr[1].reason, "unknown (no reason in kernel log)") == 0, "no reason");

        kernel_state_build(&k, cpuid_both, true, flags_none, nordrand, KERNEL_LOG_READ, none);
        CHECK(strcmp(k.instr[0].reason_id, "nordrand") == 0, "nordrand");
        CHECK_EQ_INT(k.instr[0].reason_source, KERNEL_REASON_CMDLINE);

        /* Not in CPUID, never tried (not x86-64): absent. */
        kernel_state_build(&k, cpuid_rdrand, true, flags_rdrand, on, KERNEL_LOG_NOT_NEEDED, none);
        CHECK(k.instr[1].state == KERNEL_STATE_ABSENT, "absent");
        CHECK(strcmp(k.instr[1].reason, "not advertised by CPUID") == 0, "absent: %s", k.instr[1].reason);

        /* Not in CPUID, and the guarded try raised SIGILL: absent, said so. */
        kernel_state_build(&k, rdseed_sigill, true, flags_rdrand, on, KERNEL_LOG_NOT_NEEDED, none);
        CHECK(k.instr[1].state == KERNEL_STATE_ABSENT, "sigill absent");
        CHECK(strstr(k.instr[1].reason, "SIGILL") != NULL, "sigill reason: %s", k.instr[1].reason);

        /* Zen5 with the kernel line: hidden, the kernel's own reason. The
         * flag is gone from /proc/cpuinfo as well, as on the real machine. */
        kernel_state_build(&k, rdseed_hidden, true, flags_rdrand, on, KERNEL_LOG_READ, zen5);
        CHECK_EQ_INT(k.instr[1].state, KERNEL_STATE_HIDDEN);
        CHECK(strcmp(k.instr[1].reason_id, "zen5-rdseed32") == 0, "hidden reason id %s", k.instr[1].reason_id);
        CHECK_EQ_INT(k.instr[1].reason_source, KERNEL_REASON_KERNEL_LOG);
        CHECK(strcmp(kernel_state_kind_to_string(k.instr[1].state), "hidden") == 0, "name");

        /* Zen5 without a readable log: hidden, reason unknown here (the
         * errata table may name it later, from the CPU's identity). */
        kernel_state_build(&k, rdseed_hidden, true, flags_rdrand, on, KERNEL_LOG_UNREADABLE, none);
        CHECK_EQ_INT(k.instr[1].state, KERNEL_STATE_HIDDEN);
        CHECK(strcmp(k.instr[1].reason_id, "unknown") == 0, "hidden unknown");
        CHECK(strstr(k.instr[1].reason, "not readable") != NULL, "reason: %s", k.instr[1].reason);
        CHECK_EQ_INT(k.instr[1].reason_source, KERNEL_REASON_CPU);

        kernel_state_build(&k, cpuid_both, false, flags_none, on, KERNEL_LOG_NOT_NEEDED, none);
        CHECK(k.instr[0].state == KERNEL_STATE_UNKNOWN && k.instr[1].state == KERNEL_STATE_UNKNOWN, "unknown");
}

static void test_log_scan(void) {
        const KernelReason *reasons[_RNG_SOURCE_MAX] = {};
        char path[] = "/tmp/test-kernel-state-XXXXXX";
        int fd = mkstemp(path);
        KernelBootLog boot = {};
        static const char log[] = "6,1,2,-;random: crng init done\n"
                                  "4,2,3,-;x86/cpu: RDSEED32 is broken. Disabling the corresponding CPUID bit.\n";

        CHECK(kernel_log_scan("/nonexistent/kmsg", reasons, &boot) == KERNEL_LOG_UNREADABLE, "missing file");
        CHECK(!boot.read, "nothing read from a missing file");
        CHECK(fd >= 0, "mkstemp");
        if (fd < 0)
                return;
        CHECK(write(fd, log, sizeof(log) - 1) == (ssize_t) sizeof(log) - 1, "write");
        close(fd);
        CHECK(kernel_log_scan(path, reasons, &boot) == KERNEL_LOG_READ, "regular file");
        CHECK(reasons[RNG_SOURCE_RDSEED] && strcmp(reasons[RNG_SOURCE_RDSEED]->id, "zen5-rdseed32") == 0, "reason found");
        CHECK(reasons[RNG_SOURCE_RDRAND] == NULL, "no RDRAND reason");
        /* The same scan fed the boot records, with their timestamps. */
        CHECK(boot.read && boot.crng_ready, "crng init done seen");
        CHECK_EQ_U64(boot.crng_ready_usec, 2);
        unlink(path);

        /* The real log: readable or not, never an error. */
        KernelLogState s = kernel_log_scan("/dev/kmsg", reasons, NULL);
        CHECK(s == KERNEL_LOG_READ || s == KERNEL_LOG_UNREADABLE, "/dev/kmsg: %d", s);
}

static KernelLogState scan_calls(const KernelReason *reasons[_RNG_SOURCE_MAX], KernelBootLog *boot, void *userdata) {
        unsigned *calls = userdata;

        calls[0]++;
        calls[1] += reasons != NULL;
        calls[2] += boot != NULL;
        return KERNEL_LOG_READ;
}

static void test_cmdline_bool(void) {
        static const char c[] = "root=/dev/sda random.trust_cpu=off quiet random.trust-bootloader=n x=on "
                                "empty= random.trust_cpu=1 -- random.trust_bootloader=y";
        char v[16];

        /* The last one counts; '-' and '_' are the same in a name; after "--": init's. */
        CHECK(kernel_cmdline_bool(c, strlen(c), "random.trust_cpu", false), "trust_cpu=1 last");
        CHECK(!kernel_cmdline_bool(c, strlen(c), "random.trust_bootloader", true), "trust-bootloader=n");
        CHECK(kernel_cmdline_bool(c, strlen(c), "x", false), "on");
        CHECK(!kernel_cmdline_bool(c, strlen(c), "absent", false) && kernel_cmdline_bool(c, strlen(c), "absent", true),
              "absent: the default");
        CHECK(kernel_cmdline_bool(c, strlen(c), "empty", true), "no value: the default");
        CHECK(kernel_cmdline_bool("a=maybe", 7, "a", true) && !kernel_cmdline_bool("a=maybe", 7, "a", false),
              "not a boolean: the default");
        CHECK(!kernel_cmdline_bool("a=OFF", 5, "a", true) && kernel_cmdline_bool("a=On", 4, "a", false), "on/off");
        CHECK(!kernel_cmdline_bool(NULL, 0, "a", false), "NULL");
        CHECK(kernel_cmdline_value(c, strlen(c), "root", v, sizeof(v)) && strcmp(v, "/dev/sda") == 0, "value");
        CHECK(kernel_cmdline_value(c, strlen(c), "root", v, 4) && strcmp(v, "/de") == 0, "value cut to the buffer");
        CHECK(!kernel_cmdline_value(c, strlen(c), "quiet", v, sizeof(v)), "a word without '=' has no value");
        CHECK(!kernel_cmdline_value(c, strlen(c), "random.trust", v, sizeof(v)), "a prefix is no name");
}

/* The kernel log's boot records: the lines, verbatim; what made the CRNG
 * ready by where its line falls; forks counted; /dev/kmsg records. */
static void test_boot_log(void) {
        static const char *const cpu[] = { "Linux version 6.12", "efi: ACPI=0x7fb7e000 RNG=0x7f9a6018 ",
                                           "Kernel command line: root=/dev/sda",
                                           "Unknown kernel command line parameters \"x\"", "random: crng init done",
                                           "random: crng reseeded due to virtual machine fork" };
        KernelBootLog b = {};
        const char *text;
        uint64_t usec;
        size_t len;

        CHECK_EQ_INT(kernel_boot_line_parse("random: crng init done\n", 23), KERNEL_BOOT_LINE_CRNG_READY);
        CHECK_EQ_INT(kernel_boot_line_parse("random: crng init done.", 23), KERNEL_BOOT_LINE_NONE);
        CHECK_EQ_INT(kernel_boot_line_parse("xrandom: crng init done", 23), KERNEL_BOOT_LINE_NONE);
        CHECK_EQ_INT(kernel_boot_line_parse("random: crng init", 17), KERNEL_BOOT_LINE_NONE);
        CHECK_EQ_INT(kernel_boot_line_parse("efi: RNG=0x1 ", 13), KERNEL_BOOT_LINE_EFI_SEED);
        CHECK_EQ_INT(kernel_boot_line_parse("efi: (RNG=0x1 unusable) ", 24), KERNEL_BOOT_LINE_NONE);
        CHECK_EQ_INT(kernel_boot_line_parse("efi: XRNG=0x1", 13), KERNEL_BOOT_LINE_NONE);
        CHECK_EQ_INT(kernel_boot_line_parse("x efi: RNG=0x1", 14), KERNEL_BOOT_LINE_NONE);
        CHECK_EQ_INT(kernel_boot_line_parse(NULL, 4), KERNEL_BOOT_LINE_NONE);

        /* random_init_early(): right after the command line (one line of
         * unknown parameters between them). */
        for (size_t i = 0; i < ELEMENTSOF(cpu); i++)
                (void) kernel_boot_log_feed(&b, cpu[i], strlen(cpu[i]), 1000 * i);
        CHECK(b.read && b.crng_ready && b.crng_ready_usec == 4000 && b.crng_stage == KERNEL_CRNG_STAGE_CPU, "cpu: %s",
              kernel_crng_stage_to_string(b.crng_stage));
        CHECK(b.efi_seed && b.vm_forks == 1 && b.last_vm_fork_usec == 5000 && kernel_boot_log_settled(&b), "cpu");

        /* Two lines between (6.12's start_kernel(): parse_args()'s
         * "Booting kernel: `x' invalid for parameter `y'" and
         * print_unknown_bootoptions()'s line, before random_init_early()):
         * still the CPU. Three lines between (below): later. Both bounds of
         * KERNEL_BOOT_CPU_RECORDS are pinned here, from the kernel's order,
         * not from the constant (3 to 2 and 3 to 4 each fail one). */
        {
                static const char *const two[] = { "Kernel command line: root=/dev/sda x=y z",
                                                   "Booting kernel: `y' invalid for parameter `x'",
                                                   "Unknown kernel command line parameters \"z\"",
                                                   "random: crng init done" };

                b = (KernelBootLog) {};
                for (size_t i = 0; i < ELEMENTSOF(two); i++)
                        (void) kernel_boot_log_feed(&b, two[i], strlen(two[i]), 1000 * i);
                CHECK(b.crng_ready && b.crng_stage == KERNEL_CRNG_STAGE_CPU, "two lines between: %s",
                      kernel_crng_stage_to_string(b.crng_stage));
        }

        /* A boot loader's seed: ready before the command line. */
        b = (KernelBootLog) {};
        (void) kernel_boot_log_feed(&b, cpu[4], strlen(cpu[4]), 7);
        CHECK(b.crng_ready && b.crng_stage == KERNEL_CRNG_STAGE_UNKNOWN && !kernel_boot_log_settled(&b), "not yet");
        (void) kernel_boot_log_feed(&b, cpu[2], strlen(cpu[2]), 9);
        CHECK(b.crng_stage == KERNEL_CRNG_STAGE_BOOT_SEED && b.crng_ready_usec == 7 && kernel_boot_log_settled(&b),
              "seed: %s", kernel_crng_stage_to_string(b.crng_stage));

        /* Later, and only the first readiness counts. */
        b = (KernelBootLog) {};
        (void) kernel_boot_log_feed(&b, cpu[2], strlen(cpu[2]), 1);
        for (int i = 0; i < 3; i++)
                (void) kernel_boot_log_feed(&b, cpu[0], strlen(cpu[0]), 2);
        (void) kernel_boot_log_feed(&b, cpu[4], strlen(cpu[4]), 4310123);
        (void) kernel_boot_log_feed(&b, cpu[4], strlen(cpu[4]), 5000000);
        CHECK(b.crng_stage == KERNEL_CRNG_STAGE_LATER && b.crng_ready_usec == 4310123, "later");
        /* Not ready: not settled, no stage. */
        b = (KernelBootLog) {};
        (void) kernel_boot_log_feed(&b, cpu[2], strlen(cpu[2]), 1);
        CHECK(!b.crng_ready && b.crng_stage == KERNEL_CRNG_STAGE_UNKNOWN && !kernel_boot_log_settled(&b), "not ready");

        /* /dev/kmsg records. */
        CHECK(kernel_kmsg_record_parse("5,1234,4310123,-;random: crng init done\n SUBSYSTEM=x\n", 51, &usec, &text,
                                       &len) == 0 &&
              usec == 4310123 && len == 22 && memcmp(text, "random: crng init done", 22) == 0, "kmsg");
        CHECK(kernel_kmsg_record_parse("5,1,2,-,caller=T1;x", 19, &usec, &text, &len) == 0 && usec == 2 && len == 1,
              "kmsg with more fields");
        CHECK(kernel_kmsg_record_parse("5,1,2;x", 7, &usec, &text, &len) == -EBADMSG, "three fields");
        CHECK(kernel_kmsg_record_parse("5,1,,-;x", 8, &usec, &text, &len) == -EBADMSG, "no timestamp");
        CHECK(kernel_kmsg_record_parse("5,1,2a,-;x", 10, &usec, &text, &len) == -EBADMSG, "not a number");
        CHECK(kernel_kmsg_record_parse("5,1,99999999999999999999,-;x", 28, &usec, &text, &len) == -EBADMSG, "overflow");
        CHECK(kernel_kmsg_record_parse("no semicolon", 12, &usec, &text, &len) == -EBADMSG, "no ';'");
        CHECK(kernel_kmsg_record_parse(NULL, 0, &usec, &text, &len) == -EINVAL, "NULL");
}

static void test_read_real(void) {
        RngPresence presence[_RNG_SOURCE_MAX] = { HAS(rng_source_advertised(RNG_SOURCE_RDRAND)),
                                                  HAS(rng_source_advertised(RNG_SOURCE_RDSEED)) };
        const RngPresence nothing[_RNG_SOURCE_MAX] = {};
        const KernelBootLog known = { .read = true, .crng_ready = true, .crng_ready_usec = 7 };
        unsigned calls[3] = {};
        KernelState k;

        /* Nothing executes and the boot records are known: the log is not read. */
        CHECK_EQ_INT(kernel_state_read(nothing, NULL, scan_calls, calls, &known, &k), 0);
        CHECK_EQ_U64(calls[0], 0);
        CHECK(k.boot.crng_ready && k.boot.crng_ready_usec == 7, "the known boot records kept");
        /* Not known: read for them alone, no reasons asked for. */
        CHECK_EQ_INT(kernel_state_read(nothing, NULL, scan_calls, calls, NULL, &k), 0);
        CHECK(calls[0] == 1 && calls[1] == 0 && calls[2] == 1, "scanned once, for the boot records: %u %u %u",
              calls[0], calls[1], calls[2]);

        /* Reading gives a state whatever the machine; this one's
         * /proc/cpuinfo is readable and has flags. */
        CHECK_EQ_INT(kernel_state_read(presence, NULL, NULL, NULL, NULL, &k), 0);
        CHECK(kernel_log_state_to_string(k.log) != NULL, "log state");
        for (int i = 0; i < 2; i++) {
                CHECK(kernel_state_kind_to_string(k.instr[i].state) != NULL, "state");
                CHECK((k.instr[i].state == KERNEL_STATE_ENABLED) == (k.instr[i].reason == NULL), "reason iff not enabled");
        }
}

int main(void) {
        test_reason_match();
        test_cpuinfo();
        test_cmdline();
        test_build();
        test_log_scan();
        test_cmdline_bool();
        test_boot_log();
        test_read_real();
        return test_result("test-kernel-state");
}
