/* SPDX-License-Identifier: GPL-2.0-or-later */

/* report's entries from the journal: rng-health.service's own events
 * (journal-sender.h), per boot and since a time (report.h): from this
 * machine's system journal, a directory of journal files (a central
 * systemd-journal-remote's) or journal files. Forwarded entries keep the
 * sender's trusted fields (_TRANSPORT, _SYSTEMD_UNIT, _UID, _MACHINE_ID,
 * _HOSTNAME, _BOOT_ID as its journald wrote them): the same rule
 * (journal-sender.h) tells the service's own events from another sender's
 * on the machine they came from. */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <systemd/sd-journal.h>

#include "fileio.h"
#include "journal-files.h"
#include "journal-ids.h"
#include "journal-sender.h"
#include "macro.h"
#include "report.h"

static const char *const report_mids[] = {
        RNG_MID_PROBE_RESULT_STR,  RNG_MID_VERDICT_BOOT_STR,   RNG_MID_VERDICT_CHANGED_STR,
        RNG_MID_OUTPUT_CHECK_STR,  RNG_MID_UNAVAILABLE_STR,    RNG_MID_CONFIG_INVALID_STR,
        RNG_MID_POLICY_FAILURE_STR,
        /* the kernel watch's, in the order of KernelRngMsgKind */
        RNG_MID_KERNEL_EXHAUSTED_STR, RNG_MID_KERNEL_FAILED_STR, RNG_MID_KERNEL_DISABLED_STR,
        RNG_MID_KERNEL_DEFECTIVE_STR, RNG_MID_VM_FORK_STR, RNG_MID_CRNG_READY_STR,
};

static int entry_fields(sd_journal *j, EventFields *f) {
        const void *data;
        size_t len;
        int r;

        SD_JOURNAL_FOREACH_DATA(j, data, len) {
                const char *d = data;

                if (!((len > 4 && memcmp(d, "RNG_", 4) == 0) || (len > 11 && memcmp(d, "MESSAGE_ID=", 11) == 0)))
                        continue;
                r = event_fields_addf(f, "%.*s", (int) len, d);
                if (r == -E2BIG)
                        break;
                if (r < 0)
                        return r;
        }
        return 0;
}

static int add_matches(sd_journal *j, const sd_id128_t *boot_id) {
        char m[64];
        int r;

        for (size_t i = 0; i < ELEMENTSOF(report_mids); i++) {
                snprintf(m, sizeof(m), "MESSAGE_ID=%s", report_mids[i]);
                r = sd_journal_add_match(j, m, 0);
                if (r < 0)
                        return r;
        }
        if (boot_id) {
                char s[SD_ID128_STRING_MAX];

                snprintf(m, sizeof(m), "_BOOT_ID=%s", sd_id128_to_string(*boot_id, s));
                r = sd_journal_add_match(j, m, 0); /* another field: ANDed */
                if (r < 0)
                        return r;
        }
        return 0;
}

/* A trusted field of the current entry as a string (NUL-terminated into
 * buf, cut to fit); "" where absent or holding a NUL. */
static const char *entry_string(sd_journal *j, const char *field, char *buf, size_t size) {
        size_t l = strlen(field), n;
        const void *data;
        size_t len;

        buf[0] = '\0';
        if (sd_journal_get_data(j, field, &data, &len) < 0 || len <= l + 1)
                return buf;
        n = MIN(len - l - 1, size - 1);
        if (memchr((const char *) data + l + 1, '\0', n))
                return buf;
        memcpy(buf, (const char *) data + l + 1, n);
        buf[n] = '\0';
        return buf;
}

/* The machine of the current entry (its _MACHINE_ID, null if absent or
 * not an ID). */
static sd_id128_t entry_machine(sd_journal *j) {
        char buf[SD_ID128_STRING_MAX];
        sd_id128_t id;

        if (sd_id128_from_string(entry_string(j, "_MACHINE_ID", buf, sizeof(buf)), &id) < 0)
                return SD_ID128_NULL;
        return id;
}

