/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#include <systemd/sd-id128.h>
#include <systemd/sd-journal.h>

#include "kernel-watch.h"
#include "macro.h"

#define STATE_FILE "kernel-watch.state"
#define STATE_FILE_NEW "kernel-watch.state.new"
#define KERNEL_MESSAGE_MAX 512

/* Messages of one (kind, instruction) since the last recorded event. */
typedef struct Bucket {
        uint64_t messages;
        char *first_message;
        bool have_cpu;
        unsigned cpu, tries;
        const KernelReason *reason;
} Bucket;

/* What survives a restart within one boot. */
typedef struct WatchState {
        sd_id128_t boot_id;
        char *cursor;                                   /* last recorded message */
        uint64_t serial;                                /* of the last recorded flush */
        uint64_t reported[_RNG_INSTRUCTION_MAX];        /* exhausted counts accounted for */
        uint64_t recorded[_KERNEL_RNG_MSG_MAX][_RNG_INSTRUCTION_MAX]; /* counts in events */
} WatchState;

struct KernelWatch {
        sd_event *event;
        sd_journal *journal;
        sd_event_source *journal_source, *journal_timer, *flush_timer, *settle_timer;
        sd_event_source *counter_sources[_RNG_INSTRUCTION_MAX];

        char *state_dir, *sysfs_root;
        uint64_t flush_usec, settle_usec;
        VerdictSource *source; /* the Manager's; NULL once detached */

        Bucket buckets[_KERNEL_RNG_MSG_MAX][_RNG_INSTRUCTION_MAX];
        char *read_cursor;     /* last entry consumed (recorded once flushed) */
        bool pending;          /* some bucket holds messages */
        uint64_t quiet_until;  /* CLOCK_MONOTONIC: until then, aggregate */

        WatchState state;
        bool have_counters;
        KernelCounters counters;

        Verdict verdict;
        char *status;
};

static void bucket_clear(Bucket *b) {
        free(b->first_message);
        *b = (Bucket) {};
}

static void watch_state_done(WatchState *s) {
        free(s->cursor);
        *s = (WatchState) {};
}

/* --- state file ------------------------------------------------------------- */

/* "key=value" lines; unknown keys are ignored, a malformed known key makes
 * the whole file invalid (-EBADMSG): the caller starts from the boot. */
static int state_parse(FILE *f, WatchState *ret) {
        _cleanup_(watch_state_done) WatchState s = {};
        char line[4096];
        bool have_boot = false;

        while (fgets(line, sizeof(line), f)) {
                char *eq, *val, *end;
                size_t n = strlen(line);

                if (n == 0 || line[n - 1] != '\n')
                        return -EBADMSG;
                line[n - 1] = '\0';
                eq = strchr(line, '=');
                if (!eq)
                        return -EBADMSG;
                *eq = '\0';
                val = eq + 1;
                if (strcmp(line, "boot") == 0) {
                        if (sd_id128_from_string(val, &s.boot_id) < 0)
                                return -EBADMSG;
                        have_boot = true;
                } else if (strcmp(line, "cursor") == 0) {
                        free(s.cursor);
                        s.cursor = strdup(val);
                        if (!s.cursor)
                                return -ENOMEM;
                } else {
                        uint64_t *slot = NULL;
                        unsigned long long v;

                        if (strcmp(line, "serial") == 0)
                                slot = &s.serial;
                        for (RngInstruction i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                                char key[64];

                                snprintf(key, sizeof(key), "reported_%s", rng_instruction_to_string(i));
                                if (strcmp(line, key) == 0)
                                        slot = &s.reported[i];
                                for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++) {
                                        snprintf(key, sizeof(key), "recorded_%s_%s",
                                                 kernel_rng_msg_kind_to_string(k),
                                                 rng_instruction_to_string(i));
                                        if (strcmp(line, key) == 0)
                                                slot = &s.recorded[k][i];
                                }
                        }
                        if (!slot)
                                continue;
                        errno = 0;
                        v = strtoull(val, &end, 10);
                        if (errno != 0 || end == val || *end != '\0' || val[0] == '-')
                                return -EBADMSG;
                        *slot = v;
                }
        }
        if (ferror(f))
                return -EIO;
        if (!have_boot)
                return -EBADMSG;
        *ret = s;
        s = (WatchState) {};
        return 0;
}

