/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Which CPUs a contention run uses: sysfs's online and possible lists and
 * the affinity mask. Logs nothing: errors are returned to the caller. */

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

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

/* One CPU's package id: -ENOENT without topology, -EBADMSG if the file is
 * not a non-negative number (the kernel writes -1 where it does not know). */
static int read_package_id(const char *sysfs_root, int cpu, int *ret) {
        _cleanup_free_ char *path = NULL, *buf = NULL;
        char name[64];
        uint64_t u;
        size_t n;
        int r;

        snprintf(name, sizeof(name), "cpu%d/topology/physical_package_id", cpu);
        path = path_join(sysfs_root, "/sys/devices/system/cpu", name);
        if (!path)
                return -ENOMEM;
        r = read_small_file(path, 64, &buf, &n);
        if (r < 0)
                return r;
        if (n > 0 && buf[n - 1] == '\n')
                buf[--n] = '\0';
        if (strlen(buf) != n || parse_u64(buf, &u) < 0 || u > INT32_MAX)
                return -EBADMSG;
        *ret = (int) u;
        return 0;
}

void probe_cpus_packages(const char *sysfs_root, ProbeCpus *c) {
        c->n_packages = 0;
        c->topology_error = 0;
        for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
                unsigned k;
                int id, r;

                if (!CPU_ISSET(cpu, &c->used))
                        continue;
                r = read_package_id(sysfs_root, cpu, &id);
                if (r < 0) {
                        c->topology_error = r;
                        break;
                }
                for (k = 0; k < c->n_packages && c->package_id[k] != id; k++)
                        ;
                if (k == c->n_packages) {
                        if (k == PROBE_PACKAGES_MAX) {
                                c->topology_error = -E2BIG;
                                break;
                        }
                        c->package_id[k] = id;
                        CPU_ZERO(&c->package_cpus[k]);
                        c->n_packages++;
                }
                CPU_SET(cpu, &c->package_cpus[k]);
        }
        if (c->topology_error < 0)
                c->n_packages = 0;
}

unsigned probe_cpus_groups(const ProbeCpus *c, cpu_set_t ret[PROBE_PACKAGES_MAX], int ret_package[PROBE_PACKAGES_MAX]) {
        unsigned n = 0;

        if (c->n_packages == 0) {
                if (CPU_COUNT(&c->used) < 2)
                        return 0;
                ret[0] = c->used;
                ret_package[0] = -1;
                return 1;
        }
        for (unsigned k = 0; k < c->n_packages; k++)
                if (CPU_COUNT(&c->package_cpus[k]) >= 2) {
                        ret[n] = c->package_cpus[k];
                        ret_package[n++] = c->package_id[k];
                }
        return n;
}
