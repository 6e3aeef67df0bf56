/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "kernel-counters.h"
#include "kernel-state.h"
#include "macro.h"
#include "parse-util.h"

static const char *const state_names[_KERNEL_STATE_MAX] = {
        [KERNEL_STATE_UNKNOWN] = "unknown",
        [KERNEL_STATE_ENABLED] = "enabled",
        [KERNEL_STATE_DISABLED] = "disabled",
        [KERNEL_STATE_HIDDEN] = "hidden",
        [KERNEL_STATE_ABSENT] = "absent",
};

DEFINE_STRING_TABLE_TO_STRING(kernel_state_kind, KernelStateKind, state_names)

static const char *const log_state_names[_KERNEL_LOG_MAX] = {
        [KERNEL_LOG_NOT_NEEDED] = "not-needed",
        [KERNEL_LOG_READ] = "read",
        [KERNEL_LOG_UNREADABLE] = "unreadable",
};

DEFINE_STRING_TABLE_TO_STRING(kernel_log_state, KernelLogState, log_state_names)

static const char *const reason_source_names[_KERNEL_REASON_SOURCE_MAX] = {
        [KERNEL_REASON_NONE] = "none",
        [KERNEL_REASON_KERNEL_LOG] = "kernel-log",
        [KERNEL_REASON_CMDLINE] = "kernel-cmdline",
        [KERNEL_REASON_ERRATA] = "errata-table",
        [KERNEL_REASON_CPU] = "cpu",
};

DEFINE_STRING_TABLE_TO_STRING(kernel_reason_source, KernelReasonSource, reason_source_names)

const KernelReason *kernel_reason_match(const char *record, size_t len) {
        if (!record)
                return NULL;
        for (size_t i = 0; i < kernel_reason_table_size; i++)
                if (memmem(record, len, kernel_reason_table[i].message, strlen(kernel_reason_table[i].message)))
                        return &kernel_reason_table[i];
        return NULL;
}

int kernel_cpuinfo_count_flag(const char *text, size_t len, const char *flag, size_t *ret_lines) {
        const char *p, *end;
        size_t n_lines = 0, hits = 0, fl;

        if (!text || !flag)
                return -EINVAL;
        /* Only now: NULL + 0 is undefined behaviour (clang's UBSan stops on it). */
        p = text;
        end = text + len;
        fl = strlen(flag);

        while (p < end) {
                const char *eol = memchr(p, '\n', end - p), *q;

                if (!eol)
                        eol = end;
                /* "flags\t\t: fpu vme ..." (x86), "Features\t: fp asimd ... rng" (arm64) */
                size_t kl = (size_t) (eol - p) >= 5 && memcmp(p, "flags", 5) == 0         ? 5
                            : (size_t) (eol - p) >= 8 && memcmp(p, "Features", 8) == 0 ? 8
                                                                                      : 0;
                if (kl > 0) {
                        for (q = p + kl; q < eol && is_blank(*q); q++)
                                ;
                        if (q < eol && *q == ':') {
                                bool found = false;

                                n_lines++;
                                q++;
                                while (q < eol) {
                                        const char *w;

                                        while (q < eol && is_blank(*q))
                                                q++;
                                        w = q;
                                        while (q < eol && !is_blank(*q))
                                                q++;
                                        if ((size_t) (q - w) == fl && memcmp(w, flag, fl) == 0)
                                                found = true;
                                }
                                hits += found;
                        }
                }
                p = eol + 1;
        }
        if (ret_lines)
                *ret_lines = n_lines;
        return (int) MIN(hits, (size_t) INT_MAX);
}

bool kernel_cpuinfo_has_flag(const char *text, size_t len, const char *flag) {
        return kernel_cpuinfo_count_flag(text, len, flag, NULL) > 0;
}

int kernel_cpuinfo_parse(const char *text, size_t len, bool ret[_RNG_SOURCE_MAX]) {
        size_t lines;
        int n;

        /* Whether there is a "flags" line at all, whichever sources have flags. */
        n = kernel_cpuinfo_count_flag(text, len, "", &lines);
        if (n < 0)
                return n;
        if (lines == 0)
                return -EBADMSG;
        FOREACH_RNG_SOURCE(i) {
                const char *flag = rng_source_desc(i)->detect.cpuinfo_flag;

                ret[i] = false;
                if (!flag)
                        continue;
                n = kernel_cpuinfo_count_flag(text, len, flag, &lines);
                if (n < 0)
                        return n;
                ret[i] = (size_t) n == lines;
        }
        return 0;
}

/* The command line's words before a "--", one at a time: *p moves past
 * the word returned in *ret_word (false at the end). */
