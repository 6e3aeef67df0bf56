/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The kernel watch's state file: parse and format (good and bad input),
 * and the .new / commit / restore protocol in a temporary directory. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel-watch-state.h"
#include "macro.h"
#include "test-util.h"

#define BOOT "0123456789abcdef0123456789abcdef"
#define OTHER_BOOT "fedcba9876543210fedcba9876543210"

static int parse(const char *s, KernelWatchState *ret) {
        return kernel_watch_state_parse(s, strlen(s), ret);
}

static void sample(KernelWatchState *s) {
        *s = (KernelWatchState) { .serial = 7 };
        CHECK_EQ_INT(sd_id128_from_string(BOOT, &s->boot_id), 0);
        s->cursor = strdup("s=abc;i=12;b=" BOOT ";m=3f;t=5;x=9");
        CHECK(s->cursor, "strdup");
        s->reported[RNG_SOURCE_RDSEED] = 12;
        s->reported[RNG_SOURCE_RDRAND] = UINT64_MAX;
        s->recorded[KERNEL_RNG_MSG_EXHAUSTED][RNG_SOURCE_RDSEED] = 12;
        /* what was reported is in events: 3 + (2^64 - 4) = UINT64_MAX */
        s->recorded[KERNEL_RNG_MSG_EXHAUSTED][RNG_SOURCE_RDRAND] = UINT64_MAX - 3;
        s->recorded[KERNEL_RNG_MSG_FAILED][RNG_SOURCE_RDRAND] = 3;
        s->recorded[KERNEL_RNG_MSG_DISABLED][RNG_SOURCE_RDSEED] = 1;
        s->recorded[KERNEL_RNG_MSG_DEFECTIVE][RNG_SOURCE_RDRAND] = 2;
        s->own[RNG_SOURCE_RDSEED] = 5;
}

static void check_same(const KernelWatchState *a, const KernelWatchState *b) {
        CHECK(sd_id128_equal(a->boot_id, b->boot_id), "boot id");
        CHECK((!a->cursor && !b->cursor) || (a->cursor && b->cursor && strcmp(a->cursor, b->cursor) == 0),
              "cursor %s vs %s", a->cursor ?: "(null)", b->cursor ?: "(null)");
        CHECK_EQ_U64(a->serial, b->serial);
        CHECK(memcmp(a->reported, b->reported, sizeof(a->reported)) == 0, "reported");
        CHECK(memcmp(a->recorded, b->recorded, sizeof(a->recorded)) == 0, "recorded");
        CHECK(memcmp(a->own, b->own, sizeof(a->own)) == 0, "own");
}

/* format -> parse is the identity; the on-disk format is today's. */
static void test_round_trip(void) {
        _cleanup_(kernel_watch_state_done) KernelWatchState s = {}, t = {}, u = {};
        _cleanup_free_ char *text = NULL;

        sample(&s);
        CHECK_EQ_INT(kernel_watch_state_format(&s, &text), 0);
        CHECK(text && strncmp(text, "boot=" BOOT "\ncursor=s=abc;", 19 + 5 + 8) == 0, "starts %s", text);
        CHECK(text && strstr(text, "\nserial=7\n"), "serial line");
        CHECK(text && strstr(text, "\nreported_rdseed=12\n"), "reported line");
        CHECK(text && strstr(text, "\nreported_rdrand=18446744073709551615\n"), "UINT64_MAX");
        CHECK(text && strstr(text, "\nrecorded_exhausted_rdseed=12\n"), "recorded line");
        CHECK(text && strstr(text, "\nrecorded_defective_rdrand=2\n"), "recorded line");
        CHECK(text && strstr(text, "\nown_rdseed=5\n"), "own line");
        CHECK(text && !strstr(text, "own_rdrand"), "no own line for a zero count");
        CHECK_EQ_INT(parse(text, &t), 0);
        check_same(&s, &t);

        /* No cursor: no cursor line, parsed back as NULL. */
        free(s.cursor);
        s.cursor = NULL;
        free(text);
        text = NULL;
        CHECK_EQ_INT(kernel_watch_state_format(&s, &text), 0);
        CHECK(text && !strstr(text, "cursor="), "no cursor line");
        CHECK_EQ_INT(parse(text, &u), 0);
        check_same(&s, &u);
}

/* A complete file, as today's format writes it; rest is appended. */
#define FULL_TAIL                                                                  \
        "reported_rdrand=0\nrecorded_exhausted_rdrand=0\nrecorded_failed_rdrand=0\n"  \
        "recorded_disabled_rdrand=0\nrecorded_defective_rdrand=0\n"                   \
        "reported_rdseed=0\nrecorded_exhausted_rdseed=0\nrecorded_failed_rdseed=0\n"  \
        "recorded_disabled_rdseed=0\nrecorded_defective_rdseed=0\n"

