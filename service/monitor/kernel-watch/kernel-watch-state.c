/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The kernel watch's state file: pure parse and format, and the .new /
 * commit / restore protocol of kernel-watch.h on top. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "escape.h"
#include "fileio.h"
#include "journal-event.h"
#include "kernel-watch-state.h"
#include "macro.h"
#include "parse-util.h"
#include "status.h"

#define STATE_FILE_MAX (1024 * 1024)

void kernel_watch_state_done(KernelWatchState *s) {
        free(s->cursor);
        *s = (KernelWatchState) {};
}

int kernel_watch_state_copy(const KernelWatchState *s, KernelWatchState *ret) {
        KernelWatchState c = *s;

        if (s->cursor && !(c.cursor = strdup(s->cursor)))
                return -ENOMEM;
        *ret = c;
        return 0;
}

/* Which keys a file gave, for the whole-file check. */
typedef struct StateSeen {
        bool boot, cursor, serial;
        bool reported[_RNG_SOURCE_MAX];
        bool recorded[_KERNEL_RNG_MSG_MAX][_RNG_SOURCE_MAX];
        bool own[_RNG_SOURCE_MAX];
} StateSeen;

/* The number a known key stores into and its seen flag, or NULL for an
 * unknown key. */
static uint64_t *state_slot(KernelWatchState *s, StateSeen *seen, const char *key, bool **ret_seen) {
        char name[64];

        if (strcmp(key, "serial") == 0) {
                *ret_seen = &seen->serial;
                return &s->serial;
        }
        FOREACH_RNG_SOURCE(i) {
                /* Keys only for the sources the kernel logs or counts. */
                if (!rng_source_kernel_logged(i))
                        continue;
                snprintf(name, sizeof(name), "reported_%s", rng_source_name(i));
                if (strcmp(key, name) == 0) {
                        *ret_seen = &seen->reported[i];
                        return &s->reported[i];
                }
                snprintf(name, sizeof(name), "own_%s", rng_source_name(i));
                if (strcmp(key, name) == 0) {
                        *ret_seen = &seen->own[i];
                        return &s->own[i];
                }
                for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++) {
                        snprintf(name, sizeof(name), "recorded_%s_%s", kernel_rng_msg_kind_to_string(k),
                                 rng_source_name(i));
                        if (strcmp(key, name) == 0) {
                                *ret_seen = &seen->recorded[k][i];
                                return &s->recorded[k][i];
                        }
                }
        }
        return NULL;
}

static int state_parse_line(KernelWatchState *s, StateSeen *seen, char *line, const char **why) {
        char *val = strchr(line, '=');
        uint64_t *slot;
        bool *flag;

        if (!val) {
                *why = "a line without '='";
                return -EBADMSG;
        }
        *val++ = '\0';
        if (strcmp(line, "boot") == 0) {
                flag = &seen->boot;
                if (!*flag && sd_id128_from_string(val, &s->boot_id) < 0) {
                        *why = "a bad boot id";
                        return -EBADMSG;
                }
        } else if (strcmp(line, "cursor") == 0) {
                flag = &seen->cursor;
                if (!*flag) {
                        if (!val[0]) {
                                *why = "an empty cursor";
                                return -EBADMSG;
                        }
                        s->cursor = strdup(val);
                        if (!s->cursor)
                                return -ENOMEM;
                }
        } else if ((slot = state_slot(s, seen, line, &flag))) {
                /* Strict: no sign or space (a " -1" used to wrap around). */
                if (!*flag && parse_u64(val, slot) < 0) {
                        *why = "a value that is not an unsigned decimal number";
                        return -EBADMSG;
                }
        } else {
                *why = "an unknown key";
                return -EBADMSG;
        }
        if (*flag) {
                *why = "a key given twice";
                return -EBADMSG;
        }
        *flag = true;
        return 0;
}

static bool state_complete(const StateSeen *seen) {
        if (!seen->boot || !seen->serial)
                return false;
        FOREACH_RNG_SOURCE(i) {
                if (!rng_source_kernel_logged(i))
                        continue;
                if (!seen->reported[i])
                        return false;
                for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                        if (!seen->recorded[k][i])
                                return false;
        }
        return true;
}

