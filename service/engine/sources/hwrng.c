/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "escape.h"
#include "fileio.h"
#include "hwrng.h"
#include "macro.h"
#include "parse-util.h"
#include "time-util.h"

/* A sysfs attribute of the hwrng core, one line, its newline dropped,
 * escaped (escape.h): the kernel's text goes to a terminal, JSON and the
 * journal, and a driver's name (or a file mounted over the attribute) is
 * outside input. Printable ASCII, all a driver's name should be, is kept
 * as it is, so the host-fed drivers' prefixes still match. */
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
        escape_to(buf, len, text, n);
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
                *ret = STATE(KERNEL_STATE_UNKNOWN, "sysfs-unreadable",
                             r == -EBADMSG ? "unknown (rng_current not readable: a NUL byte in it)"
                             : r == -EFBIG ? "unknown (rng_current not readable: longer than 4096 bytes)"
                                           : "unknown (rng_current not readable)");
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

/* A read of the device is made by a thread of its own: a read of
 * /dev/hwrng can wait inside the kernel whatever O_NONBLOCK says (the hwrng
 * core's mutex, held by the kernel's own hwrng thread while its device keeps
 * it waiting). The caller waits for the thread until the deadline and a
 * short grace, then goes on with what had arrived; a thread still inside
 * read() is left to finish on its own, and what it gets after that is wiped
 * and dropped. No cancellation: the job is shared, counted, and freed by
 * whichever of the two lets go of it last; the thread reads its own
 * duplicate of the descriptor, so a caller that closes its fd cannot make
 * the thread read whatever file gets that number next. */
typedef struct ReadJob {
        pthread_mutex_t lock;
        pthread_cond_t cond;
        unsigned refs;  /* the caller and the thread */
        bool done;      /* the thread read all it will */
        bool abandoned; /* the caller went on without it */
        int fd;         /* the thread's own duplicate */
        size_t len, got;
        uint64_t deadline;
        int error;
        uint8_t buf[];
} ReadJob;

static void read_job_unref(ReadJob *j) {
        bool last;

        pthread_mutex_lock(&j->lock);
        last = --j->refs == 0;
        pthread_mutex_unlock(&j->lock);
        if (!last)
                return;
        if (j->fd >= 0)
                close(j->fd);
        explicit_bzero(j->buf, j->len);
        pthread_cond_destroy(&j->cond);
        pthread_mutex_destroy(&j->lock);
        free(j);
}

static void sleep_until(uint64_t nsec) {
        struct timespec ts = { .tv_sec = (time_t) (nsec / 1000000000u), .tv_nsec = (long) (nsec % 1000000000u) };

        (void) clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static void *read_thread(void *userdata) {
        ReadJob *j = userdata;
        size_t got = 0;
        int error = 0;

        while (got < j->len) {
                ssize_t n = read(j->fd, j->buf + got, j->len - got);
                int e = n < 0 ? errno : 0;
                bool abandoned;
                uint64_t now;

                if (n < 0 && e != EINTR && e != EAGAIN) {
                        error = -e;
                        break;
                }
                pthread_mutex_lock(&j->lock);
                if (n > 0)
                        j->got = got += (size_t) n;
                abandoned = j->abandoned;
                pthread_mutex_unlock(&j->lock);
                if (abandoned || n == 0) /* n == 0: no more, as at the deadline */
                        break;
                now = now_nsec();
                if (now >= j->deadline)
                        break;
                if (e == EAGAIN)
                        sleep_until(MIN(now + 1000000u, j->deadline));
        }
        pthread_mutex_lock(&j->lock);
        j->error = error;
        j->done = true;
        pthread_cond_signal(&j->cond);
        pthread_mutex_unlock(&j->lock);
        read_job_unref(j);
        return NULL;
}

/* How long after the deadline the caller waits for a read still inside the
 * kernel. */
#define READ_GRACE_NSEC 20000000u

ssize_t rng_hwrng_read_fd(int fd, uint8_t *buf, size_t len, uint64_t deadline_nsec) {
        uint64_t until = deadline_nsec + READ_GRACE_NSEC;
        struct timespec ts = { .tv_sec = (time_t) (until / 1000000000u), .tv_nsec = (long) (until % 1000000000u) };
        pthread_condattr_t ca;
        pthread_attr_t ta;
        pthread_t t;
        ReadJob *j;
        ssize_t n;
        int r;

        if (!buf || len == 0)
                return -EINVAL;
        j = calloc(1, sizeof(*j) + len);
        if (!j)
                return -ENOMEM;
        *j = (ReadJob) { .refs = 2, .len = len, .deadline = deadline_nsec };
        j->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
        if (j->fd < 0) {
                r = -errno;
                free(j);
                return r;
        }
        (void) pthread_mutex_init(&j->lock, NULL);
        (void) pthread_condattr_init(&ca);
        (void) pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        (void) pthread_cond_init(&j->cond, &ca);
        (void) pthread_condattr_destroy(&ca);

        (void) pthread_attr_init(&ta);
        (void) pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
        r = pthread_create(&t, &ta, read_thread, j);
        (void) pthread_attr_destroy(&ta);
        if (r != 0) {
                j->refs = 1;
                read_job_unref(j);
                return -r;
        }

        pthread_mutex_lock(&j->lock);
        while (!j->done && pthread_cond_timedwait(&j->cond, &j->lock, &ts) != ETIMEDOUT)
                ;
        /* Still in read(), or done: what arrived is all the caller gets. */
        j->abandoned = true;
        n = (ssize_t) j->got;
        memcpy(buf, j->buf, j->got);
        if (n == 0 && j->done && j->error < 0)
                n = j->error;
        pthread_mutex_unlock(&j->lock);
        read_job_unref(j);
        return n;
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