static void test_parse_good(void) {
        _cleanup_(kernel_watch_state_done) KernelWatchState s = {};

        /* Every key but the cursor, in any order. */
        CHECK_EQ_INT(parse(FULL_TAIL "serial=2\nboot=" BOOT "\n", &s), 0);
        CHECK_EQ_U64(s.serial, 2);
        CHECK(!s.cursor, "no cursor");
        kernel_watch_state_done(&s);

        /* own_ lines are optional (a state of the version before them): 0. */
        CHECK_EQ_INT(s.own[RNG_SOURCE_RDSEED] + s.own[RNG_SOURCE_RDRAND], 0);
        CHECK_EQ_INT(parse("boot=" BOOT "\nserial=1\nown_rdrand=0\n" FULL_TAIL, &s), 0);

        /* UUID form of the boot id, and the largest number. */
        CHECK_EQ_INT(parse("boot=01234567-89ab-cdef-0123-456789abcdef\nserial=18446744073709551615\n" FULL_TAIL, &s), 0);
        CHECK_EQ_U64(s.serial, UINT64_MAX);
}

/* A file cut at any line boundary is refused, so what
 * was reported is never reported again from zero counts. */
static void test_parse_cut(void) {
        _cleanup_(kernel_watch_state_done) KernelWatchState s = {}, t = {};
        _cleanup_free_ char *text = NULL;
        const char *why = NULL;
        size_t len, lines = 0;

        sample(&s);
        CHECK_EQ_INT(kernel_watch_state_format(&s, &text), 0);
        if (!text)
                return;
        len = strlen(text);
        for (size_t n = 0; n < len; n++) {
                int r = kernel_watch_state_parse_why(text, n, &t, &why);

                CHECK(r == -EBADMSG, "cut at %zu of %zu accepted", n, len);
                if (n > 0 && text[n - 1] == '\n') {
                        lines++;
                        CHECK(why && (strstr(why, "incomplete") || strstr(why, "no boot id")),
                              "cut at line %zu: why '%s'", lines, why ?: "(null)");
                }
        }
        CHECK(lines >= 12, "only %zu line boundaries", lines);
        CHECK_EQ_INT(kernel_watch_state_parse_why(text, len, &t, &why), 0);
}

/* A saved count above the kernel's counter is refused, and says so. */
static void test_check_counters(void) {
        _cleanup_(kernel_watch_state_done) KernelWatchState s = {};
        KernelCounters c = {};
        char why[256];

        sample(&s);
        /* RDRAND: nothing counted (the kernel's counter is 0) */
        s.reported[RNG_SOURCE_RDRAND] = 0;
        s.recorded[KERNEL_RNG_MSG_EXHAUSTED][RNG_SOURCE_RDRAND] = s.recorded[KERNEL_RNG_MSG_FAILED][RNG_SOURCE_RDRAND] = 0;
        c.exhausted[RNG_SOURCE_RDSEED] = 12;
        CHECK_EQ_INT(kernel_watch_state_check_counters(&s, &c, why, sizeof(why)), 0);
        CHECK_EQ_INT(kernel_watch_state_check_counters(&s, NULL, why, sizeof(why)), 0);
        c.exhausted[RNG_SOURCE_RDSEED] = 11;
        CHECK_EQ_INT(kernel_watch_state_check_counters(&s, &c, why, sizeof(why)), -ERANGE);
        CHECK(strcmp(why, "it has 12 RDSEED exhaustions reported, but the kernel counts only 11") == 0, "'%s'", why);

        /* failures recorded in events above the counter, whatever was reported */
        c.exhausted[RNG_SOURCE_RDSEED] = 12;
        s.recorded[KERNEL_RNG_MSG_FAILED][RNG_SOURCE_RDSEED] = 1;
        CHECK_EQ_INT(kernel_watch_state_check_counters(&s, &c, why, sizeof(why)), -ERANGE);
        CHECK(strcmp(why, "it has 13 RDSEED failures recorded, but the kernel counts only 12") == 0, "'%s'", why);
}

/* What kernel_watch_state_check() sees of the journal: fixed counts, and
 * the cursor it was asked about. */
typedef struct Messages {
        uint64_t counts[_KERNEL_RNG_MSG_MAX][_RNG_SOURCE_MAX];
        const char *cursor;
        unsigned asked;
        int error;
} Messages;