/* The invariants between the fields, as kernel_watch_account() keeps them
 * (kernel-watch-account.h): a state that breaks one did not come from it,
 * and is refused like a cut file. NULL if it holds, else why not. */
static const char *state_contradiction(const KernelWatchState *s) {
        bool any = s->cursor;

        FOREACH_RNG_SOURCE(i) {
                uint64_t exhausted = s->recorded[KERNEL_RNG_MSG_EXHAUSTED][i],
                         failed = s->recorded[KERNEL_RNG_MSG_FAILED][i];

                /* The failure counts are summed (the status, the verdict):
                 * 2^63 + 2^63 would wrap to 0 failures under an exhausted
                 * verdict. */
                if (exhausted > UINT64_MAX - failed || exhausted + failed > UINT64_MAX - s->own[i])
                        return "contradictory counts (the recorded failures add up past 2^64)";
                /* The own probe's exhaustions are part of what was reported. */
                if (s->own[i] > s->reported[i])
                        return "contradictory counts (more exhaustions during the own probe than reported)";
                /* Every exhaustion the kernel's counter showed went into an
                 * event, the own probe's included: the counts add up to the
                 * counter's growth. */
                if (s->reported[i] > exhausted + failed + s->own[i])
                        return "contradictory counts (more exhaustions reported than recorded in events)";
                any = any || s->reported[i] > 0 || s->own[i] > 0;
                for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                        any = any || s->recorded[k][i] > 0;
        }
        /* Written only by a flush that sent events, which numbers it. */
        if (s->serial == 0 && any)
                return "contradictory counts (serial 0, but counts or a cursor)";
        return NULL;
}

int kernel_watch_state_parse_why(const char *text, size_t len, KernelWatchState *ret, const char **ret_why) {
        _cleanup_(kernel_watch_state_done) KernelWatchState s = {};
        StateSeen seen = {};
        const char *why = NULL;
        int r;

        if ((!text && len > 0) || !ret)
                return -EINVAL;
        for (size_t p = 0; p < len;) {
                const char *nl = memchr(text + p, '\n', len - p);
                char line[KERNEL_WATCH_STATE_LINE_MAX];
                size_t n;

                if (!nl) {
                        why = "cut inside a line";
                        r = -EBADMSG;
                        goto fail;
                }
                n = (size_t) (nl - (text + p));
                if (n + 1 > KERNEL_WATCH_STATE_LINE_MAX) {
                        why = "a line too long";
                        r = -EBADMSG;
                        goto fail;
                }
                if (memchr(text + p, '\0', n)) {
                        why = "a NUL byte";
                        r = -EBADMSG;
                        goto fail;
                }
                memcpy(line, text + p, n);
                line[n] = '\0';
                p += n + 1;
                r = state_parse_line(&s, &seen, line, &why);
                if (r < 0)
                        goto fail;
        }
        if (!state_complete(&seen)) {
                /* e.g. cut at a line boundary: taking it would report again
                 * what was already reported */
                why = seen.boot ? "incomplete (a key is missing)" : "no boot id";
                r = -EBADMSG;
                goto fail;
        }
        why = state_contradiction(&s);
        if (why) {
                r = -EBADMSG;
                goto fail;
        }
        *ret = s;
        s = (KernelWatchState) {};
        return 0;
fail:
        if (ret_why)
                *ret_why = why ?: strerror(-r);
        return r;
}

int kernel_watch_state_parse(const char *text, size_t len, KernelWatchState *ret) {
        return kernel_watch_state_parse_why(text, len, ret, NULL);
}