static int state_load(const char *dir, const char *name, WatchState *ret) {
        _cleanup_fclose_ FILE *f = NULL;
        char path[4096];

        if ((size_t) snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
                return -ENAMETOOLONG;
        f = fopen(path, "re");
        if (!f)
                return negative_errno();
        return state_parse(f, ret);
}

static int state_write_new(const char *dir, const WatchState *s) {
        _cleanup_fclose_ FILE *f = NULL;
        char path[4096], tmp[4200], id[SD_ID128_STRING_MAX];

        if ((size_t) snprintf(path, sizeof(path), "%s/" STATE_FILE_NEW, dir) >= sizeof(path))
                return -ENAMETOOLONG;
        snprintf(tmp, sizeof(tmp), "%s.tmp", path);
        f = fopen(tmp, "we");
        if (!f)
                return negative_errno();
        fprintf(f, "boot=%s\n", sd_id128_to_string(s->boot_id, id));
        if (s->cursor)
                fprintf(f, "cursor=%s\n", s->cursor);
        fprintf(f, "serial=%" PRIu64 "\n", s->serial);
        for (RngInstruction i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                fprintf(f, "reported_%s=%" PRIu64 "\n", rng_instruction_to_string(i), s->reported[i]);
                for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                        fprintf(f, "recorded_%s_%s=%" PRIu64 "\n", kernel_rng_msg_kind_to_string(k),
                                rng_instruction_to_string(i), s->recorded[k][i]);
        }
        if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) < 0)
                return negative_errno();
        if (rename(tmp, path) < 0)
                return negative_errno();
        return 0;
}

static int state_commit(const char *dir) {
        char from[4096], to[4096];

        if ((size_t) snprintf(from, sizeof(from), "%s/" STATE_FILE_NEW, dir) >= sizeof(from) ||
            (size_t) snprintf(to, sizeof(to), "%s/" STATE_FILE, dir) >= sizeof(to))
                return -ENAMETOOLONG;
        if (rename(from, to) < 0)
                return negative_errno();
        return 0;
}

static int add_boot_match(sd_journal *j, sd_id128_t boot) {
        char match[sizeof("_BOOT_ID=") + SD_ID128_STRING_MAX], id[SD_ID128_STRING_MAX];

        snprintf(match, sizeof(match), "_BOOT_ID=%s", sd_id128_to_string(boot, id));
        return sd_journal_add_match(j, match, 0);
}

/* Whether this boot's journal holds our event of flush `serial`. Leaves
 * the journal without matches. */
static int journal_has_serial(sd_journal *j, sd_id128_t boot, uint64_t serial) {
        char match[64];
        int r;

        snprintf(match, sizeof(match), "RNG_STATE_SERIAL=%" PRIu64, serial);
        sd_journal_flush_matches(j);
        r = sd_journal_add_match(j, match, 0);
        if (r >= 0)
                r = sd_journal_add_match(j, "SYSLOG_IDENTIFIER=rng-health", 0);
        if (r >= 0)
                r = add_boot_match(j, boot);
        if (r >= 0)
                r = sd_journal_seek_tail(j);
        if (r >= 0)
                r = sd_journal_previous(j);
        sd_journal_flush_matches(j);
        return r;
}

/* --- verdict and status -------------------------------------------------------- */