static int count_messages(const char *cursor, uint64_t ret[_KERNEL_RNG_MSG_MAX][_RNG_SOURCE_MAX], void *userdata) {
        Messages *m = userdata;

        m->asked++;
        m->cursor = cursor;
        if (m->error)
                return m->error;
        memcpy(ret, m->counts, sizeof(m->counts));
        if (!cursor)
                memset(ret, 0, sizeof(m->counts));
        return 0;
}

/* A state is checked against what it claims to summarise: on a kernel
 * without counters, no count that only counters give, and no more
 * messages than this boot's journal holds up to its cursor. */
static void test_check_summary(void) {
        _cleanup_(kernel_watch_state_done) KernelWatchState s = {};
        Messages m = {};
        KernelWatchStateCheck none = { .no_counters = true, .count_messages = count_messages, .userdata = &m };
        char why[256];

        /* the issue's: serial 1, reported_rdrand = recorded_exhausted_rdrand
         * = 2^64-1, on a kernel without counters */
        CHECK_EQ_INT(parse("boot=" BOOT "\nserial=1\nreported_rdrand=18446744073709551615\n"
                           "recorded_exhausted_rdrand=18446744073709551615\nrecorded_failed_rdrand=0\n"
                           "recorded_disabled_rdrand=0\nrecorded_defective_rdrand=0\nreported_rdseed=0\n"
                           "recorded_exhausted_rdseed=0\nrecorded_failed_rdseed=0\nrecorded_disabled_rdseed=0\n"
                           "recorded_defective_rdseed=0\n", &s), 0);
        CHECK_EQ_INT(kernel_watch_state_check(&s, &none, why, sizeof(why)), -ERANGE);
        CHECK(strcmp(why, "it has 18446744073709551615 RDRAND exhaustions counted by the kernel, "
                          "but this kernel has no counters") == 0, "'%s'", why);
        /* where the counters could not be read, reported_ is not judged */
        CHECK_EQ_INT(kernel_watch_state_check(&s, &(KernelWatchStateCheck) {}, why, sizeof(why)), 0);
        CHECK_EQ_INT(kernel_watch_state_check(&s, NULL, why, sizeof(why)), 0);

        /* own_ is a counter's too */
        s.reported[RNG_SOURCE_RDRAND] = 0;
        s.recorded[KERNEL_RNG_MSG_EXHAUSTED][RNG_SOURCE_RDRAND] = 0;
        s.reported[RNG_SOURCE_RDSEED] = s.own[RNG_SOURCE_RDSEED] = 2;
        CHECK_EQ_INT(kernel_watch_state_check(&s, &none, why, sizeof(why)), -ERANGE);
        CHECK(strstr(why, "2 RDSEED exhaustions counted by the kernel"), "'%s'", why);
        s.reported[RNG_SOURCE_RDSEED] = s.own[RNG_SOURCE_RDSEED] = 0;

        /* without counters, a count of messages is at most what the
         * journal holds up to the cursor; without a cursor, none */
        s.recorded[KERNEL_RNG_MSG_EXHAUSTED][RNG_SOURCE_RDSEED] = 3;
        m.counts[KERNEL_RNG_MSG_EXHAUSTED][RNG_SOURCE_RDSEED] = 3;
        CHECK_EQ_INT(kernel_watch_state_check(&s, &none, why, sizeof(why)), -ERANGE);
        CHECK_EQ_INT(m.asked, 1);
        CHECK(!m.cursor, "asked about a cursor the state does not have");
        CHECK(strcmp(why, "it has 3 RDSEED exhausted messages recorded, but this boot's journal holds 0 up to its "
                          "position") == 0, "'%s'", why);
        s.cursor = strdup("s=abc;i=12");
        CHECK(s.cursor, "strdup");
        CHECK_EQ_INT(kernel_watch_state_check(&s, &none, why, sizeof(why)), 0);
        CHECK(m.cursor && strcmp(m.cursor, "s=abc;i=12") == 0, "cursor asked: %s", m.cursor ?: "(null)");
        m.counts[KERNEL_RNG_MSG_EXHAUSTED][RNG_SOURCE_RDSEED] = 2;
        CHECK_EQ_INT(kernel_watch_state_check(&s, &none, why, sizeof(why)), -ERANGE);
        CHECK(strstr(why, "3 RDSEED exhausted messages recorded, but this boot's journal holds 2"), "'%s'", why);
        /* with counters, exhausted is the counter's growth (the log may
         * show fewer lines): not bound by the journal */
        {
                KernelCounters c = { .exhausted = { [RNG_SOURCE_RDSEED] = 3 } };
                KernelWatchStateCheck with = { .counters = &c, .count_messages = count_messages, .userdata = &m };

                m.asked = 0;
                CHECK_EQ_INT(kernel_watch_state_check(&s, &with, why, sizeof(why)), 0);
                CHECK_EQ_INT(m.asked, 0);
                /* disabled and defective are messages, counters or not */
                s.recorded[KERNEL_RNG_MSG_DISABLED][RNG_SOURCE_RDRAND] = 1;
                CHECK_EQ_INT(kernel_watch_state_check(&s, &with, why, sizeof(why)), -ERANGE);
                CHECK(strstr(why, "1 RDRAND disabled messages recorded, but this boot's journal holds 0"), "'%s'", why);
                m.counts[KERNEL_RNG_MSG_DISABLED][RNG_SOURCE_RDRAND] = 1;
                CHECK_EQ_INT(kernel_watch_state_check(&s, &with, why, sizeof(why)), 0);
        }
        /* a journal that cannot be read: its error, not a verdict on the state */
        m.error = -EIO;
        CHECK_EQ_INT(kernel_watch_state_check(&s, &none, why, sizeof(why)), -EIO);
}