int kernel_watch_state_check_counters(const KernelWatchState *s, const KernelCounters *c, char *why, size_t len) {
        if (!c)
                return 0;
        FOREACH_RNG_SOURCE(i) {
                /* the parser refuses a sum past 2^64; own_ is part of reported_ */
                uint64_t failures = s->recorded[KERNEL_RNG_MSG_EXHAUSTED][i] + s->recorded[KERNEL_RNG_MSG_FAILED][i];

                if (s->reported[i] > c->exhausted[i]) {
                        snprintf(why, len,
                                 "it has %" PRIu64 " %s exhaustions reported, but the kernel counts only %" PRIu64,
                                 s->reported[i], rng_source_display_name(i), c->exhausted[i]);
                        return -ERANGE;
                }
                /* Every failure recorded was one the kernel counted (its
                 * counter's growth, or a logged exhaustion it counted). */
                if (failures > c->exhausted[i]) {
                        snprintf(why, len,
                                 "it has %" PRIu64 " %s failures recorded, but the kernel counts only %" PRIu64,
                                 failures, rng_source_display_name(i), c->exhausted[i]);
                        return -ERANGE;
                }
        }
        return 0;
}

/* Whether a count of kind k is one of messages: disabled and defective
 * always, exhausted and failed where the kernel has no counters (with
 * counters they are the counter's growth, which the log may not show). */
static bool counts_messages(KernelRngMsgKind k, bool no_counters) {
        return no_counters || (k != KERNEL_RNG_MSG_EXHAUSTED && k != KERNEL_RNG_MSG_FAILED);
}

int kernel_watch_state_check(const KernelWatchState *s, const KernelWatchStateCheck *check, char *why, size_t len) {
        uint64_t messages[_KERNEL_RNG_MSG_MAX][_RNG_SOURCE_MAX] = {};
        bool any = false;
        int r;

        if (!check)
                return 0;
        r = kernel_watch_state_check_counters(s, check->counters, why, len);
        if (r < 0)
                return r;
        FOREACH_RNG_SOURCE(i) {
                /* reported_ and own_ are the counters' values: a kernel
                 * without counters gives none. */
                if (check->no_counters && (s->reported[i] > 0 || s->own[i] > 0)) {
                        snprintf(why, len,
                                 "it has %" PRIu64 " %s exhaustions counted by the kernel, but this kernel has no counters",
                                 MAX(s->reported[i], s->own[i]), rng_source_display_name(i));
                        return -ERANGE;
                }
                for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                        any = any || (counts_messages(k, check->no_counters) && s->recorded[k][i] > 0);
        }
        if (!any || !check->count_messages)
                return 0; /* nothing that only the journal could show */
        r = check->count_messages(s->cursor, messages, check->userdata);
        if (r < 0)
                return r;
        FOREACH_RNG_SOURCE(i)
                for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                        if (counts_messages(k, check->no_counters) && s->recorded[k][i] > messages[k][i]) {
                                snprintf(why, len,
                                         "it has %" PRIu64 " %s %s messages recorded, but this boot's journal holds %" PRIu64
                                         " up to its position",
                                         s->recorded[k][i], rng_source_display_name(i),
                                         kernel_rng_msg_kind_to_string(k), messages[k][i]);
                                return -ERANGE;
                        }
        return 0;
}

int kernel_watch_state_format(const KernelWatchState *s, char **ret) {
        _cleanup_free_ char *buf = NULL;
        char id[SD_ID128_STRING_MAX];
        size_t size = 0;
        FILE *f;

        f = open_memstream(&buf, &size);
        if (!f)
                return -ENOMEM;
        fprintf(f, "boot=%s\n", sd_id128_to_string(s->boot_id, id));
        if (s->cursor)
                fprintf(f, "cursor=%s\n", s->cursor);
        fprintf(f, "serial=%" PRIu64 "\n", s->serial);
        FOREACH_RNG_SOURCE(i) {
                if (!rng_source_kernel_logged(i))
                        continue;
                fprintf(f, "reported_%s=%" PRIu64 "\n", rng_source_name(i), s->reported[i]);
                /* Optional on read: written only when there is something
                 * to say, so a state without an own probe keeps its size. */
                if (s->own[i] > 0)
                        fprintf(f, "own_%s=%" PRIu64 "\n", rng_source_name(i), s->own[i]);
                for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                        fprintf(f, "recorded_%s_%s=%" PRIu64 "\n", kernel_rng_msg_kind_to_string(k),
                                rng_source_name(i), s->recorded[k][i]);
        }
        if (ferror(f) | (fclose(f) != 0))
                return -ENOMEM;
        *ret = TAKE_PTR(buf);
        return 0;

}

