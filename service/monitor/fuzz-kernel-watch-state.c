/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The kernel watch's state file: kernel_watch_state_parse_why() on the raw
 * bytes. Checked: 0 or -EBADMSG with a reason, *ret untouched on refusal,
 * no NUL byte in an accepted file; an accepted state formats to a text
 * that parses to the same state and formats to the same text again; that
 * text is never longer than the input (every key once, no padding but
 * leading zeros); the check against counters taken from the state itself
 * passes, and fails when one count is above the kernel's; on a kernel
 * without counters it fails exactly when the state has a count only
 * counters give, or more messages than the journal (as it is told) holds;
 * the fields of an
 * accepted state agree: per instruction the exhausted + failed
 * + own counts do not pass 2^64 and cover what was reported, own is part
 * of reported, and serial 0 holds
 * nothing. */

#include <errno.h>

#include "fuzz-util.h"
#include "kernel-watch-state.h"
#include "macro.h"

/* The journal as kernel_watch_state_check() is told it: the counts in
 * userdata, up to any cursor. */
static int count_messages(const char *cursor, uint64_t ret[_KERNEL_RNG_MSG_MAX][_RNG_SOURCE_MAX], void *userdata) {
        memcpy(ret, userdata, sizeof(uint64_t) * _KERNEL_RNG_MSG_MAX * _RNG_SOURCE_MAX);
        if (!cursor)
                memset(ret, 0, sizeof(uint64_t) * _KERNEL_RNG_MSG_MAX * _RNG_SOURCE_MAX);
        return 0;
}

static bool state_equal(const KernelWatchState *a, const KernelWatchState *b) {
        if (!sd_id128_equal(a->boot_id, b->boot_id) || a->serial != b->serial)
                return false;
        if (!a->cursor != !b->cursor || (a->cursor && strcmp(a->cursor, b->cursor) != 0))
                return false;
        return memcmp(a->reported, b->reported, sizeof(a->reported)) == 0 &&
               memcmp(a->recorded, b->recorded, sizeof(a->recorded)) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        KernelWatchState s, again = {}, untouched;
        _cleanup_free_ char *text = NULL, *text2 = NULL;
        KernelCounters counters = {};
        const char *why = NULL;
        char buf[256];
        int r;

        memset(&s, 0, sizeof(s));
        s.serial = 0xdead;
        untouched = s;
        r = kernel_watch_state_parse_why((const char *) data, size, &s, &why);
        FUZZ_ASSERT(r == 0 || r == -EBADMSG);
        if (r < 0) {
                FUZZ_ASSERT(why && why[0]);
                FUZZ_ASSERT(memcmp(&s, &untouched, sizeof(s)) == 0);
                return 0;
        }
        FUZZ_ASSERT(!memchr(data, '\0', size));
        for (int i = 0; i < _RNG_SOURCE_MAX; i++) {
                unsigned __int128 sum = (unsigned __int128) s.recorded[KERNEL_RNG_MSG_EXHAUSTED][i] +
                                        s.recorded[KERNEL_RNG_MSG_FAILED][i] + s.own[i];

                FUZZ_ASSERT(sum <= UINT64_MAX && s.reported[i] <= sum && s.own[i] <= s.reported[i]);
                for (int k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                        FUZZ_ASSERT(s.serial > 0 || s.recorded[k][i] == 0);
        }
        FUZZ_ASSERT(s.serial > 0 || !s.cursor);

        FUZZ_ASSERT(kernel_watch_state_format(&s, &text) == 0);
        FUZZ_ASSERT(strlen(text) <= size);
        FUZZ_ASSERT(kernel_watch_state_parse(text, strlen(text), &again) == 0);
        FUZZ_ASSERT(state_equal(&s, &again));
        FUZZ_ASSERT(kernel_watch_state_format(&again, &text2) == 0);
        FUZZ_ASSERT(strcmp(text, text2) == 0);

        /* Counters that are exactly what the state reported and recorded:
         * consistent; one fewer: not. */
        for (int i = 0; i < _RNG_SOURCE_MAX; i++)
                counters.exhausted[i] = counters.retried[i] =
                        MAX(s.reported[i], s.recorded[KERNEL_RNG_MSG_EXHAUSTED][i] + s.recorded[KERNEL_RNG_MSG_FAILED][i]);
        FUZZ_ASSERT(kernel_watch_state_check_counters(&s, &counters, buf, sizeof(buf)) == 0);
        FUZZ_ASSERT(kernel_watch_state_check_counters(&s, NULL, buf, sizeof(buf)) == 0);
        for (int i = 0; i < _RNG_SOURCE_MAX; i++)
                if (counters.exhausted[i] > 0) {
                        KernelCounters fewer = counters;

                        fewer.exhausted[i]--;
                        FUZZ_ASSERT(kernel_watch_state_check_counters(&s, &fewer, buf, sizeof(buf)) == -ERANGE);
                }

        /* A kernel without counters, and a journal holding exactly the
         * state's message counts: refused exactly for a counter's count. */
        {
                uint64_t messages[_KERNEL_RNG_MSG_MAX][_RNG_SOURCE_MAX];
                KernelWatchStateCheck none = { .no_counters = true, .count_messages = count_messages,
                                               .userdata = messages };
                bool counted = false, recorded = false;

                memcpy(messages, s.recorded, sizeof(messages));
                for (int i = 0; i < _RNG_SOURCE_MAX; i++) {
                        counted = counted || s.reported[i] > 0 || s.own[i] > 0;
                        for (int k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                                recorded = recorded || s.recorded[k][i] > 0;
                }
                r = kernel_watch_state_check(&s, &none, buf, sizeof(buf));
                /* without a cursor the journal holds no message of it */
                FUZZ_ASSERT(r == (counted || (recorded && !s.cursor) ? -ERANGE : 0));
                for (int i = 0; i < _RNG_SOURCE_MAX && !counted && s.cursor; i++)
                        for (int k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                                if (s.recorded[k][i] > 0) {
                                        messages[k][i]--;
                                        FUZZ_ASSERT(kernel_watch_state_check(&s, &none, buf, sizeof(buf)) == -ERANGE);
                                        messages[k][i]++;
                                }
        }

        kernel_watch_state_done(&s);
        kernel_watch_state_done(&again);
        return 0;
}
