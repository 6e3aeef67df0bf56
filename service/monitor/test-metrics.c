/* SPDX-License-Identifier: GPL-2.0-or-later */

/* metrics.h: the exposition text from a probe report, the kernel's
 * counters and the info; metrics-file.h: the atomic write.
 * With an argument, writes the text of the two-probe case there (the host
 * test tests/host/metrics-parse.py parses it with prometheus_client). */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include "fileio.h"
#include "macro.h"
#include "metrics-file.h"
#include "metrics.h"
#include "test-util.h"

#define CHECK_HAS(text, line) CHECK(strstr((text), (line)), "missing: %s", (line))
#define CHECK_LACKS(text, line) CHECK(!strstr((text), (line)), "unexpected: %s", (line))

static const Erratum test_erratum = { .id = "test-\"q\"\\x" };

static ProbeRun *add_run(ProbeSourceResult *in, unsigned width, ProbeMode mode, uint64_t attempts, uint64_t failures,
                         uint64_t over, uint64_t loop) {
        ProbeRun *r = &in->runs[in->n_runs++];

        *r = (ProbeRun) {
                .instruction = in->instruction, .width = width, .mode = mode,
                .threads = mode == PROBE_SINGLE ? 1 : 2,
                .package = -1, /* packages unknown */
                .attempts = attempts, .failures = failures, .delivered = attempts - failures,
                .values_over_retries = over, .kernel_loop_failures = loop,
                .failure_rate = (double) failures / attempts,
                .kernel_loop_failure_rate = (double) loop / (loop + attempts - failures),
                .values_per_sec = 1e6,
                .contended = mode == PROBE_CONTENTION,
                .window = { .overlap = mode == PROBE_CONTENTION ? 0.97 : 0 },
        };
        return r;
}

static void make_report(ProbeReport *r) {
        *r = (ProbeReport) { .wall_nsec = 1234567890u };
        r->instr[RNG_SOURCE_RDRAND] = (ProbeSourceResult) {
                .instruction = RNG_SOURCE_RDRAND, .selected = true, .cpuid = true,
                .verdict = VERDICT_OK, .kernel_retries = 10,
        };
        add_run(&r->instr[RNG_SOURCE_RDRAND], 64, PROBE_SINGLE, 4096, 0, 0, 0);
        add_run(&r->instr[RNG_SOURCE_RDRAND], 64, PROBE_CONTENTION, 8192, 0, 0, 0);
        r->instr[RNG_SOURCE_RDSEED] = (ProbeSourceResult) {
                .instruction = RNG_SOURCE_RDSEED, .selected = true, .cpuid = true,
                .verdict = VERDICT_EXHAUSTED, .kernel_retries = 1, .erratum = &test_erratum,
        };
        add_run(&r->instr[RNG_SOURCE_RDSEED], 32, PROBE_SINGLE, 1500, 400, 300, 300);
        /* A contention run whose threads did not overlap: no evidence. */
        {
                ProbeRun *c = add_run(&r->instr[RNG_SOURCE_RDSEED], 64, PROBE_CONTENTION, 3000, 2900, 0, 100);

                c->contended = false;
                c->window.overlap = 0.4;
        }
        /* The hwrng device, read once; the boot seed, absent. */
        r->instr[RNG_SOURCE_HWRNG] = (ProbeSourceResult) {
                .instruction = RNG_SOURCE_HWRNG, .selected = true, .cpuid = true, .executes = true,
                .verdict = VERDICT_HOST_FED,
                .kernel = { .state = KERNEL_STATE_ENABLED,
                            .credit = { .known = true, .credited = true, .host_fed = true, .quality = 512,
                                        .device = "virtio_rng.0" } },
        };
        r->instr[RNG_SOURCE_HWRNG].runs[0] = (ProbeRun) { .instruction = RNG_SOURCE_HWRNG, .width = 64,
                                                         .mode = PROBE_SINGLE, .threads = 1, .bytes = 208,
                                                         .attempts = 26, .delivered = 26, .bytes_per_sec = 10240 };
        r->instr[RNG_SOURCE_HWRNG].n_runs = 1;
        r->instr[RNG_SOURCE_BOOT_SEED] = (ProbeSourceResult) {
                .instruction = RNG_SOURCE_BOOT_SEED, .selected = true, .verdict = VERDICT_UNSUPPORTED,
                .kernel = { .state = KERNEL_STATE_ABSENT, .credit = { .known = true } },
        };
        r->verdict = VERDICT_EXHAUSTED;
}