static int watch_update_verdict(KernelWatch *w) {
        char buf[512];
        size_t k = 0;
        Verdict v = VERDICT_OK;

        for (RngInstruction i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                const char *name = rng_instruction_upper_to_string(i);
                /* counted by the kernel, or (without counters) logged lines */
                uint64_t failures = MAX(w->state.reported[i],
                                        w->state.recorded[KERNEL_RNG_MSG_EXHAUSTED][i] +
                                        w->state.recorded[KERNEL_RNG_MSG_FAILED][i]);

                for (KernelRngMsgKind kind = 0; kind < _KERNEL_RNG_MSG_MAX; kind++)
                        if (w->state.recorded[kind][i] > 0)
                                v = verdict_worst(v, kernel_rng_msg_kind_verdict(kind));
                if (w->state.reported[i] > 0)
                        v = verdict_worst(v, VERDICT_EXHAUSTED);

                if (failures > 0)
                        k += snprintf(buf + k, sizeof(buf) - MIN(k, sizeof(buf)), "%s%s exhausted %" PRIu64 "x",
                                      k ? ", " : "", name, failures);
                if (w->state.recorded[KERNEL_RNG_MSG_DISABLED][i] > 0)
                        k += snprintf(buf + k, sizeof(buf) - MIN(k, sizeof(buf)), "%s%s disabled",
                                      k ? ", " : "", name);
                if (w->state.recorded[KERNEL_RNG_MSG_DEFECTIVE][i] > 0)
                        k += snprintf(buf + k, sizeof(buf) - MIN(k, sizeof(buf)), "%s%s defective",
                                      k ? ", " : "", name);
                if (k >= sizeof(buf))
                        break;
        }

        free(w->status);
        if (k == 0)
                w->status = strdup(w->have_counters ? "kernel: no RNG failures"
                                                    : "kernel: no RNG failures logged");
        else if (asprintf(&w->status, "kernel: %s", buf) < 0)
                w->status = NULL;
        if (!w->status)
                return -ENOMEM;
        w->verdict = v;
        return verdict_source_report(w->source, w->verdict, w->status, "kernel");
}

/* --- recording ------------------------------------------------------------------ */

static void watch_read_counters(KernelWatch *w) {
        KernelCounters c;

        if (kernel_counters_read(w->sysfs_root, &c) >= 0) {
                w->counters = c;
                w->have_counters = true;
        } else
                w->have_counters = false;
}

static int send_event(const KernelEventInfo *info) {
        EventFields f = {};
        int r;

        r = event_kernel(&f, info);
        if (r >= 0)
                r = event_send(&f);
        event_fields_done(&f);
        return r;
}

/* Records every bucket with messages, and failures the counters show beyond
 * what was reported, as events; then commits the state. Returns 1 if it
 * recorded something, 0 if there was nothing to record. */