static void test_parse_bad(void) {
        static const char *const bad[] = {
                "",                                         /* empty */
                "\n",                                       /* empty line */
                "serial=1\n",                               /* no boot */
                "boot=" BOOT,                               /* truncated: no newline */
                "boot=" BOOT "\nserial=12",                 /* truncated inside a line */
                "boot=" BOOT "\nreported_rdse",             /* truncated inside a key */
                "boot=nothex\n",                            /* bad boot id */
                "boot=" BOOT "\njunk\n",                    /* no "=" */
                "boot=" BOOT "\nserial=\n",                 /* empty number */
                "boot=" BOOT "\nserial=-1\n",               /* negative */
                "boot=" BOOT "\nreported_rdseed= -1\n",     /* negative behind a space (used to wrap) */
                "boot=" BOOT "\nreported_rdseed= 5\n",      /* space */
                "boot=" BOOT "\nreported_rdseed=+5\n",      /* sign */
                "boot=" BOOT "\nreported_rdseed=0x10\n",    /* hex */
                "boot=" BOOT "\nreported_rdseed=12a\n",     /* junk */
                "boot=" BOOT "\nreported_rdseed=5 \n",      /* trailing space */
                "boot=" BOOT "\nrecorded_failed_rdrand=18446744073709551616\n", /* overflow */
                "boot=" BOOT "\nserial=99999999999999999999999\n",             /* overflow */
                "boot=" BOOT "\nserial=3\n",                /* incomplete, cut at a line boundary */
                "boot=" BOOT "\nserial=1\nserial=2\n" FULL_TAIL,   /* a key twice */
                "boot=" BOOT "\nboot=" BOOT "\nserial=1\n" FULL_TAIL, /* the boot twice */
                "boot=" BOOT "\ncursor=a\ncursor=b\nserial=1\n" FULL_TAIL, /* the cursor twice */
                "boot=" BOOT "\ncursor=\nserial=1\n" FULL_TAIL,  /* empty cursor */
                "boot=" BOOT "\nfuture_key=1\nserial=1\n" FULL_TAIL, /* unknown key */
                "serial=1\n" FULL_TAIL,                            /* complete but no boot */
                "boot=" BOOT "\nserial=1\nown_rdseed=1\n" FULL_TAIL, /* own above reported: a contradiction */
                "boot=" BOOT "\nserial=1\nown_rdseed=0\nown_rdseed=0\n" FULL_TAIL, /* own twice */
        };
        /* Complete, but the fields contradict each
         * other (refused like a cut file, with why). */
        static const struct {
                const char *text, *why;
        } contradictions[] = {
                /* the failure counts sum past 2^64: 2^63 + 2^63 wrapped to
                 * 0 and the status named no exhaustion under an exhausted
                 * verdict */
                { "boot=" BOOT "\nserial=1\nrecorded_exhausted_rdrand=9223372036854775808\n"
                  "recorded_failed_rdrand=9223372036854775808\nreported_rdrand=0\nrecorded_disabled_rdrand=0\n"
                  "recorded_defective_rdrand=0\nreported_rdseed=0\nrecorded_exhausted_rdseed=0\n"
                  "recorded_failed_rdseed=0\nrecorded_disabled_rdseed=1\nrecorded_defective_rdseed=0\n",
                  "add up past 2^64" },
                { "boot=" BOOT "\nserial=1\nrecorded_exhausted_rdseed=18446744073709551615\n"
                  "recorded_failed_rdseed=1\nreported_rdseed=0\nrecorded_disabled_rdseed=0\n"
                  "recorded_defective_rdseed=0\nreported_rdrand=0\nrecorded_exhausted_rdrand=0\n"
                  "recorded_failed_rdrand=0\nrecorded_disabled_rdrand=0\nrecorded_defective_rdrand=0\n",
                  "add up past 2^64" },
                /* more exhaustions reported than any event recorded */
                { "boot=" BOOT "\nserial=2\nreported_rdseed=7\nrecorded_exhausted_rdseed=4\n"
                  "recorded_failed_rdseed=2\nrecorded_disabled_rdseed=0\nrecorded_defective_rdseed=0\n"
                  "reported_rdrand=0\nrecorded_exhausted_rdrand=0\nrecorded_failed_rdrand=0\n"
                  "recorded_disabled_rdrand=0\nrecorded_defective_rdrand=0\n",
                  "more exhaustions reported than recorded" },
                /* no flush numbered it, yet it has counts or a cursor */
                { "boot=" BOOT "\nserial=0\nreported_rdseed=0\nrecorded_exhausted_rdseed=0\n"
                  "recorded_failed_rdseed=0\nrecorded_disabled_rdseed=0\nrecorded_defective_rdseed=3\n"
                  "reported_rdrand=0\nrecorded_exhausted_rdrand=0\nrecorded_failed_rdrand=0\n"
                  "recorded_disabled_rdrand=0\nrecorded_defective_rdrand=0\n",
                  "serial 0" },
                { "boot=" BOOT "\ncursor=s=1\nserial=0\n" FULL_TAIL, "serial 0" },
        };
        KernelWatchState s = { .serial = 42 };

        for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
                CHECK(parse(bad[i], &s) == -EBADMSG, "'%s' must be refused", bad[i]);
                CHECK_EQ_U64(s.serial, 42); /* untouched */
        }
        for (size_t i = 0; i < ELEMENTSOF(contradictions); i++) {
                const char *why = NULL, *t = contradictions[i].text;

                CHECK_EQ_INT(kernel_watch_state_parse_why(t, strlen(t), &s, &why), -EBADMSG);
                CHECK(why && strstr(why, contradictions[i].why), "case %zu: why '%s'", i, why ?: "(null)");
                CHECK_EQ_U64(s.serial, 42);
        }
        /* At the edge: the sum is exactly 2^64 - 1, and all of it reported. */
        {
                const char *t = "boot=" BOOT "\nserial=1\nrecorded_exhausted_rdrand=9223372036854775808\n"
                                "recorded_failed_rdrand=9223372036854775807\nreported_rdrand=18446744073709551615\n"
                                "recorded_disabled_rdrand=0\nrecorded_defective_rdrand=0\nreported_rdseed=0\n"
                                "recorded_exhausted_rdseed=0\nrecorded_failed_rdseed=0\nrecorded_disabled_rdseed=0\n"
                                "recorded_defective_rdseed=0\n";
                KernelWatchState e = {};

                CHECK_EQ_INT(parse(t, &e), 0);
                CHECK_EQ_U64(e.reported[RNG_SOURCE_RDRAND], UINT64_MAX);
                kernel_watch_state_done(&e);
        }

        /* An embedded NUL. */
        CHECK_EQ_INT(kernel_watch_state_parse("boot=" BOOT "\nser\0al=1\n", 5 + 32 + 12, &s), -EBADMSG);
        /* Bounded by len: what follows is not read. */
        {
                const char *t = "serial=1\n" FULL_TAIL "boot=" BOOT "\nserial=7";

                CHECK_EQ_INT(kernel_watch_state_parse(t, strlen(t) - strlen("serial=7"), &s), 0);
                CHECK_EQ_U64(s.serial, 1);
                kernel_watch_state_done(&s);
        }

        /* A line of KERNEL_WATCH_STATE_LINE_MAX bytes with its newline is
         * taken, one byte more is refused. */
        {
                size_t head = strlen("serial=1\n" FULL_TAIL "boot=" BOOT "\ncursor=");
                size_t n = head + KERNEL_WATCH_STATE_LINE_MAX + 64;
                char *big = malloc(n);

                CHECK(big, "malloc");
                if (big) {
                        memcpy(big, "serial=1\n" FULL_TAIL "boot=" BOOT "\ncursor=", head);
                        memset(big + head, 'c', n - head);
                        /* the cursor line: "cursor=" + fill + "\n" */
                        big[head - strlen("cursor=") + KERNEL_WATCH_STATE_LINE_MAX - 1] = '\n';
                        CHECK_EQ_INT(kernel_watch_state_parse(big, head - strlen("cursor=") +
                                                                           KERNEL_WATCH_STATE_LINE_MAX, &s), 0);
                        CHECK(s.cursor && strlen(s.cursor) == KERNEL_WATCH_STATE_LINE_MAX - 1 - strlen("cursor="),
                              "long cursor");
                        kernel_watch_state_done(&s);
                        big[head - strlen("cursor=") + KERNEL_WATCH_STATE_LINE_MAX - 1] = 'c';
                        big[head - strlen("cursor=") + KERNEL_WATCH_STATE_LINE_MAX] = '\n';
                        CHECK_EQ_INT(kernel_watch_state_parse(big, head - strlen("cursor=") +
                                                                           KERNEL_WATCH_STATE_LINE_MAX + 1, &s),
                                     -EBADMSG);
                        free(big);
                }
        }
        CHECK_EQ_INT(kernel_watch_state_parse(NULL, 1, &s), -EINVAL);
}