/* Every sample line: name{labels} value, its name declared by # TYPE
 * before; no name declared twice. */
static void check_syntax(const char *text) {
        char declared[64][96];
        unsigned n_declared = 0;
        const char *p = text;

        while (*p) {
                const char *nl = strchr(p, '\n');
                char line[1024], name[96];
                size_t len;

                CHECK(nl, "text does not end with a newline");
                if (!nl)
                        break;
                len = MIN((size_t) (nl - p), sizeof(line) - 1);
                memcpy(line, p, len);
                line[len] = 0;
                p = nl + 1;
                if (strncmp(line, "# HELP ", 7) == 0)
                        continue;
                if (strncmp(line, "# TYPE ", 7) == 0) {
                        char type[32];

                        CHECK(sscanf(line + 7, "%95s %31s", name, type) == 2, "bad TYPE line: %s", line);
                        CHECK(strcmp(type, "gauge") == 0 || strcmp(type, "counter") == 0, "type %s", type);
                        for (unsigned i = 0; i < n_declared; i++)
                                CHECK(strcmp(declared[i], name) != 0, "declared twice: %s", name);
                        if (n_declared < ELEMENTSOF(declared))
                                snprintf(declared[n_declared++], sizeof(declared[0]), "%s", name);
                        CHECK(strcmp(type, "counter") != 0 || strstr(name, "_total"), "counter without _total: %s", name);
                        continue;
                }
                CHECK(line[0] != '#' && line[0], "stray line: '%s'", line);
                len = strspn(line, "abcdefghijklmnopqrstuvwxyz_");
                CHECK(len > 0 && len < sizeof(name) && (line[len] == '{' || line[len] == ' '), "bad sample: %s", line);
                snprintf(name, sizeof(name), "%.*s", (int) len, line);
                CHECK(n_declared > 0 && strcmp(declared[n_declared - 1], name) == 0,
                      "sample %s not under its own TYPE", name);
                CHECK(strncmp(name, "rng_health_", 11) == 0, "name %s", name);
        }
}

static void test_empty(void) {
        Metrics m = {};
        _cleanup_free_ char *t = metrics_format(&m, &(MetricsInfo) { .version = "1.0", .confidential_vm = "none" });

        CHECK(t, "format");
        if (!t)
                return;
        check_syntax(t);
        CHECK_HAS(t, "rng_health_probes_total 0\n");
        CHECK_LACKS(t, "rng_health_verdict{");
        CHECK_LACKS(t, "rng_health_kernel_exhausted_total");
}

static char *two_probes(void) {
        _cleanup_free_ ProbeReport *r = malloc(sizeof(*r));
        KernelCounters c = { .retried = { 5, 7 }, .exhausted = { 0, 3 } };
        static const KernelBootLog crng = { .read = true, .crng_ready = true, .crng_ready_usec = 4310123 };
        static const uint64_t forks = 2;
        Metrics m = {};

        if (!r)
                return NULL;
        make_report(r);
        metrics_add_probe(&m, r, 1700000000123456u);
        r->instr[RNG_SOURCE_RDSEED].verdict = VERDICT_BROKEN;
        metrics_add_probe(&m, r, 1700000100000001u);
        return metrics_format(&m, &(MetricsInfo) {
                .version = "0.1.0",
                .confidential_vm = "tdx",
                .probe = r, /* the last probe's report */
                .kernel_verdict = (const Verdict[_RNG_SOURCE_MAX]) { VERDICT_OK, VERDICT_DEGRADED },
                .kernel_counters = &c,
                .crng = &crng,
                .vm_forks = &forks,
        });
}