static int open_journal(const ReportFilter *filter, sd_journal **ret) {
        if (filter->directory)
                return sd_journal_open_directory(ret, filter->directory, 0);
        if (filter->n_files > 0)
                return sd_journal_open_files(ret, (const char **) filter->files, 0);
        return sd_journal_open(ret, SD_JOURNAL_LOCAL_ONLY);
}

static int read_entries(const ReportFilter *filter, const sd_id128_t *boot_id, uint64_t since_usec, Report *ret) {
        _cleanup_(sd_journal_closep) sd_journal *j = NULL;
        bool remote = filter->directory || filter->n_files > 0;
        int r;

        ret->by_machine = remote;
        r = open_journal(filter, &j);
        if (r < 0)
                return r;
        r = add_matches(j, boot_id);
        if (r < 0)
                return r;
        r = since_usec ? sd_journal_seek_realtime_usec(j, since_usec) : sd_journal_seek_head(j);
        if (r < 0)
                return r;

        for (;;) {
                EventFields f = {};
                sd_id128_t boot;
                uint64_t t;

                r = sd_journal_next(j);
                if (r < 0)
                        return r;
                if (r == 0)
                        break;
                r = sd_journal_get_realtime_usec(j, &t);
                if (r < 0)
                        return r;
                if (t < since_usec)
                        continue;
                r = sd_journal_get_monotonic_usec(j, NULL, &boot);
                if (r < 0)
                        return r;
                /* Only rng-health.service's own entries (journal-sender.h):
                 * the others are counted, never used. */
                r = journal_entry_from(j, &(JournalSender) { RNG_HEALTH_UNIT, JOURNAL_SENDER_ANY_UID });
                if (r < 0)
                        return r;
                if (r == 0) {
                        ret->foreign++;
                        continue;
                }
                r = entry_fields(j, &f);
                if (r >= 0) {
                        char host[96];

                        r = report_add_machine_entry(ret, entry_machine(j),
                                                     entry_string(j, "_HOSTNAME", host, sizeof(host)), boot, t, &f);
                }
                event_fields_done(&f);
                /* not ours (-EINVAL) or malformed (-EBADMSG, counted) */
                if (r < 0 && r != -EINVAL && r != -EBADMSG)
                        return r;
        }
        return 0;
}

static void closedirp(DIR **d) {
        if (*d)
                closedir(*d);
}

/* Whether path starts like a journal file (its header's signature). */
static int journal_file_check(const char *path) {
        _cleanup_close_ int fd = -EBADF;
        char sig[8];

        fd = open_input(path, 0);
        if (fd == -EACCES || fd == -EPERM)
                return -EACCES;
        if (fd < 0)
                return fd; /* -EISDIR, -EBADFD: not a regular file */
        if (read(fd, sig, sizeof(sig)) != (ssize_t) sizeof(sig) || memcmp(sig, "LPKSHHRH", sizeof(sig)) != 0)
                return -EBADMSG;
        return 0;
}

static bool is_journal_name(const char *name) {
        size_t n = strlen(name);

        return (n > 8 && strcmp(name + n - 8, ".journal") == 0) || (n > 9 && strcmp(name + n - 9, ".journal~") == 0);
}

/* The journal files in dir and in its subdirectories named by a machine
 * ID, one level (what sd_journal_open_directory() reads): readable,
 * denied. */
