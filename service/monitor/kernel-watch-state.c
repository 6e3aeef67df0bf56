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

#include "fileio.h"
#include "journal-event.h"
#include "kernel-watch-state.h"
#include "macro.h"
#include "parse-util.h"

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

/* The number a known key stores into, or NULL for an unknown key. */
static uint64_t *state_slot(KernelWatchState *s, const char *key) {
        uint64_t *slot = NULL;

        if (strcmp(key, "serial") == 0)
                return &s->serial;
        for (RngInstruction i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                char name[64];

                snprintf(name, sizeof(name), "reported_%s", rng_instruction_to_string(i));
                if (strcmp(key, name) == 0)
                        slot = &s->reported[i];
                for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++) {
                        snprintf(name, sizeof(name), "recorded_%s_%s", kernel_rng_msg_kind_to_string(k),
                                 rng_instruction_to_string(i));
                        if (strcmp(key, name) == 0)
                                slot = &s->recorded[k][i];
                }
        }
        return slot;
}

static int state_parse_line(KernelWatchState *s, char *line, bool *have_boot) {
        char *val = strchr(line, '=');
        uint64_t *slot;

        if (!val)
                return -EBADMSG;
        *val++ = '\0';
        if (strcmp(line, "boot") == 0) {
                if (sd_id128_from_string(val, &s->boot_id) < 0)
                        return -EBADMSG;
                *have_boot = true;
        } else if (strcmp(line, "cursor") == 0) {
                free(s->cursor);
                s->cursor = strdup(val);
                if (!s->cursor)
                        return -ENOMEM;
        } else if ((slot = state_slot(s, line))) {
                /* Strict: no sign or space (a " -1" used to wrap around). */
                if (parse_u64(val, slot) < 0)
                        return -EBADMSG;
        }
        return 0;
}

int kernel_watch_state_parse(const char *text, size_t len, KernelWatchState *ret) {
        _cleanup_(kernel_watch_state_done) KernelWatchState s = {};
        bool have_boot = false;
        int r;

        if ((!text && len > 0) || !ret)
                return -EINVAL;
        for (size_t p = 0; p < len;) {
                const char *nl = memchr(text + p, '\n', len - p);
                char line[KERNEL_WATCH_STATE_LINE_MAX];
                size_t n;

                if (!nl) /* cut inside a line */
                        return -EBADMSG;
                n = (size_t) (nl - (text + p));
                if (n + 1 > KERNEL_WATCH_STATE_LINE_MAX || memchr(text + p, '\0', n))
                        return -EBADMSG;
                memcpy(line, text + p, n);
                line[n] = '\0';
                p += n + 1;
                r = state_parse_line(&s, line, &have_boot);
                if (r < 0)
                        return r;
        }
        if (!have_boot)
                return -EBADMSG;
        *ret = s;
        s = (KernelWatchState) {};
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
        for (RngInstruction i = 0; i < _RNG_INSTRUCTION_MAX; i++) {
                fprintf(f, "reported_%s=%" PRIu64 "\n", rng_instruction_to_string(i), s->reported[i]);
                for (KernelRngMsgKind k = 0; k < _KERNEL_RNG_MSG_MAX; k++)
                        fprintf(f, "recorded_%s_%s=%" PRIu64 "\n", kernel_rng_msg_kind_to_string(k),
                                rng_instruction_to_string(i), s->recorded[k][i]);
        }
        if (ferror(f) | (fclose(f) != 0))
                return -ENOMEM;
        *ret = buf;
        buf = NULL;
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
        r = read_small_file(path, STATE_FILE_MAX, &text, &len);
        if (r < 0)
                return r;
        return kernel_watch_state_parse(text, len, ret);
}

int kernel_watch_state_write_new(const char *dir, const KernelWatchState *s) {
        _cleanup_free_ char *path = state_path(dir, KERNEL_WATCH_STATE_FILE_NEW),
                            *tmp = state_path(dir, KERNEL_WATCH_STATE_FILE_NEW ".tmp"), *text = NULL;
        _cleanup_fclose_ FILE *f = NULL;
        int r;

        if (!path || !tmp)
                return -ENOMEM;
        r = kernel_watch_state_format(s, &text);
        if (r < 0)
                return r;
        f = fopen(tmp, "we");
        if (!f)
                return negative_errno();
        if (fputs(text, f) < 0 || fflush(f) != 0 || ferror(f) || fsync(fileno(f)) < 0)
                return negative_errno();
        if (rename(tmp, path) < 0)
                return negative_errno();
        return 0;
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

int kernel_watch_state_restore(const char *dir, sd_id128_t boot, KernelWatchHasSerial has_serial,
                               void *userdata, KernelWatchState *ret) {
        _cleanup_(kernel_watch_state_done) KernelWatchState state = { .boot_id = boot }, committed = {},
                                                            pending = {};
        int r;

        if (!ret)
                return -EINVAL;
        if (dir) {
                r = kernel_watch_state_load(dir, KERNEL_WATCH_STATE_FILE, &committed);
                if (r < 0 && r != -ENOENT)
                        log_full(LOG_WARNING, "Kernel watch: ignoring %s/" KERNEL_WATCH_STATE_FILE ": %s", dir,
                                 strerror(-r));
                if (r >= 0 && sd_id128_equal(committed.boot_id, boot)) {
                        state = committed;
                        committed = (KernelWatchState) {};
                }

                /* A flush interrupted after its .new state was written. */
                r = kernel_watch_state_load(dir, KERNEL_WATCH_STATE_FILE_NEW, &pending);
                if (r >= 0 && sd_id128_equal(pending.boot_id, boot) && pending.serial > state.serial &&
                    has_serial && has_serial(pending.serial, userdata) > 0) {
                        (void) kernel_watch_state_commit(dir);
                        kernel_watch_state_done(&state);
                        state = pending;
                        pending = (KernelWatchState) {};
                } else if (r != -ENOENT) {
                        _cleanup_free_ char *path = state_path(dir, KERNEL_WATCH_STATE_FILE_NEW);

                        if (path)
                                (void) unlink(path);
                }
        }
        *ret = state;
        state = (KernelWatchState) {};
        return 0;
}
