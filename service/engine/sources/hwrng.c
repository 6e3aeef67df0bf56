/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "hwrng.h"
#include "macro.h"
#include "parse-util.h"
#include "time-util.h"

/* A sysfs attribute of the hwrng core, one line, its newline dropped. */
static int read_attr(const char *root, const char *dir, const char *name, char *buf, size_t len) {
        _cleanup_free_ char *path = path_join(root, dir, name), *text = NULL;
        size_t n;
        int r;

        if (!path)
                return -ENOMEM;
        r = read_small_file(path, 4096, &text, &n);
        if (r < 0)
                return r;
        while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' '))
                n--;
        text[n] = '\0';
        if (strlen(text) != n)
                return -EBADMSG; /* a NUL inside */
        snprintf(buf, len, "%s", text);
        return 0;
}

bool rng_hwrng_driver_matches(const char *const *drivers, const char *name) {
        if (!drivers || !name)
                return false;
        for (; *drivers; drivers++)
                if (strncmp(name, *drivers, strlen(*drivers)) == 0)
                        return true;
        return false;
}

#define STATE(kind, id, text) ((KernelSourceState) { .state = (kind), .reason_id = (id), .reason = (text) })

void rng_hwrng_kernel_view(const RngSourceDesc *d, const KernelViewInput *in, KernelSourceState *ret) {
        KernelCredit *c = &ret->credit;
        char quality[16];
        uint64_t q;
        int r;

        *ret = STATE(KERNEL_STATE_ENABLED, NULL, NULL);
        r = read_attr(in->root, d->detect.sysfs, "rng_current", c->device, sizeof(c->device));
        if (r == -ENOENT) {
                *ret = STATE(KERNEL_STATE_ABSENT, "no-hwrng-core", "the kernel has no hwrng core");
                ret->credit = (KernelCredit) { .known = true, .why = "no device" };
                return;
        }
        if (r < 0) {
                *ret = STATE(KERNEL_STATE_UNKNOWN, "sysfs-unreadable", "unknown (rng_current not readable)");
                return;
        }
        if (strcmp(c->device, "none") == 0 || !c->device[0]) {
                *ret = STATE(KERNEL_STATE_ABSENT, "no-device", "no device registered with the hwrng core");
                ret->credit = (KernelCredit) { .known = true, .why = "no device" };
                return;
        }
        (void) read_attr(in->root, d->detect.sysfs, "rng_available", c->available, sizeof(c->available));
        c->host_fed = rng_hwrng_driver_matches(d->kernel.host_fed_drivers, c->device);
        if (read_attr(in->root, d->detect.sysfs, "rng_quality", quality, sizeof(quality)) < 0 ||
            parse_u64(quality, &q) < 0 || q > 1024) {
                c->why = "rng_quality not readable";
                return; /* not known: neither credited nor not */
        }
        c->known = true;
        c->quality = (unsigned) q;
        c->credited = q > 0;
        c->why = q == 0 ? "rng_quality 0: mixed in, never credited" : "rng_quality, until the CRNG is ready";
}

/* --- the bounded reader ---------------------------------------------------------- */

typedef struct ReadJob {
        int fd;
        uint8_t *buf;
        size_t len, got;
        uint64_t deadline;
        int error;
} ReadJob;

static void sleep_until(uint64_t nsec) {
        struct timespec ts = { .tv_sec = (time_t) (nsec / 1000000000u), .tv_nsec = (long) (nsec % 1000000000u) };

        (void) clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/* Cancellable in read() and clock_nanosleep(); touches nothing but the job. */
static void *read_thread(void *userdata) {
        ReadJob *j = userdata;

        while (j->got < j->len) {
                ssize_t n = read(j->fd, j->buf + j->got, j->len - j->got);
                uint64_t now;

                if (n > 0) {
                        j->got += (size_t) n;
                        if (now_nsec() >= j->deadline)
                                break;
                        continue;
                }
                if (n == 0)
                        break; /* no more: as at the deadline */
                if (errno == EINTR)
                        continue;
                if (errno != EAGAIN) {
                        j->error = -errno;
                        break;
                }
                now = now_nsec();
                if (now >= j->deadline)
                        break;
                sleep_until(MIN(now + 1000000u, j->deadline));
        }
        return NULL;
}

/* How long after the deadline a read still inside the kernel is cancelled. */
#define CANCEL_GRACE_NSEC 20000000u

ssize_t rng_hwrng_read_fd(int fd, uint8_t *buf, size_t len, uint64_t deadline_nsec) {
        ReadJob job = { .fd = fd, .buf = buf, .len = len, .deadline = deadline_nsec };
        uint64_t until = deadline_nsec + CANCEL_GRACE_NSEC;
        struct timespec ts = { .tv_sec = (time_t) (until / 1000000000u), .tv_nsec = (long) (until % 1000000000u) };
        pthread_t t;
        int r;

        r = pthread_create(&t, NULL, read_thread, &job);
        if (r != 0)
                return -r;
        r = pthread_clockjoin_np(t, NULL, CLOCK_MONOTONIC, &ts);
        if (r == ETIMEDOUT) {
                /* Still in read(): the hwrng core's mutex, held by its own
                 * thread while the device keeps it waiting. */
                (void) pthread_cancel(t);
                (void) pthread_join(t, NULL);
        }
        if (job.got == 0 && job.error < 0)
                return job.error;
        return (ssize_t) job.got;
}

static ssize_t device_read(void *userdata, uint8_t *buf, size_t len, uint64_t deadline_nsec) {
        RngDeviceFile *f = userdata;
        _cleanup_close_ int own = -EBADF;
        struct stat st;
        int fd = f->fd, fl;

        if (fd < 0) {
                own = open(rng_source_desc(f->id)->detect.device, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
                if (own < 0)
                        return -errno;
                fd = own;
        } else {
                fl = fcntl(fd, F_GETFL);
                if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
                        return -errno;
        }
        if (fstat(fd, &st) < 0)
                return -errno;
        if (!S_ISCHR(st.st_mode))
                return -ENODEV;
        return rng_hwrng_read_fd(fd, buf, len, deadline_nsec);
}

static RngDeviceFile hwrng_file = { .id = RNG_SOURCE_HWRNG, .fd = -1 };

const RngSource rng_hwrng_form = {
        .name = "hwrng",
        .instruction = RNG_SOURCE_HWRNG,
        .width = 64,
        .userdata = &hwrng_file,
        .read = device_read,
};