static void test_probes(const char *out) {
        _cleanup_free_ char *t = two_probes();

        CHECK(t, "format");
        if (!t)
                return;
        check_syntax(t);
        /* the stateset: the current verdict 1, every other 0 */
        CHECK_HAS(t, "rng_health_verdict{instruction=\"rdseed\",verdict=\"broken\"} 1\n");
        CHECK_HAS(t, "rng_health_verdict{instruction=\"rdseed\",verdict=\"exhausted\"} 0\n");
        CHECK_HAS(t, "rng_health_verdict{instruction=\"rdseed\",verdict=\"ok\"} 0\n");
        CHECK_HAS(t, "rng_health_verdict{instruction=\"rdrand\",verdict=\"ok\"} 1\n");
        CHECK_HAS(t, "rng_health_verdict{instruction=\"rdrand\",verdict=\"unsupported\"} 0\n");
        CHECK_HAS(t, "rng_health_kernel_verdict{instruction=\"rdseed\",verdict=\"degraded\"} 1\n");
        CHECK_HAS(t, "rng_health_kernel_verdict{instruction=\"rdrand\",verdict=\"ok\"} 1\n");
        CHECK_HAS(t, "rng_health_kernel_verdict{instruction=\"rdrand\",verdict=\"degraded\"} 0\n");
        /* the last probe's figures, where the run is evidence */
        CHECK_HAS(t, "# TYPE rng_health_probe_failure_ratio gauge\n");
        CHECK_HAS(t, "rng_health_probe_failure_ratio{instruction=\"rdseed\",width=\"32\",mode=\"single\",threads=\"1\"} 0.266666667\n");
        CHECK_HAS(t, "rng_health_probe_failure_ratio{instruction=\"rdrand\",width=\"64\",mode=\"contention\",threads=\"2\"} 0\n");
        CHECK_LACKS(t, "rng_health_probe_failure_ratio{instruction=\"rdseed\",width=\"64\",mode=\"contention\"");
        CHECK_LACKS(t, "rng_health_probe_values_per_second{instruction=\"rdseed\",width=\"64\",mode=\"contention\"");
        CHECK_HAS(t, "rng_health_probe_kernel_loop_failure_ratio{instruction=\"rdseed\",width=\"32\",mode=\"single\",threads=\"1\"} 0.214285714\n");
        CHECK_HAS(t, "rng_health_probe_values_per_second{instruction=\"rdrand\",width=\"64\",mode=\"single\",threads=\"1\"} 1000000\n");
        CHECK_HAS(t, "rng_health_probe_overlap_ratio{instruction=\"rdseed\",width=\"64\",threads=\"2\"} 0.4000\n");
        CHECK_HAS(t, "rng_health_probe_overlap_ratio{instruction=\"rdrand\",width=\"64\",threads=\"2\"} 0.9700\n");
        CHECK_HAS(t, "# TYPE rng_health_verdict gauge\n");
        /* counters add up over the probes */
        CHECK_HAS(t, "rng_health_probes_total 2\n");
        CHECK_HAS(t, "# TYPE rng_health_probe_tries_total counter\n");
        CHECK_HAS(t, "rng_health_probe_tries_total{instruction=\"rdseed\",width=\"32\",mode=\"single\"} 3000\n");
        CHECK_HAS(t, "rng_health_probe_failures_total{instruction=\"rdseed\",width=\"32\",mode=\"single\"} 800\n");
        CHECK_HAS(t, "rng_health_probe_values_over_kernel_retries_total{instruction=\"rdseed\",width=\"32\",mode=\"single\"} 600\n");
        CHECK_HAS(t, "rng_health_probe_kernel_loop_failures_total{instruction=\"rdseed\",width=\"32\",mode=\"single\"} 600\n");
        CHECK_HAS(t, "rng_health_probe_tries_total{instruction=\"rdrand\",width=\"64\",mode=\"contention\"} 16384\n");
        /* runs that were not made are not invented */
        CHECK_LACKS(t, "width=\"16\"");
        CHECK_LACKS(t, "instruction=\"rdseed\",width=\"32\",mode=\"contention\"");
        /* times: exact decimals of the integers */
        CHECK_HAS(t, "rng_health_probe_duration_seconds 1.234567890\n");
        CHECK_HAS(t, "rng_health_last_probe_timestamp_seconds 1700000100.000001\n");
        CHECK_HAS(t, "rng_health_kernel_retried_total{instruction=\"rdseed\"} 7\n");
        CHECK_HAS(t, "rng_health_kernel_exhausted_total{instruction=\"rdseed\"} 3\n");
        CHECK_HAS(t, "rng_health_kernel_exhausted_total{instruction=\"rdrand\"} 0\n");
        CHECK_HAS(t, "# TYPE rng_health_kernel_exhausted_total counter\n");
        /* info, with the erratum id escaped */
        CHECK_HAS(t, "rng_health_info{instruction=\"rdseed\",version=\"0.1.0\",kernel_retries=\"1\","
                     "confidential_vm=\"tdx\",cpu_vendor=\"\",cpu_family=\"\",cpu_model=\"\",cpu_stepping=\"\","
                     "cpu_microcode=\"\",erratum_status=\"unknown\",erratum=\"test-\\\"q\\\"\\\\x\"} 1\n");
        CHECK_HAS(t, "rng_health_info{instruction=\"rdrand\",version=\"0.1.0\",kernel_retries=\"10\","
                     "confidential_vm=\"tdx\",cpu_vendor=\"\",cpu_family=\"\",cpu_model=\"\",cpu_stepping=\"\","
                     "cpu_microcode=\"\",erratum_status=\"unknown\",erratum=\"\"} 1\n");
        /* no package known: no package label */
        CHECK_LACKS(t, "package=");
        /* The device and the seed: verdicts, no tries, no kernel verdict;
         * what the kernel credits and whether the host feeds it. */
        CHECK_HAS(t, "rng_health_verdict{instruction=\"hwrng\",verdict=\"host-fed\"} 1\n");
        CHECK_HAS(t, "rng_health_verdict{instruction=\"boot-seed\",verdict=\"unsupported\"} 1\n");
        CHECK_LACKS(t, "rng_health_kernel_verdict{instruction=\"hwrng\"");
        CHECK_LACKS(t, "rng_health_probe_tries_total{instruction=\"hwrng\"");
        CHECK_LACKS(t, "rng_health_probe_failure_ratio{instruction=\"hwrng\"");
        CHECK_HAS(t, "rng_health_credit_ratio{instruction=\"hwrng\"} 0.5\n");
        CHECK_HAS(t, "rng_health_host_fed{instruction=\"hwrng\"} 1\n");
        CHECK_LACKS(t, "rng_health_credit_ratio{instruction=\"boot-seed\"");
        CHECK_HAS(t, "rng_health_device_bytes_per_second{instruction=\"hwrng\"} 10240\n");
        CHECK_HAS(t, "rng_health_info{instruction=\"hwrng\",version=\"0.1.0\",kernel_retries=\"\","
                     "confidential_vm=\"tdx\",cpu_vendor=\"\",cpu_family=\"\",cpu_model=\"\",cpu_stepping=\"\","
                     "cpu_microcode=\"\",erratum_status=\"unknown\",erratum=\"\"} 1\n");
        /* This boot's CRNG, and the forks the kernel watch counted. */
        CHECK_HAS(t, "rng_health_crng_ready 1\n");
        CHECK_HAS(t, "rng_health_crng_init_seconds 4.310123\n");
        CHECK_HAS(t, "# TYPE rng_health_vm_forks_total counter\n");
        CHECK_HAS(t, "rng_health_vm_forks_total 2\n");

        if (out) {
                FILE *f = fopen(out, "we");

                CHECK(f && fputs(t, f) >= 0 && fclose(f) == 0, "cannot write %s", out);
        }
}