static bool next_word(const char **p, const char *end, const char **ret_word, size_t *ret_len) {
        const char *w;

        while (*p < end && (is_blank(**p) || **p == '\n' || **p == '\0'))
                (*p)++;
        w = *p;
        while (*p < end && !is_blank(**p) && **p != '\n' && **p != '\0')
                (*p)++;
        if (*p == w || (*p - w == 2 && memcmp(w, "--", 2) == 0))
                return false; /* the end, or the rest is for init */
        *ret_word = w;
        *ret_len = (size_t) (*p - w);
        return true;
}

bool kernel_cmdline_has_word(const char *cmdline, size_t len, const char *word) {
        const char *p, *end, *w;
        size_t wl = strlen(word), l;

        if (!cmdline)
                return false;
        p = cmdline;
        end = cmdline + len;
        while (next_word(&p, end, &w, &l))
                if (l == wl && memcmp(w, word, wl) == 0)
                        return true;
        return false;
}

/* The kernel's parameq(): '-' and '_' are the same in a parameter's name. */
static bool param_name_eq(const char *a, const char *b, size_t n) {
        for (size_t i = 0; i < n; i++) {
                char x = a[i] == '-' ? '_' : a[i], y = b[i] == '-' ? '_' : b[i];

                if (x != y)
                        return false;
        }
        return true;
}

bool kernel_cmdline_value(const char *cmdline, size_t len, const char *name, char *buf, size_t buf_len) {
        const char *p, *end, *w;
        size_t wl, nl = strlen(name);
        bool found = false;

        if (!cmdline || !name || buf_len == 0)
                return false;
        p = cmdline;
        end = cmdline + len;
        while (next_word(&p, end, &w, &wl))
                if (wl > nl && param_name_eq(w, name, nl) && w[nl] == '=') {
                        size_t vl = MIN(wl - nl - 1, buf_len - 1);

                        memcpy(buf, w + nl + 1, vl);
                        buf[vl] = '\0';
                        found = true; /* the last one wins, as for the kernel */
                }
        return found;
}

bool kernel_cmdline_bool(const char *cmdline, size_t len, const char *name, bool def) {
        char v[8];

        if (!kernel_cmdline_value(cmdline, len, name, v, sizeof(v)))
                return def;
        /* kstrtobool(): the first character, and "on"/"off". */
        switch (v[0]) {
        case 'y': case 'Y': case '1':
                return true;
        case 'n': case 'N': case '0':
                return false;
        case 'o': case 'O':
                if (v[1] == 'n' || v[1] == 'N')
                        return true;
                if (v[1] == 'f' || v[1] == 'F')
                        return false;
                return def;
        default:
                return def;
        }
}

void kernel_cmdline_parse(const char *cmdline, size_t len, bool ret[_RNG_SOURCE_MAX]) {
        FOREACH_RNG_SOURCE(i) {
                const char *word = rng_source_desc(i)->kernel.cmdline_off;

                ret[i] = word && kernel_cmdline_has_word(cmdline, len, word);
        }
}

#define STATE(kind, id, text, source) \
        ((KernelSourceState) { .state = (kind), .reason_id = (id), .reason = (text), .reason_source = (source) })

