/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Which CPUs a contention run uses: sysfs's online and possible lists and
 * the affinity mask. Logs nothing: errors are returned to the caller. */

#include <errno.h>
#include <sched.h>

#include "fileio.h"
#include "macro.h"
#include "parse-util.h"
#include "probe.h"

/* -EFBIG if the file is longer than a CPU list can be, -EINVAL/-ERANGE if it
 * is not one (not -E2BIG: probe_cpus_discover() means too many threads). */
static int read_cpu_list_file(const char *path, cpu_set_t *ret) {
        _cleanup_free_ char *buf = NULL;
        size_t n;
        int r;

        r = read_small_file(path, 4096, &buf, &n);
        if (r < 0)
                return r;
        r = parse_cpu_list(buf, n, ret);
        if (r < 0)
                return r;
        return 0;
}

int probe_cpus_discover(unsigned threads, ProbeCpus *ret) {
        cpu_set_t usable;
        unsigned n = 0;
        int r;

        *ret = (ProbeCpus) {};
        if (sched_getaffinity(0, sizeof(ret->allowed), &ret->allowed) < 0)
                return negative_errno();

        r = read_cpu_list_file("/sys/devices/system/cpu/online", &ret->online);
        if (r == -ENOENT)
                ret->online = ret->allowed; /* no sysfs: what we may use is what is online */
        else if (r < 0)
                return r;
        r = read_cpu_list_file("/sys/devices/system/cpu/possible", &ret->possible);
        if (r == -ENOENT)
                ret->possible = ret->online;
        else if (r < 0)
                return r;

        CPU_OR(&ret->possible, &ret->possible, &ret->online);
        CPU_XOR(&ret->skipped_offline, &ret->possible, &ret->online);
        CPU_AND(&usable, &ret->online, &ret->allowed);
        CPU_XOR(&ret->skipped_forbidden, &ret->online, &usable);

        for (int c = 0; c < CPU_SETSIZE; c++) {
                if (!CPU_ISSET(c, &usable))
                        continue;
                if (threads > 0 && n >= threads)
                        break;
                CPU_SET(c, &ret->used);
                n++;
        }
        if (threads > 0 && n < threads)
                return -E2BIG;
        return 0;
}