/* A Zen5 below its RDSEED fix, two packages: the info's attribution
 * labels, and a package label on each package's contention run. */
static void test_attribution(void) {
        _cleanup_free_ char *t = NULL;
        Metrics m = {};
        ProbeReport r;
        ProbeRun *c;

        make_report(&r);
        r.have_cpu = true;
        r.cpu = (CpuId) { .vendor = "AuthenticAMD", .have_fms = true, .family = 0x1a, .model = 0x02, .stepping = 1,
                          .have_microcode = true, .microcode = 0xb002110, .model_name = "AMD EPYC 9B45" };
        r.cpus.n_packages = 2;
        c = &r.instr[RNG_SOURCE_RDRAND].runs[1];
        c->package = 0;
        r.instr[RNG_SOURCE_RDRAND].runs[r.instr[RNG_SOURCE_RDRAND].n_runs] = *c;
        c = &r.instr[RNG_SOURCE_RDRAND].runs[r.instr[RNG_SOURCE_RDRAND].n_runs++];
        c->package = 1;
        c->failure_rate = 0.5;
        metrics_add_probe(&m, &r, 1700000000000000u);
        t = metrics_format(&m, &(MetricsInfo) { .version = "0.1.0", .confidential_vm = "none", .probe = &r });
        CHECK(t, "format");
        if (!t)
                return;
        check_syntax(t);
        CHECK_HAS(t, "rng_health_info{instruction=\"rdseed\",version=\"0.1.0\",kernel_retries=\"1\","
                     "confidential_vm=\"none\",cpu_vendor=\"AuthenticAMD\",cpu_family=\"0x1a\",cpu_model=\"0x2\","
                     "cpu_stepping=\"0x1\",cpu_microcode=\"0xb002110\","
                     "erratum_status=\"amd-zen5-rdseed: fixed in microcode 0xb00215a, running 0xb002110: not fixed\",");
        CHECK_HAS(t, "rng_health_info{instruction=\"rdrand\",version=\"0.1.0\",kernel_retries=\"10\","
                     "confidential_vm=\"none\",cpu_vendor=\"AuthenticAMD\",cpu_family=\"0x1a\",cpu_model=\"0x2\","
                     "cpu_stepping=\"0x1\",cpu_microcode=\"0xb002110\",erratum_status=\"none\",erratum=\"\"} 1\n");
        CHECK_HAS(t, "rng_health_probe_failure_ratio{instruction=\"rdrand\",width=\"64\",mode=\"contention\",threads=\"2\",package=\"0\"} 0\n");
        CHECK_HAS(t, "rng_health_probe_failure_ratio{instruction=\"rdrand\",width=\"64\",mode=\"contention\",threads=\"2\",package=\"1\"} 0.5\n");
        CHECK_HAS(t, "rng_health_probe_overlap_ratio{instruction=\"rdrand\",width=\"64\",threads=\"2\",package=\"1\"} 0.9700\n");
        /* single runs are not within a package */
        CHECK_HAS(t, "rng_health_probe_failure_ratio{instruction=\"rdrand\",width=\"64\",mode=\"single\",threads=\"1\"} 0\n");
        /* the counters sum the packages' runs */
        CHECK_HAS(t, "rng_health_probe_tries_total{instruction=\"rdrand\",width=\"64\",mode=\"contention\"} 16384\n");
}