static char *state_path(const char *dir, const char *name) {
        char *p;

        return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

int kernel_watch_state_load(const char *dir, const char *name, KernelWatchState *ret) {
        _cleanup_free_ char *path = state_path(dir, name), *text = NULL;
        size_t len;
        int r;

        if (!path)
                return -ENOMEM;
        r = read_small_file_full(path, READ_NOFOLLOW, STATE_FILE_MAX, &text, &len);
        if (r < 0)
                return r;
        return kernel_watch_state_parse(text, len, ret);
}

int kernel_watch_state_write_new(const char *dir, const KernelWatchState *s) {
        _cleanup_free_ char *path = state_path(dir, KERNEL_WATCH_STATE_FILE_NEW), *text = NULL;
        int r;

        if (!path)
                return -ENOMEM;
        r = kernel_watch_state_format(s, &text);
        if (r < 0)
                return r;
        return write_file_atomic(path, text, 0600);
}

int kernel_watch_state_commit(const char *dir) {
        _cleanup_free_ char *from = state_path(dir, KERNEL_WATCH_STATE_FILE_NEW),
                            *to = state_path(dir, KERNEL_WATCH_STATE_FILE);

        if (!from || !to)
                return -ENOMEM;
        if (rename(from, to) < 0)
                return negative_errno();
        return 0;
}

void kernel_watch_state_save_begin(const char *dir, const KernelWatchState *next) {
        int r;

        if (!dir)
                return;
        r = kernel_watch_state_write_new(dir, next);
        if (r < 0) {
                _cleanup_free_ char *shown = escape_str(dir);

                log_warning_errno(r, "Kernel watch: cannot write its state to %s: %m", shown ?: "(out of memory)");
        }
}

void kernel_watch_state_save_end(const char *dir) {
        int r;

        if (!dir)
                return;
        r = kernel_watch_state_commit(dir);
        if (r < 0 && r != -ENOENT)
                log_warning_errno(r, "Kernel watch: cannot commit its state: %m");
}

/* Loads dir/name for restore: the state if it is usable, else nothing,
 * with every refusal logged (only a missing file is quiet). 1 if *ret was
 * set, 0 if not. */
static int restore_load(const char *dir, const char *name, sd_id128_t boot, const KernelWatchStateCheck *check,
                        KernelWatchState *ret) {
        _cleanup_free_ char *path = state_path(dir, name), *text = NULL, *shown = NULL;
        _cleanup_(kernel_watch_state_done) KernelWatchState s = {};
        const char *why = NULL;
        char buf[256];
        size_t len;
        int r;

        if (!path || !(shown = escape_str(path)))
                return -ENOMEM;
        /* Never a link here; never a FIFO that would block the start. */
        r = read_small_file_full(path, READ_NOFOLLOW, STATE_FILE_MAX, &text, &len);
        if (r == -ENOENT)
                return 0;
        if (r < 0) {
                log_warning("Kernel watch: ignoring %s: %s", shown, input_error_to_string(r));
                return 0;
        }
        r = kernel_watch_state_parse_why(text, len, &s, &why);
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                log_warning("Kernel watch: ignoring %s: %s", shown, why);
                return 0;
        }
        if (!sd_id128_equal(s.boot_id, boot)) {
                char id[SD_ID128_STRING_MAX];

                /* After a reboot this is expected: said, not warned. */
                log_info("Kernel watch: ignoring %s: it is of another boot (%s); this boot is counted from its start",
                         shown, sd_id128_to_string(s.boot_id, id));
                return 0;
        }
        r = kernel_watch_state_check(&s, check, buf, sizeof(buf));
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                if (r == -ERANGE)
                        log_warning("Kernel watch: ignoring %s: %s", shown, buf);
                else
                        log_warning_errno(r, "Kernel watch: ignoring %s: cannot check it against the journal: %m",
                                          shown);
                return 0;
        }
        *ret = s;
        s = (KernelWatchState) {};
        return 1;
}