void kernel_state_build(KernelState *ret, const RngPresence presence[_RNG_SOURCE_MAX],
                        bool cpuinfo_ok, const bool flags[_RNG_SOURCE_MAX],
                        const bool cmdline_off[_RNG_SOURCE_MAX], KernelLogState log,
                        const KernelReason *const reasons[_RNG_SOURCE_MAX]) {
        *ret = (KernelState) { .log = log };

        FOREACH_RNG_SOURCE(i) {
                KernelSourceState *s = &ret->instr[i];
                const RngPresence *p = &presence[i];
                const char *unknown = log == KERNEL_LOG_UNREADABLE ? "unknown (kernel log not readable)"
                                                                   : "unknown (no reason in kernel log)";

                if (rng_source_desc(i)->kind != RNG_KIND_CPU_INSTRUCTION)
                        continue; /* its descriptor's kernel_view */
                if (!cpuinfo_ok)
                        *s = STATE(KERNEL_STATE_UNKNOWN, "cpuinfo-unreadable", "unknown (/proc/cpuinfo not readable)",
                                   KERNEL_REASON_NONE);
                else if (flags[i])
                        *s = STATE(KERNEL_STATE_ENABLED, NULL, NULL, KERNEL_REASON_NONE);
                else if (!p->cpuid && p->executes) {
                        /* Hidden: the kernel's reason if it logged one; else
                         * the errata table may name it (probe_report_name_errata()). */
                        if (reasons[i])
                                *s = STATE(KERNEL_STATE_HIDDEN, reasons[i]->id, reasons[i]->message,
                                           KERNEL_REASON_KERNEL_LOG);
                        else
                                *s = STATE(KERNEL_STATE_HIDDEN, "unknown",
                                           log == KERNEL_LOG_UNREADABLE
                                                   ? rng_source_desc(i)->detect.not_advertised.hidden_log_unreadable
                                                   : rng_source_desc(i)->detect.not_advertised.hidden_no_log,
                                           KERNEL_REASON_CPU);
                } else if (!p->cpuid)
                        *s = STATE(KERNEL_STATE_ABSENT, "no-cpuid",
                                   p->tried ? rng_source_desc(i)->detect.not_advertised.absent_sigill
                                            : rng_source_desc(i)->detect.not_advertised.absent,
                                   KERNEL_REASON_CPU);
                else if (reasons[i])
                        *s = STATE(KERNEL_STATE_DISABLED, reasons[i]->id, reasons[i]->message, KERNEL_REASON_KERNEL_LOG);
                else if (cmdline_off[i])
                        *s = STATE(KERNEL_STATE_DISABLED, rng_source_desc(i)->kernel.cmdline_off,
                                   rng_source_desc(i)->kernel.cmdline_off_reason, KERNEL_REASON_CMDLINE);
                else
                        *s = STATE(KERNEL_STATE_DISABLED, "unknown", unknown, KERNEL_REASON_NONE);
        }
}

/* /proc/cpuinfo of 1024 CPUs is ~1.5 MiB. */
#define PROC_READ_MAX (4u * 1024 * 1024)

int kernel_cpuinfo_read(const char *root, char **ret, size_t *ret_len) {
        _cleanup_free_ char *p = path_join(root, "/proc/cpuinfo", NULL);

        if (!p)
                return -ENOMEM;
        return read_small_file(p, PROC_READ_MAX, ret, ret_len);
}

KernelLogState kernel_log_scan(const char *path, const KernelReason *reasons[_RNG_SOURCE_MAX], KernelBootLog *boot) {
        _cleanup_close_ int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        char buf[8192];

        if (fd < 0)
                return KERNEL_LOG_UNREADABLE;
        for (;;) {
                ssize_t n = read(fd, buf, sizeof(buf));
                const KernelReason *m;
                const char *text;
                size_t len;
                uint64_t usec;

                if (n < 0) {
                        if (errno == EINTR || errno == EPIPE) /* EPIPE: record overwritten, go on */
                                continue;
                        if (errno == EAGAIN)
                                return KERNEL_LOG_READ;
                        return KERNEL_LOG_UNREADABLE; /* EPERM, EINVAL, ...: treat as not readable */
                }
                if (n == 0)
                        return KERNEL_LOG_READ;
                if (reasons && (m = kernel_reason_match(buf, n)))
                        reasons[m->instruction] = m;
                if (boot && kernel_kmsg_record_parse(buf, (size_t) n, &usec, &text, &len) >= 0) {
                        (void) kernel_boot_log_feed(boot, text, len, usec);
                        if (!reasons && kernel_boot_log_settled(boot))
                                return KERNEL_LOG_READ;
                }
        }
}

static const char *const retries_source_names[_KERNEL_RETRIES_SOURCE_MAX] = {
        [KERNEL_RETRIES_STOCK] = "stock",
        [KERNEL_RETRIES_SERIES] = "series",
        [KERNEL_RETRIES_ASSUMED] = "assumed",
        [KERNEL_RETRIES_OVERRIDE] = "override",
};

DEFINE_STRING_TABLE_TO_STRING(kernel_retries_source, KernelRetriesSource, retries_source_names)

uint64_t kernel_retries_for(const KernelState *kernel, RngSourceId i, uint64_t override,
                            KernelRetriesSource *ret_source, const char **ret_why) {
        const RngSourceDesc *d = rng_source_desc(i);
        KernelRetriesSource src;
        const char *why;
        uint64_t n;

        if (override > 0) {
                src = KERNEL_RETRIES_OVERRIDE;
                why = "set by KernelRetries= or --kernel-retries";
                n = override;
        } else if (!d) {
                src = KERNEL_RETRIES_ASSUMED;
                why = "not a source of this build";
                n = 1;
        } else if (kernel && kernel->retry_series) {
                src = KERNEL_RETRIES_SERIES;
                why = d->kernel.tries_series_why;
                n = d->kernel.tries_series;
        } else {
                src = kernel ? KERNEL_RETRIES_STOCK : KERNEL_RETRIES_ASSUMED;
                why = kernel ? d->kernel.tries_stock_why : d->kernel.tries_assumed_why;
                n = d->kernel.tries_stock;
        }
        if (ret_source)
                *ret_source = src;
        if (ret_why)
                *ret_why = why;
        return n;
}