/* --- files ------------------------------------------------------------------ */

static char dir[] = "/tmp/test-kernel-watch-state-XXXXXX";

static char *file(const char *name) {
        char *p;

        return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

static bool exists(const char *name) {
        _cleanup_free_ char *p = file(name);

        return p && access(p, F_OK) == 0;
}

static int write_text(const char *name, const char *text) {
        _cleanup_free_ char *p = file(name);
        _cleanup_fclose_ FILE *f = p ? fopen(p, "we") : NULL;

        return f && fputs(text, f) >= 0 ? 0 : -EIO;
}

typedef struct Journal {
        uint64_t holds;  /* the serial the fake journal holds, 0: none */
        unsigned asked;
} Journal;

static int has_serial(uint64_t serial, void *userdata) {
        Journal *j = userdata;

        j->asked++;
        return j->holds != 0 && serial == j->holds;
}

static void test_restore(void) {
        _cleanup_(kernel_watch_state_done) KernelWatchState s = {}, t = {};
        sd_id128_t boot, other;
        Journal j = {};

        CHECK(mkdtemp(dir), "mkdtemp");
        CHECK_EQ_INT(sd_id128_from_string(BOOT, &boot), 0);
        CHECK_EQ_INT(sd_id128_from_string(OTHER_BOOT, &other), 0);

        /* Nothing saved, or no directory: empty, of this boot. */
        CHECK_EQ_INT(kernel_watch_state_restore(dir, boot, NULL, has_serial, &j, &s), 0);
        CHECK(sd_id128_equal(s.boot_id, boot) && s.serial == 0 && !s.cursor, "empty state");
        kernel_watch_state_done(&s);
        CHECK_EQ_INT(kernel_watch_state_restore(NULL, boot, NULL, has_serial, &j, &s), 0);
        CHECK(sd_id128_equal(s.boot_id, boot) && s.serial == 0, "empty state without a dir");
        kernel_watch_state_done(&s);

        /* Write .new, commit: restored as written. */
        sample(&t);
        CHECK_EQ_INT(kernel_watch_state_write_new(dir, &t), 0);
        CHECK(exists(KERNEL_WATCH_STATE_FILE_NEW) && !exists(KERNEL_WATCH_STATE_FILE_NEW ".tmp"), ".new");
        CHECK_EQ_INT(kernel_watch_state_commit(dir), 0);
        CHECK(!exists(KERNEL_WATCH_STATE_FILE_NEW) && exists(KERNEL_WATCH_STATE_FILE), "committed");
        CHECK_EQ_INT(kernel_watch_state_commit(dir), -ENOENT);
        CHECK_EQ_INT(kernel_watch_state_restore(dir, boot, NULL, has_serial, &j, &s), 0);
        check_same(&s, &t);
        kernel_watch_state_done(&s);

        /* Another boot's state is not used. */
        CHECK_EQ_INT(kernel_watch_state_restore(dir, other, NULL, has_serial, &j, &s), 0);
        CHECK(sd_id128_equal(s.boot_id, other) && s.serial == 0 && s.reported[RNG_SOURCE_RDSEED] == 0, "other boot");
        kernel_watch_state_done(&s);

        /* A leftover .new (serial 8) whose events the journal lacks: removed,
         * the committed state (serial 7) stands. */
        t.serial = 8;
        t.reported[RNG_SOURCE_RDSEED] = 20;
        t.recorded[KERNEL_RNG_MSG_EXHAUSTED][RNG_SOURCE_RDSEED] = 20;
        CHECK_EQ_INT(kernel_watch_state_write_new(dir, &t), 0);
        j = (Journal) { .holds = 0 };
        CHECK_EQ_INT(kernel_watch_state_restore(dir, boot, NULL, has_serial, &j, &s), 0);
        CHECK_EQ_U64(s.serial, 7);
        CHECK_EQ_U64(s.reported[RNG_SOURCE_RDSEED], 12);
        CHECK_EQ_INT(j.asked, 1);
        CHECK(!exists(KERNEL_WATCH_STATE_FILE_NEW), ".new removed");
        kernel_watch_state_done(&s);

        /* The journal holds serial 8: .new committed and adopted. */
        CHECK_EQ_INT(kernel_watch_state_write_new(dir, &t), 0);
        j = (Journal) { .holds = 8 };
        CHECK_EQ_INT(kernel_watch_state_restore(dir, boot, NULL, has_serial, &j, &s), 0);
        CHECK_EQ_U64(s.serial, 8);
        CHECK_EQ_U64(s.reported[RNG_SOURCE_RDSEED], 20);
        CHECK(!exists(KERNEL_WATCH_STATE_FILE_NEW), ".new committed");
        kernel_watch_state_done(&s);
        CHECK_EQ_INT(kernel_watch_state_load(dir, KERNEL_WATCH_STATE_FILE, &s), 0);
        CHECK_EQ_U64(s.serial, 8);
        kernel_watch_state_done(&s);

        /* A .new not above the committed serial is stale: removed unasked. */
        CHECK_EQ_INT(kernel_watch_state_write_new(dir, &t), 0);
        j = (Journal) { .holds = 8 };
        CHECK_EQ_INT(kernel_watch_state_restore(dir, boot, NULL, has_serial, &j, &s), 0);
        CHECK_EQ_INT(j.asked, 0);
        CHECK(!exists(KERNEL_WATCH_STATE_FILE_NEW), "stale .new removed");
        kernel_watch_state_done(&s);

        /* A state counting more than the kernel has is ignored, and so is
         * a .new doing so; both are logged. */
        {
                KernelCounters c = { .exhausted = { [RNG_SOURCE_RDSEED] = 19 } };

                t.reported[RNG_SOURCE_RDRAND] = 0;
                t.recorded[KERNEL_RNG_MSG_EXHAUSTED][RNG_SOURCE_RDRAND] = t.recorded[KERNEL_RNG_MSG_FAILED][RNG_SOURCE_RDRAND] = 0;
                t.serial = 10;
                CHECK_EQ_INT(kernel_watch_state_write_new(dir, &t), 0); /* reported_rdseed=20 */
                CHECK_EQ_INT(kernel_watch_state_commit(dir), 0);
                CHECK_EQ_INT(kernel_watch_state_restore(dir, boot, &(KernelWatchStateCheck) { .counters = &c },
                                                        has_serial, &j, &s), 0);
                CHECK(s.serial == 0 && s.reported[RNG_SOURCE_RDSEED] == 0, "state above the counter taken");
                kernel_watch_state_done(&s);
                c.exhausted[RNG_SOURCE_RDSEED] = 20;
                CHECK_EQ_INT(kernel_watch_state_restore(dir, boot, &(KernelWatchStateCheck) { .counters = &c },
                                                        has_serial, &j, &s), 0);
                CHECK_EQ_U64(s.serial, 10);
                kernel_watch_state_done(&s);
        }

        /* A FIFO, a directory or a symbolic link in
         * the state's place is ignored at once (alarm() ends the test if
         * the open waits for a writer), and logged. */
        {
                char path[256], target[256];

                snprintf(path, sizeof(path), "%s/%s", dir, KERNEL_WATCH_STATE_FILE);
                unlink(path);
                CHECK(mkfifo(path, 0600) == 0, "mkfifo");
                alarm(5);
                CHECK_EQ_INT(kernel_watch_state_restore(dir, boot, NULL, has_serial, &j, &s), 0);
                alarm(0);
                CHECK(sd_id128_equal(s.boot_id, boot) && s.serial == 0, "FIFO state taken");
                kernel_watch_state_done(&s);
                CHECK_EQ_INT(kernel_watch_state_load(dir, KERNEL_WATCH_STATE_FILE, &s), -EBADFD);
                unlink(path);
                CHECK(mkdir(path, 0700) == 0, "mkdir");
                CHECK_EQ_INT(kernel_watch_state_load(dir, KERNEL_WATCH_STATE_FILE, &s), -EISDIR);
                rmdir(path);
                /* a link to a good state: not followed */
                t.serial = 11;
                CHECK_EQ_INT(kernel_watch_state_write_new(dir, &t), 0);
                snprintf(target, sizeof(target), "%s/%s", dir, KERNEL_WATCH_STATE_FILE_NEW);
                CHECK(symlink(target, path) == 0, "symlink");
                CHECK_EQ_INT(kernel_watch_state_load(dir, KERNEL_WATCH_STATE_FILE, &s), -ELOOP);
                CHECK_EQ_INT(kernel_watch_state_load(dir, KERNEL_WATCH_STATE_FILE_NEW, &s), 0);
                CHECK_EQ_U64(s.serial, 11);
                kernel_watch_state_done(&s);
                unlink(path);
                unlink(target);
        }

        /* A corrupt state is ignored (start of the boot), a corrupt .new removed. */
        CHECK_EQ_INT(write_text(KERNEL_WATCH_STATE_FILE, "boot=" BOOT "\nserial=-1\n"), 0);
        CHECK_EQ_INT(write_text(KERNEL_WATCH_STATE_FILE_NEW, "boot=" BOOT "\nserial=9"), 0);
        CHECK_EQ_INT(kernel_watch_state_restore(dir, boot, NULL, has_serial, &j, &s), 0);
        CHECK(sd_id128_equal(s.boot_id, boot) && s.serial == 0, "corrupt state ignored");
        CHECK(!exists(KERNEL_WATCH_STATE_FILE_NEW), "corrupt .new removed");
        kernel_watch_state_done(&s);

        {
                char cmd[256];

                snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
                CHECK(system(cmd) == 0, "cleanup");
        }
}

/* restore() with stderr (its log) in log. */
static int restore_logged(sd_id128_t boot, const KernelWatchStateCheck *check, KernelWatchState *s, char *log,
                          size_t len) {
        TestStderr c = test_stderr_begin();
        Journal j = {};
        int r = kernel_watch_state_restore(dir, boot, check, has_serial, &j, s);

        test_stderr_end(&c, log, len);
        return r;
}

/* Refused like a cut file, and said once: the absurd state on a
 * kernel without counters, and another boot's state (at info). */
static void test_restore_refused(void) {
        _cleanup_(kernel_watch_state_done) KernelWatchState s = {};
        KernelWatchStateCheck none = { .no_counters = true };
        char log[1024];
        sd_id128_t boot, other;

        CHECK(mkdtemp(strcpy(dir, "/tmp/test-kernel-watch-state.XXXXXX")), "mkdtemp");
        CHECK_EQ_INT(sd_id128_from_string(BOOT, &boot), 0);
        CHECK_EQ_INT(sd_id128_from_string(OTHER_BOOT, &other), 0);
        CHECK_EQ_INT(write_text(KERNEL_WATCH_STATE_FILE,
                                "boot=" BOOT "\nserial=1\nreported_rdrand=18446744073709551615\n"
                                "recorded_exhausted_rdrand=18446744073709551615\nrecorded_failed_rdrand=0\n"
                                "recorded_disabled_rdrand=0\nrecorded_defective_rdrand=0\nreported_rdseed=0\n"
                                "recorded_exhausted_rdseed=0\nrecorded_failed_rdseed=0\nrecorded_disabled_rdseed=0\n"
                                "recorded_defective_rdseed=0\n"), 0);
        CHECK_EQ_INT(restore_logged(boot, &none, &s, log, sizeof(log)), 0);
        CHECK(sd_id128_equal(s.boot_id, boot) && s.serial == 0 && s.reported[RNG_SOURCE_RDRAND] == 0 &&
              s.recorded[KERNEL_RNG_MSG_EXHAUSTED][RNG_SOURCE_RDRAND] == 0, "the absurd state was taken");
        CHECK(strstr(log, "Kernel watch: ignoring ") && strstr(log, "/kernel-watch.state: it has 18446744073709551615 "
                                                                   "RDRAND exhaustions counted by the kernel, but this "
                                                                   "kernel has no counters\n"), "log: '%s'", log);
        CHECK(!strchr(strchr(log, '\n') + 1, '\n'), "said more than once: '%s'", log);
        kernel_watch_state_done(&s);

        /* another boot's: not taken, said (once, not as a warning) */
        CHECK_EQ_INT(restore_logged(other, &none, &s, log, sizeof(log)), 0);
        CHECK(sd_id128_equal(s.boot_id, other) && s.serial == 0, "another boot's state was taken");
        CHECK(strstr(log, "/kernel-watch.state: it is of another boot (" BOOT "); this boot is counted from its start\n"),
              "log: '%s'", log);
        CHECK(!strchr(strchr(log, '\n') + 1, '\n'), "said more than once: '%s'", log);
        kernel_watch_state_done(&s);
        {
                char cmd[256];

                snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
                CHECK(system(cmd) == 0, "cleanup");
        }
}

int main(void) {
        test_round_trip();
        test_parse_good();
        test_parse_bad();
        test_parse_cut();
        test_check_counters();
        test_check_summary();
        test_restore();
        test_restore_refused();
        return test_result("test-kernel-watch-state");
}