int kernel_watch_state_restore(const char *dir, sd_id128_t boot, const KernelWatchStateCheck *check,
                               KernelWatchHasSerial has_serial, void *userdata, KernelWatchState *ret) {
        _cleanup_(kernel_watch_state_done) KernelWatchState state = { .boot_id = boot }, committed = {},
                                                            pending = {};
        int r;

        if (!ret)
                return -EINVAL;
        if (dir) {
                r = restore_load(dir, KERNEL_WATCH_STATE_FILE, boot, check, &committed);
                if (r < 0)
                        return r;
                if (r > 0) {
                        state = committed;
                        committed = (KernelWatchState) {};
                }

                /* A flush interrupted after its .new state was written. */
                r = restore_load(dir, KERNEL_WATCH_STATE_FILE_NEW, boot, check, &pending);
                if (r < 0)
                        return r;
                if (r > 0 && pending.serial > state.serial && has_serial && has_serial(pending.serial, userdata) > 0) {
                        (void) kernel_watch_state_commit(dir);
                        kernel_watch_state_done(&state);
                        state = pending;
                        pending = (KernelWatchState) {};
                } else {
                        _cleanup_free_ char *path = state_path(dir, KERNEL_WATCH_STATE_FILE_NEW);

                        if (path)
                                (void) unlink(path);
                }
        }
        *ret = state;
        state = (KernelWatchState) {};
        return 0;
}

/* --- verdict and status --------------------------------------------------------- */

int kernel_watch_state_verdict_full(const KernelWatchState *s, bool have_counters, const uint64_t *held,
                                    bool no_journal, Verdict ret_verdicts[_RNG_SOURCE_MAX], char **ret_status) {
        StatusKernelSource figures[_RNG_SOURCE_MAX] = {};
        Verdict v[_RNG_SOURCE_MAX];
        char *status;

        FOREACH_RNG_SOURCE(i) {
                /* counted by the kernel, or (without counters) logged lines;
                 * not those during the own probe */
                uint64_t failures = MAX(s->reported[i] - MIN(s->own[i], s->reported[i]),
                                        s->recorded[KERNEL_RNG_MSG_EXHAUSTED][i] + s->recorded[KERNEL_RNG_MSG_FAILED][i]);
                uint64_t waiting = held ? held[i] : 0;

                v[i] = VERDICT_OK;
                for (KernelRngMsgKind kind = 0; kind < _KERNEL_RNG_MSG_MAX; kind++)
                        if (s->recorded[kind][i] > 0)
                                v[i] = verdict_worst(v[i], kernel_rng_msg_kind_verdict(kind));
                if (s->reported[i] > s->own[i] || waiting > 0)
                        v[i] = verdict_worst(v[i], VERDICT_EXHAUSTED);

                figures[i] = (StatusKernelSource) {
                        .failures = failures > UINT64_MAX - waiting ? UINT64_MAX : failures + waiting,
                        .waiting = waiting,
                        .own = s->own[i],
                        .disabled = s->recorded[KERNEL_RNG_MSG_DISABLED][i] > 0,
                        .defective = s->recorded[KERNEL_RNG_MSG_DEFECTIVE][i] > 0,
                };
        }

        status = status_format_kernel(figures, have_counters, no_journal);
        if (!status)
                return -ENOMEM;
        memcpy(ret_verdicts, v, sizeof(v));
        *ret_status = status;
        return 0;
}

int kernel_watch_state_verdict(const KernelWatchState *s, bool have_counters, const uint64_t *held,
                               Verdict ret_verdicts[_RNG_SOURCE_MAX], char **ret_status) {
        return kernel_watch_state_verdict_full(s, have_counters, held, false, ret_verdicts, ret_status);
}