static int scan_directory(const char *dir, bool top, bool *readable, bool *denied) {
        _cleanup_(closedirp) DIR *d = opendir(dir);
        struct dirent *de;

        if (!d) {
                if (errno == EACCES || errno == EPERM) {
                        *denied = true;
                        return 0;
                }
                return top ? -errno : 0;
        }
        while (!*readable && (de = readdir(d))) {
                _cleanup_free_ char *p = NULL;
                int fd;

                if (de->d_name[0] == '.')
                        continue;
                if (asprintf(&p, "%s/%s", dir, de->d_name) < 0)
                        return -ENOMEM;
                if (top && (de->d_type == DT_DIR || de->d_type == DT_UNKNOWN) && !is_journal_name(de->d_name) &&
                    sd_id128_from_string(de->d_name, &(sd_id128_t) {}) >= 0) {
                        int r = scan_directory(p, false, readable, denied);

                        if (r < 0)
                                return r;
                        continue;
                }
                if (!is_journal_name(de->d_name))
                        continue;
                fd = open(p, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
                if (fd >= 0) {
                        close(fd);
                        *readable = true;
                } else if (errno == EACCES || errno == EPERM)
                        *denied = true;
        }
        return 0;
}

/* -ENOENT: no such directory; -ENOMEDIUM: no journal file in it;
 * -ENOTDIR: not a directory; -EACCES: none of its journal files
 * readable. */
static int directory_check(const char *dir) {
        bool readable = false, denied = false;
        struct stat st;
        int r;

        if (stat(dir, &st) < 0)
                return -errno;
        if (!S_ISDIR(st.st_mode))
                return -ENOTDIR;
        r = scan_directory(dir, true, &readable, &denied);
        if (r < 0)
                return r;
        return readable ? 0 : denied ? -EACCES : -ENOMEDIUM;
}

/* sd-journal skips what it cannot open: without these checks a missing
 * directory, a file that is not a journal and files this user may not
 * read would all read as no events. */
static int inputs_check(const ReportFilter *filter, const char **ret_path) {
        int r;

        if (filter->directory) {
                *ret_path = filter->directory;
                return directory_check(filter->directory);
        }
        for (size_t i = 0; i < filter->n_files; i++) {
                *ret_path = filter->files[i];
                r = journal_file_check(filter->files[i]);
                if (r < 0)
                        return r;
        }
        *ret_path = NULL;
        if (filter->n_files > 0)
                return 0;
        /* this machine's system journal */
        r = journal_files_check(NULL);
        return r == -ENOENT ? -ENOMEDIUM : r;
}

int report_read_journal(const ReportFilter *filter, Report *ret, const char **ret_path) {
        const char *path = NULL;
        sd_id128_t current;
        Report all = {};
        int r;

        *ret = (Report) {};
        r = inputs_check(filter, &path);
        if (ret_path)
                *ret_path = path;
        if (r < 0)
                return r;
        if (!filter->boot)
                return read_entries(filter, NULL, filter->since_usec, ret);
        if (filter->boot_is_id) {
                r = read_entries(filter, &filter->boot_id, filter->since_usec, ret);
                if (r >= 0 && ret->n_boots == 0) {
                        report_done(ret);
                        return -ENXIO; /* an unknown boot, or one without events */
                }
                return r;
        }
        /* offsets count from this machine's current boot */
        if (filter->directory || filter->n_files > 0)
                return -EINVAL;

        r = sd_id128_get_boot(&current);
        if (r < 0)
                return r;
        if (filter->boot_offset == 0)
                return read_entries(filter, &current, filter->since_usec, ret);

        /* A negative offset counts back over the boots that have rng-health
         * events, from the current one (or the last one before it). */
        r = read_entries(filter, NULL, filter->since_usec, &all);
        if (r >= 0) {
                size_t last = all.n_boots;

                if (last > 0 && sd_id128_equal(all.boots[last - 1].boot_id, current))
                        last--;
                /* boot_offset -1 is the last boot before the current; read
                 * again for that boot alone, so that what was ignored is
                 * that boot's too. */
                if ((size_t) -filter->boot_offset <= last)
                        r = read_entries(filter, &all.boots[last + filter->boot_offset].boot_id, filter->since_usec, ret);
                else
                        r = -ENXIO;
        }
        report_done(&all);
        return r;
}