bool kernel_retry_series_present(const char *root) {
        bool any = false;

        FOREACH_RNG_SOURCE(i) {
                const RngSourceDesc *d = rng_source_desc(i);
                char path[PATH_MAX];

                if (d->kernel.tries_series == d->kernel.tries_stock)
                        continue;
                /* root's, 0400: its existence needs no privilege */
                if (kernel_counter_path(root, i, "exhausted", path, sizeof(path)) < 0 ||
                    access(path, F_OK) < 0)
                        return false;
                any = true;
        }
        return any;
}

static KernelLogState scan_kmsg(const KernelReason *reasons[_RNG_SOURCE_MAX], KernelBootLog *boot, void *userdata) {
        return kernel_log_scan("/dev/kmsg", reasons, boot);
}

/* The CPU instructions' credit: random_init_early() and every reseed use
 * them, and at boot what they gave is credited when random.trust_cpu is on
 * (their descriptor's credit_param). */
static void cpu_credit(const RngSourceDesc *d, const char *cmdline, size_t len, KernelSourceState *s) {
        bool trusted = !d->kernel.credit_param || kernel_cmdline_bool(cmdline, len, d->kernel.credit_param, true);

        s->credit = (KernelCredit) {
                .known = true,
                .credited = trusted && s->state == KERNEL_STATE_ENABLED,
                .quality = trusted && s->state == KERNEL_STATE_ENABLED ? 1024 : 0,
                .why = s->state != KERNEL_STATE_ENABLED ? "the kernel does not use it"
                       : trusted ? "random.trust_cpu is on" : "random.trust_cpu is off",
        };
}

int kernel_state_read(const RngPresence presence[_RNG_SOURCE_MAX], const char *root, KernelLogScanFn scan,
                      void *userdata, const KernelBootLog *boot_known, KernelState *ret) {
        _cleanup_free_ char *cpuinfo = NULL, *cmdline = NULL;
        const KernelReason *reasons[_RNG_SOURCE_MAX] = {};
        bool flags[_RNG_SOURCE_MAX] = {}, cmdline_off[_RNG_SOURCE_MAX] = {}, cpuinfo_ok = false, need_log = false;
        KernelLogState log = KERNEL_LOG_NOT_NEEDED;
        KernelBootLog boot = {};
        size_t len = 0, cmdline_len = 0;
        int r;

        r = kernel_cpuinfo_read(NULL, &cpuinfo, &len);
        if (r >= 0)
                r = kernel_cpuinfo_parse(cpuinfo, len, flags);
        cpuinfo_ok = r >= 0;

        if (read_small_file("/proc/cmdline", PROC_READ_MAX, &cmdline, &cmdline_len) >= 0)
                kernel_cmdline_parse(cmdline, cmdline_len, cmdline_off);

        /* The log is read for a source the kernel disabled (the CPU
         * advertises it, the flag is gone) or hid (the CPU does not, yet it
         * executes), and for this boot's records on the seeds and the CRNG
         * where the caller does not know them yet. */
        FOREACH_RNG_SOURCE(i)
                need_log = need_log || (rng_source_desc(i)->kind == RNG_KIND_CPU_INSTRUCTION && cpuinfo_ok &&
                                        presence[i].executes && !flags[i]);
        if (boot_known)
                boot = *boot_known;
        if (need_log || !boot_known)
                log = (scan ?: scan_kmsg)(need_log ? reasons : NULL, boot_known ? NULL : &boot, userdata);
        kernel_state_build(ret, presence, cpuinfo_ok, flags, cmdline_off, need_log ? log : KERNEL_LOG_NOT_NEEDED,
                           reasons);
        ret->boot = boot;
        FOREACH_RNG_SOURCE(i) {
                const RngSourceDesc *d = rng_source_desc(i);

                if (d->kernel_view)
                        d->kernel_view(d, &(KernelViewInput) { .root = root, .cmdline = cmdline,
                                                                .cmdline_len = cmdline ? cmdline_len : 0,
                                                                .log = boot.read ? &ret->boot : NULL },
                                       &ret->instr[i]);
                else if (cpuinfo_ok)
                        cpu_credit(d, cmdline, cmdline ? cmdline_len : 0, &ret->instr[i]);
        }
        ret->retry_series = kernel_retry_series_present(root);
        rng_source_kernel_facts_read(root);
        return cpuinfo_ok ? 0 : r;
}