static void test_escape(void) {
        char buf[64];

        CHECK_EQ_U64(metrics_escape_label("a\"b\\c\nd", buf, sizeof(buf)), 10);
        CHECK(strcmp(buf, "a\\\"b\\\\c\\nd") == 0, "escaped: %s", buf);
        CHECK_EQ_U64(metrics_escape_label("abc\"", buf, 3), 5);
        CHECK(strcmp(buf, "ab") == 0, "truncated: %s", buf);
}

static unsigned count_entries(const char *dir) {
        DIR *d = opendir(dir);
        struct dirent *de;
        unsigned n = 0;

        if (!d)
                return 0;
        while ((de = readdir(d)))
                n += de->d_name[0] != '.' || (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0);
        closedir(d);
        return n;
}

static void test_file(void) {
        char dir[] = "/tmp/test-metrics-XXXXXX", path[128], missing[160], buf[64];
        MetricsFile mf = {};
        struct stat st;
        FILE *f;
        size_t n;

        CHECK(mkdtemp(dir), "mkdtemp");
        snprintf(path, sizeof(path), "%s/rng-health.prom", dir);
        umask(0077);
        CHECK_EQ_INT(metrics_file_update(&mf, path, "one 1\n"), 0);
        CHECK_EQ_INT(metrics_file_update(&mf, path, "two 2\n"), 0);
        CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0644, "mode %o", (unsigned) st.st_mode);
        f = fopen(path, "re");
        n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
        buf[n] = 0;
        if (f)
                fclose(f);
        CHECK(strcmp(buf, "two 2\n") == 0, "content: %s", buf);
        CHECK_EQ_U64(count_entries(dir), 1); /* no temporary left behind */

        /* a missing directory: an error, logged once, nothing created */
        snprintf(missing, sizeof(missing), "%s/nope/rng-health.prom", dir);
        CHECK_EQ_INT(metrics_file_update(&mf, missing, "x 1\n"), -ENOENT);
        CHECK(mf.failing, "failure not remembered");
        CHECK_EQ_INT(metrics_file_update(&mf, missing, "x 1\n"), -ENOENT);
        CHECK_EQ_INT(metrics_file_update(&mf, path, "three 3\n"), 0);
        CHECK(!mf.failing, "recovery not noticed");
        CHECK_EQ_INT(write_file_atomic("relative.prom", "x\n", 0644), -EINVAL);
        CHECK_EQ_INT(metrics_file_update(&mf, "", "x\n"), 0); /* off */
        CHECK_EQ_U64(count_entries(dir), 1);

        unlink(path);
        rmdir(dir);
}