static int watch_flush(KernelWatch *w) {
        /* per instruction: one per bucket, or a counted-only one instead of
         * the failure buckets */
        KernelEventInfo events[_KERNEL_RNG_MSG_MAX * _RNG_INSTRUCTION_MAX];
        WatchState next = w->state;
        size_t n = 0;
        int r;

        watch_read_counters(w);
        next.cursor = w->read_cursor ?: w->state.cursor;

        for (RngInstruction i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                uint64_t grown = 0;
                bool carried = false;

                if (w->have_counters && w->counters.exhausted[i] > w->state.reported[i])
                        grown = w->counters.exhausted[i] - w->state.reported[i];

                for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++) {
                        Bucket *b = &w->buckets[k][i];
                        KernelEventInfo *e;
                        bool failure = k == KERNEL_RNG_MSG_EXHAUSTED || k == KERNEL_RNG_MSG_FAILED;

                        if (b->messages == 0)
                                continue;
                        e = &events[n++];
                        *e = (KernelEventInfo) {
                                .kind = k,
                                .instruction = i,
                                .messages = b->messages,
                                .count = b->messages,
                                .have_cpu = b->have_cpu,
                                .cpu = b->cpu,
                                .tries = b->tries,
                                .kernel_message = b->first_message,
                                .reason_id = b->reason ? b->reason->id : NULL,
                        };
                        /* With counters, failures are counted by the kernel:
                         * every exhausted call once, whatever was printed. */
                        if (failure && w->have_counters) {
                                e->count = carried ? 0 : grown;
                                carried = true;
                        }
                        next.recorded[k][i] += e->count;
                }
                if (grown > 0 && !carried) {
                        events[n++] = (KernelEventInfo) {
                                .kind = KERNEL_RNG_MSG_EXHAUSTED,
                                .instruction = i,
                                .count = grown,
                        };
                        next.recorded[KERNEL_RNG_MSG_EXHAUSTED][i] += grown;
                }
                if (w->have_counters)
                        next.reported[i] = MAX(w->state.reported[i], w->counters.exhausted[i]);
        }
        if (n == 0)
                return 0;

        next.serial = w->state.serial + 1;
        for (size_t k = 0; k < n; k++) {
                events[k].state_serial = next.serial;
                events[k].have_counters = w->have_counters;
                events[k].exhausted_total = w->have_counters ? w->counters.exhausted[events[k].instruction] : 0;
                events[k].retried_total = w->have_counters ? w->counters.retried[events[k].instruction] : 0;
        }

        /* .new before the events, committed after: see kernel-watch.h. */
        if (w->state_dir) {
                r = state_write_new(w->state_dir, &next);
                if (r < 0)
                        log_full(LOG_WARNING, "Kernel watch: cannot write its state to %s: %s",
                                 w->state_dir, strerror(-r));
        }
        for (size_t k = 0; k < n; k++) {
                r = send_event(&events[k]);
                if (r < 0)
                        log_full(LOG_ERR, "Kernel watch: cannot send an event to the journal: %s",
                                 strerror(-r));
        }
        if (w->state_dir) {
                r = state_commit(w->state_dir);
                if (r < 0 && r != -ENOENT)
                        log_full(LOG_WARNING, "Kernel watch: cannot commit its state: %s", strerror(-r));
        }

        /* Adopt: the cursor string moves from read_cursor into the state. */
        if (next.cursor != w->state.cursor) {
                free(w->state.cursor);
                w->read_cursor = NULL;
        }
        w->state = next;
        for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                for (RngInstruction i = 0; i < _RNG_INSTRUCTION_MAX; i++)
                        bucket_clear(&w->buckets[k][i]);
        w->pending = false;
        r = watch_update_verdict(w);
        return r < 0 ? r : 1;
}

/* A recording from a timer opens a new window too, so that a steady flood
 * is written at most once per window. */
static int flush_from_timer(KernelWatch *w, uint64_t now) {
        if (watch_flush(w) > 0)
                w->quiet_until = now + w->flush_usec;
        return 0;
}

static int on_flush_timer(sd_event_source *s, uint64_t usec, void *userdata) {
        return flush_from_timer(userdata, usec);
}

static int on_settle_timer(sd_event_source *s, uint64_t usec, void *userdata) {
        /* Failures the kernel counted after its last printed line. */
        return flush_from_timer(userdata, usec);
}

static int arm_timer(KernelWatch *w, sd_event_source **s, uint64_t when,
                     sd_event_time_handler_t handler, const char *description) {
        int r;

        if (*s) {
                r = sd_event_source_set_time(*s, when);
                if (r < 0)
                        return r;
                return sd_event_source_set_enabled(*s, SD_EVENT_ONESHOT);
        }
        r = sd_event_add_time(w->event, s, CLOCK_MONOTONIC, when, 10000, handler, w);
        if (r < 0)
                return r;
        return sd_event_source_set_description(*s, description);
}

/* One matching kernel message: aggregate, and record at once unless inside
 * the window of the previous recording. */