/* metrics_file_update() with stderr (its log) in a buffer: the result,
 * and what it logged in log (up to len bytes). */
static int update_logged(MetricsFile *mf, const char *path, char *log, size_t len) {
        TestStderr c = test_stderr_begin();
        int r = metrics_file_update(mf, path, "x 1\n");

        test_stderr_end(&c, log, len);
        return r;
}

/* The failure belongs to its path. A directory as
 * Path= warns once; a reload to another failing path says so; a reload to
 * a good path does not claim to write it "again"; the same path that
 * recovers does. */
static void test_file_paths(void) {
        char dir[] = "/tmp/test-metrics-paths-XXXXXX", isdir[128], nodir[160], good[128], later[160], log[1024];
        MetricsFile mf = {};

        CHECK(mkdtemp(dir), "mkdtemp");
        snprintf(isdir, sizeof(isdir), "%s/sub", dir);
        snprintf(nodir, sizeof(nodir), "%s/nodir/x.prom", dir);
        snprintf(good, sizeof(good), "%s/good.prom", dir);
        snprintf(later, sizeof(later), "%s/later/x.prom", dir);
        CHECK(mkdir(isdir, 0755) == 0, "mkdir");

        CHECK(update_logged(&mf, isdir, log, sizeof(log)) < 0, "a directory as Path= was written");
        CHECK(strstr(log, "metrics: cannot write ") && strstr(log, "/sub: it is a directory, not a file"), "log: '%s'",
              log);
        CHECK_EQ_INT(update_logged(&mf, isdir, log, sizeof(log)) < 0, 1);
        CHECK(!log[0], "logged twice: '%s'", log);

        /* reload to a path whose directory is missing: said, once */
        CHECK_EQ_INT(update_logged(&mf, nodir, log, sizeof(log)), -ENOENT);
        CHECK(strstr(log, "/nodir/x.prom: its directory does not exist"), "new failing path not said: '%s'", log);
        CHECK_EQ_INT(update_logged(&mf, nodir, log, sizeof(log)), -ENOENT);
        CHECK(!log[0], "logged twice: '%s'", log);

        /* reload to a good path: written, and no "again" */
        CHECK_EQ_INT(update_logged(&mf, good, log, sizeof(log)), 0);
        CHECK(!strstr(log, "again"), "'again' for a file never written: '%s'", log);
        CHECK(!mf.failing, "still failing");

        /* the same path failing, then recovering: "again" */
        CHECK_EQ_INT(update_logged(&mf, later, log, sizeof(log)), -ENOENT);
        CHECK(strstr(log, "/later/x.prom: its directory"), "'%s'", log);
        snprintf(isdir, sizeof(isdir), "%s/later", dir);
        CHECK(mkdir(isdir, 0755) == 0, "mkdir");
        CHECK_EQ_INT(update_logged(&mf, later, log, sizeof(log)), 0);
        CHECK(strstr(log, "metrics: writing ") && strstr(log, "/later/x.prom again"), "recovery not said: '%s'", log);

        {
                char cmd[128];

                snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
                CHECK(system(cmd) == 0, "cleanup");
        }
}

/* Only a regular file (or nothing) at Path= is replaced: a FIFO, a
 * symbolic link, a socket, a device node (as root: a copy of /dev/full's
 * node in the test's directory) is refused, said once with the reason,
 * and left as it was. A directory that takes no new file (/proc) is not
 * "missing". */
static void test_file_not_regular(void) {
        char dir[] = "/tmp/test-metrics-nonreg-XXXXXX", p[100], target[100], log[1024];
        struct stat st;

        CHECK(mkdtemp(dir), "mkdtemp");
        snprintf(target, sizeof(target), "%s/target", dir);
        CHECK(close(open(target, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) == 0, "create target");

        snprintf(p, sizeof(p), "%s/fifo.prom", dir);
        CHECK(mkfifo(p, 0644) == 0, "mkfifo");
        {
                MetricsFile mf = {};

                CHECK_EQ_INT(update_logged(&mf, p, log, sizeof(log)), -EBADFD);
                CHECK(strstr(log, "/fifo.prom: it is not a regular file (a FIFO, socket or device node)"), "'%s'", log);
                CHECK_EQ_INT(update_logged(&mf, p, log, sizeof(log)), -EBADFD);
                CHECK(!log[0], "logged twice: '%s'", log);
                CHECK(lstat(p, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO was replaced");
        }
        snprintf(p, sizeof(p), "%s/link.prom", dir);
        CHECK(symlink(target, p) == 0, "symlink");
        {
                MetricsFile mf = {};

                CHECK_EQ_INT(update_logged(&mf, p, log, sizeof(log)), -ELOOP);
                CHECK(strstr(log, "/link.prom: it is a symbolic link"), "'%s'", log);
                CHECK(lstat(p, &st) == 0 && S_ISLNK(st.st_mode), "the link was replaced");
                CHECK(stat(target, &st) == 0 && st.st_size == 0, "the link's target was written");
        }
        snprintf(p, sizeof(p), "%s/socket.prom", dir);
        {
                struct sockaddr_un sa = { .sun_family = AF_UNIX };
                int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
                MetricsFile mf = {};

                snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", p);
                CHECK(s >= 0 && bind(s, (struct sockaddr *) &sa, sizeof(sa)) == 0, "bind");
                if (s >= 0)
                        close(s);
                CHECK_EQ_INT(update_logged(&mf, p, log, sizeof(log)), -EBADFD);
                CHECK(lstat(p, &st) == 0 && S_ISSOCK(st.st_mode), "the socket was replaced");
        }
        /* A character device, made in the test's own directory (never
         * /dev: the code before this check replaced the node). */
        snprintf(p, sizeof(p), "%s/full.prom", dir);
        if (stat("/dev/full", &st) == 0 && mknod(p, S_IFCHR | 0600, st.st_rdev) == 0) {
                MetricsFile mf = {};

                CHECK_EQ_INT(update_logged(&mf, p, log, sizeof(log)), -EBADFD);
                CHECK(strstr(log, "/full.prom: it is not a regular file"), "'%s'", log);
                CHECK(lstat(p, &st) == 0 && S_ISCHR(st.st_mode), "the device node was replaced");
        } else
                printf("test-metrics: skipped the device node case (mknod: %m)\n");
        /* Nothing was created beside them: target, fifo, link, socket (and the node). */
        CHECK(count_entries(dir) == 4 || count_entries(dir) == 5, "%u entries: a temporary was left",
              (unsigned) count_entries(dir));

        /* /proc refuses new files with ENOENT: not "its directory does not exist" */
        {
                MetricsFile mf = {};

                CHECK_EQ_INT(update_logged(&mf, "/proc/x.prom", log, sizeof(log)), -ENOENT);
                CHECK(strstr(log, "/proc/x.prom: its directory takes no new file (No such file or directory)"),
                      "'%s'", log);
                CHECK(!strstr(log, "does not exist"), "'%s'", log);
        }

        {
                char cmd[128];

                snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
                CHECK(system(cmd) == 0, "cleanup");
        }
}

int main(int argc, char **argv) {
        test_empty();
        test_probes(argc > 1 ? argv[1] : NULL);
        test_attribution();
        test_escape();
        test_file();
        test_file_paths();
        test_file_not_regular();
        return test_result("test-metrics");
}