static int watch_add_message(KernelWatch *w, const KernelRngMsg *m, const char *text, size_t len,
                             uint64_t now, bool catching_up) {
        Bucket *b = &w->buckets[m->kind][m->instruction];

        if (b->messages == 0) {
                b->first_message = strndup(text, MIN(len, (size_t) KERNEL_MESSAGE_MAX));
                if (!b->first_message)
                        return -ENOMEM;
                /* strip the trailing newline the kernel may have left */
                b->first_message[strcspn(b->first_message, "\n")] = '\0';
        }
        b->messages++;
        if (m->have_cpu) {
                b->have_cpu = true;
                b->cpu = m->cpu;
                b->tries = m->tries;
        }
        if (m->reason)
                b->reason = m->reason;
        w->pending = true;
        if (catching_up)
                return 0;
        if (now >= w->quiet_until) {
                w->quiet_until = now + w->flush_usec;
                return 1; /* record now */
        }
        return arm_timer(w, &w->flush_timer, w->quiet_until, on_flush_timer, "kernel-watch-flush");
}

/* The kernel's exhausted counter grew (poll wake-up): record at once unless
 * inside the window of the previous recording. The log lines follow later
 * through the journal (journald batches its change notifications by up to
 * 250 ms) and are aggregated with it. */
static int watch_counter_activity(KernelWatch *w) {
        uint64_t now;
        int r;

        r = sd_event_now(w->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                return r;
        if (now >= w->quiet_until) {
                w->quiet_until = now + w->flush_usec;
                r = watch_flush(w);
        } else
                r = arm_timer(w, &w->flush_timer, w->quiet_until, on_flush_timer, "kernel-watch-flush");
        if (r < 0)
                return r;
        return arm_timer(w, &w->settle_timer, now + w->settle_usec, on_settle_timer, "kernel-watch-settle");
}

static int on_counter_io(sd_event_source *s, int fd, uint32_t revents, void *userdata) {
        char buf[32];

        /* Reading from offset 0 re-arms the sysfs file's poll. */
        (void) pread(fd, buf, sizeof(buf), 0);
        (void) watch_counter_activity(userdata);
        return 0;
}

/* Kernels with the series wake pollers of the exhausted counters (POLLPRI)
 * when they grow. Without the files this is a no-op: the journal alone. */
static int watch_poll_counters(KernelWatch *w) {
        for (RngInstruction i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                char path[4096], buf[32];
                int fd, r;

                r = kernel_counter_path(w->sysfs_root, i, "exhausted", path, sizeof(path));
                if (r < 0)
                        return r;
                fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
                if (fd < 0)
                        return errno == ENOENT ? 0 : negative_errno();
                (void) pread(fd, buf, sizeof(buf), 0); /* arm */
                r = sd_event_add_io(w->event, &w->counter_sources[i], fd, EPOLLPRI, on_counter_io, w);
                if (r < 0) {
                        close(fd);
                        return r;
                }
                r = sd_event_source_set_io_fd_own(w->counter_sources[i], true);
                if (r >= 0)
                        r = sd_event_source_set_description(w->counter_sources[i],
                                                            i == RNG_RDRAND ? "kernel-watch-rdrand-counter"
                                                                            : "kernel-watch-rdseed-counter");
                if (r < 0)
                        return r;
        }
        return 0;
}

static int watch_read_journal(KernelWatch *w, bool catching_up) {
        uint64_t now;
        bool record = false;
        int r;

        r = sd_event_now(w->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                return r;

        for (;;) {
                const void *data;
                size_t len;
                KernelRngMsg m;

                r = sd_journal_next(w->journal);
                if (r < 0)
                        return r;
                if (r == 0)
                        break;
                r = sd_journal_get_data(w->journal, "MESSAGE", &data, &len);
                if (r < 0)
                        continue; /* no or unreadable MESSAGE: not ours */
                if (len < strlen("MESSAGE="))
                        continue;
                r = kernel_rng_msg_parse((const char *) data + strlen("MESSAGE="), len - strlen("MESSAGE="), &m);
                if (r <= 0)
                        continue;

                free(w->read_cursor);
                w->read_cursor = NULL;
                r = sd_journal_get_cursor(w->journal, &w->read_cursor);
                if (r < 0)
                        return r;
                r = watch_add_message(w, &m, (const char *) data + strlen("MESSAGE="),
                                      len - strlen("MESSAGE="), now, catching_up);
                if (r < 0)
                        return r;
                if (r > 0)
                        record = true;
        }

        if (record || catching_up) {
                r = watch_flush(w);
                if (r < 0)
                        return r;
        }
        if (record || (catching_up && w->state.serial > 0))
                return arm_timer(w, &w->settle_timer, now + w->settle_usec, on_settle_timer,
                                 "kernel-watch-settle");
        return 0;
}

static int on_journal_timer(sd_event_source *s, uint64_t usec, void *userdata);

/* sd_journal_get_timeout(): journals on file systems without inotify need
 * a wake-up; on /run and /var (tmpfs, ext4) it is "never". */
static int watch_rearm_journal_timer(KernelWatch *w) {
        uint64_t t;
        int r;

        r = sd_journal_get_timeout(w->journal, &t);
        if (r < 0)
                return r;
        if (t == UINT64_MAX) {
                if (w->journal_timer)
                        return sd_event_source_set_enabled(w->journal_timer, SD_EVENT_OFF);
                return 0;
        }
        return arm_timer(w, &w->journal_timer, t, on_journal_timer, "kernel-watch-journal-timeout");
}

static int on_journal_change(KernelWatch *w) {
        int r;

        r = sd_journal_process(w->journal);
        if (r < 0)
                return r;
        r = watch_read_journal(w, false);
        if (r < 0)
                log_full(LOG_ERR, "Kernel watch: reading the journal failed: %s", strerror(-r));
        return watch_rearm_journal_timer(w);
}

static int on_journal_io(sd_event_source *s, int fd, uint32_t revents, void *userdata) {
        (void) on_journal_change(userdata);
        return 0;
}

static int on_journal_timer(sd_event_source *s, uint64_t usec, void *userdata) {
        (void) on_journal_change(userdata);
        return 0;
}

/* --- setup ------------------------------------------------------------------------ */

/* Position after the last recorded message of this boot, or at the boot's
 * first kernel message. */
static int watch_position(KernelWatch *w) {
        int r;

        if (w->state.cursor) {
                r = sd_journal_seek_cursor(w->journal, w->state.cursor);
                if (r >= 0) {
                        r = sd_journal_next(w->journal);
                        if (r > 0 && sd_journal_test_cursor(w->journal, w->state.cursor) <= 0) {
                                /* The entry is gone (vacuumed): we stand on the first
                                 * unread one. Seek to it so that the next
                                 * sd_journal_next() returns it (sd_journal_previous()
                                 * would not move if nothing older is left). */
                                _cleanup_free_ char *unread = NULL;

                                r = sd_journal_get_cursor(w->journal, &unread);
                                if (r >= 0)
                                        r = sd_journal_seek_cursor(w->journal, unread);
                        }
                        if (r >= 0)
                                return 0;
                }
                log_full(LOG_WARNING, "Kernel watch: saved journal position is unusable (%s), "
                         "re-reading this boot", strerror(-r));
        }
        return sd_journal_seek_head(w->journal);
}

static void watch_load_state(KernelWatch *w, sd_id128_t boot) {
        WatchState committed = {}, pending = {};
        int r;

        w->state.boot_id = boot;
        if (!w->state_dir)
                return;

        r = state_load(w->state_dir, STATE_FILE, &committed);
        if (r < 0 && r != -ENOENT)
                log_full(LOG_WARNING, "Kernel watch: ignoring %s/" STATE_FILE ": %s",
                         w->state_dir, strerror(-r));
        if (r >= 0 && sd_id128_equal(committed.boot_id, boot)) {
                watch_state_done(&w->state);
                w->state = committed;
                committed = (WatchState) {};
        }
        watch_state_done(&committed);

        /* A flush interrupted after its .new state was written. */
        r = state_load(w->state_dir, STATE_FILE_NEW, &pending);
        if (r >= 0 && sd_id128_equal(pending.boot_id, boot) && pending.serial > w->state.serial &&
            journal_has_serial(w->journal, boot, pending.serial) > 0) {
                (void) state_commit(w->state_dir);
                watch_state_done(&w->state);
                w->state = pending;
                pending = (WatchState) {};
        } else if (r != -ENOENT) {
                char path[4096];

                snprintf(path, sizeof(path), "%s/" STATE_FILE_NEW, w->state_dir);
                (void) unlink(path);
        }
        watch_state_done(&pending);
}

int kernel_watch_new(sd_event *e, const KernelWatchParams *p, VerdictSource *source, KernelWatch **ret) {
        _cleanup_(kernel_watch_freep) KernelWatch *w = NULL;
        sd_id128_t boot;
        int r, fd, events;

        if (!e || !p || !ret)
                return -EINVAL;

        w = calloc(1, sizeof(*w));
        if (!w)
                return -ENOMEM;
        w->event = sd_event_ref(e);
        w->source = source;
        w->flush_usec = p->flush_usec;
        w->settle_usec = p->settle_usec;
        if ((p->state_dir && !(w->state_dir = strdup(p->state_dir))) ||
            (p->sysfs_root && !(w->sysfs_root = strdup(p->sysfs_root))))
                return -ENOMEM;

        r = sd_id128_get_boot(&boot);
        if (r < 0)
                return r;
        r = sd_journal_open(&w->journal, SD_JOURNAL_LOCAL_ONLY | SD_JOURNAL_SYSTEM);
        if (r < 0)
                return r;
        watch_load_state(w, boot);

        r = sd_journal_add_match(w->journal, "_TRANSPORT=kernel", 0);
        if (r >= 0)
                r = add_boot_match(w->journal, boot);
        if (r < 0)
                return r;
        r = watch_position(w);
        if (r < 0)
                return r;

        fd = sd_journal_get_fd(w->journal);
        if (fd < 0)
                return fd;
        events = sd_journal_get_events(w->journal);
        if (events < 0)
                return events;
        r = sd_event_add_io(e, &w->journal_source, fd, (uint32_t) events, on_journal_io, w);
        if (r < 0)
                return r;
        r = sd_event_source_set_description(w->journal_source, "kernel-watch-journal");
        if (r < 0)
                return r;

        r = watch_poll_counters(w);
        if (r < 0)
                log_full(LOG_WARNING, "Kernel watch: cannot poll the kernel's counters: %s", strerror(-r));

        /* Everything this boot logged before we started: one flush. */
        r = watch_read_journal(w, true);
        if (r < 0)
                return r;
        if (!w->status) {
                r = watch_update_verdict(w);
                if (r < 0)
                        return r;
        }
        r = watch_rearm_journal_timer(w);
        if (r < 0)
                return r;

        *ret = w;
        w = NULL;
        return 0;
}

KernelWatch *kernel_watch_free(KernelWatch *w) {
        if (!w)
                return NULL;
        /* Flush what is pending into the journal, but report nothing: the
         * Manager may be going away. */
        (void) verdict_source_detach(&w->source);
        if (w->pending && w->journal)
                (void) watch_flush(w);
        sd_event_source_disable_unref(w->journal_source);
        sd_event_source_disable_unref(w->journal_timer);
        sd_event_source_disable_unref(w->flush_timer);
        sd_event_source_disable_unref(w->settle_timer);
        for (RngInstruction i = 0; i < _RNG_INSTRUCTION_MAX; i++)
                sd_event_source_disable_unref(w->counter_sources[i]);
        sd_journal_close(w->journal);
        sd_event_unref(w->event);
        for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                for (RngInstruction i = 0; i < _RNG_INSTRUCTION_MAX; i++)
                        bucket_clear(&w->buckets[k][i]);
        free(w->read_cursor);
        watch_state_done(&w->state);
        free(w->state_dir);
        free(w->sysfs_root);
        free(w->status);
        free(w);
        return NULL;
}

Verdict kernel_watch_verdict(const KernelWatch *w) {
        return w->verdict;
}

const char *kernel_watch_status(const KernelWatch *w) {
        return w->status;
}
