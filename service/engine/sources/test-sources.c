/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The source table: every descriptor is complete and consistent with the
 * rules the rest of the program relies on (the names, the weights of the
 * verdicts, the kernel's loops and counters, the draw code), and the
 * lookups and the names joined for messages give the table's words. */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot-seed.h"
#include "errata.h"
#include "escape.h"
#include "hwrng.h"
#include "time-util.h"
#include "fail-on.h"
#include "kernel-state.h"
#include "rng-source.h"
#include "sources.h"
#include "test-util.h"

static void test_descriptors(void) {
        CHECK(_RNG_SOURCE_MAX > 0, "no source in this build's table");
        CHECK(_RNG_SOURCE_MAX <= 8 * sizeof(unsigned), "masks of sources do not fit an unsigned");
        FOREACH_RNG_SOURCE(id) {
                const RngSourceDesc *d = rng_source_desc(id);

                CHECK(d == &rng_source_table[id], "descriptor of %u", id);
                CHECK(d->name && d->name[0] && d->display_name && d->display_name[0], "names of %u", id);
                /* The words of the command line and the configuration:
                 * lower case, no ':' (FailOn= NAME:VERDICT), no space. */
                for (const char *c = d->name; *c; c++)
                        CHECK((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' || *c == '-',
                              "%s: name character '%c'", d->name, *c);
                /* RNG_<DISPLAY>_VERDICT is a journal field name. */
                for (const char *c = d->display_name; *c; c++)
                        CHECK((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_',
                              "%s: display name character '%c'", d->name, *c);
                CHECK(rng_source_kind_to_string(d->kind), "%s: kind", d->name);
                CHECK(rng_architecture_to_string(d->architecture), "%s: architecture", d->name);
                CHECK((d->widths & ~RNG_WIDTHS_ALL) == 0, "%s: widths", d->name);
                CHECK(d->kernel.credit && d->kernel.credit_param, "%s: how the kernel credits it, and what decides",
                      d->name);
                CHECK(d->absent && d->absent[0], "%s: what is said where it is not there", d->name);
                CHECK(!d->kernel.cmdline_off == !d->kernel.cmdline_off_reason, "%s: cmdline_off and its reason",
                      d->name);
                CHECK(!d->kernel.log_prefix == !d->kernel.log_name, "%s: log prefix and name", d->name);
                CHECK(!d->kernel.log_prefix || d->kernel.logs_exhaustion != RNG_KERNEL_LOGS_NOTHING,
                      "%s: exhaustion lines, but logs nothing", d->name);

                if (d->kind == RNG_KIND_CPU_INSTRUCTION) {
                        CHECK(d->widths != 0, "%s: an instruction without widths", d->name);
                        CHECK(d->detect.cpuinfo_flag, "%s: no cpuinfo flag", d->name);
                        CHECK(d->detect.advertised_by && d->detect.not_advertised.absent &&
                                      d->detect.not_advertised.absent_sigill &&
                                      d->detect.not_advertised.hidden_log_unreadable &&
                                      d->detect.not_advertised.hidden_no_log &&
                                      strstr(d->detect.not_advertised.absent, d->detect.advertised_by),
                              "%s: what advertises it, and its reasons where it does not", d->name);
                        CHECK(!d->kernel_view, "%s: an instruction's view is /proc/cpuinfo's", d->name);
                        /* The kernel's loop, and the series' counters where it changes it. */
                        CHECK(d->kernel.tries_stock >= 1 && d->kernel.tries_series >= 1, "%s: tries", d->name);
                        CHECK(d->kernel.tries_stock_why && d->kernel.tries_series_why && d->kernel.tries_assumed_why,
                              "%s: the tries' reasons", d->name);
                        CHECK(d->kernel.tries_series == d->kernel.tries_stock || d->kernel.counters,
                              "%s: the series changes its loop, but it has no counters to tell the series by", d->name);
                        /* A routine failure is one the kernel falls back from. */
                        CHECK((verdict_severity(id, VERDICT_EXHAUSTED) <= SEVERITY_NOTICE) == d->kernel.has_fallback,
                              "%s: routine exhaustion and fallback disagree", d->name);
                        CHECK(!(d->fail_on_cvm & (1u << VERDICT_EXHAUSTED)) == d->kernel.has_fallback,
                              "%s: exhausted in the confidential VM's default, yet routine (or not, yet not routine)",
                              d->name);
                        CHECK(!(d->verdicts & (1u << VERDICT_HOST_FED)), "%s: the host does not choose the CPU's values",
                              d->name);
                } else {
                        CHECK(d->widths == 0 && !d->contention, "%s: widths or contention", d->name);
                        CHECK(!d->detect.cpuinfo_flag && d->kernel_view, "%s: its view is its reader's", d->name);
                        CHECK(!d->detect.advertised_by && !d->detect.not_advertised.absent,
                              "%s: advertised by the CPU", d->name);
                        CHECK(d->kernel.tries_stock == 0 && d->kernel.tries_series == 0 && !d->kernel.counters &&
                              !d->kernel.has_fallback, "%s: a loop, counters or a fallback", d->name);
                        CHECK(!rng_source_kernel_logged(id), "%s: the kernel watch follows it", d->name);
                        CHECK((d->verdicts & (1u << VERDICT_HOST_FED)) && d->kernel.remedy,
                              "%s: host-fed, and the remedy", d->name);
                }
                CHECK(!d->kernel.host_fed_drivers || d->kind == RNG_KIND_HWRNG_DEVICE, "%s: host-fed drivers",
                      d->name);
                CHECK(d->verdicts & (1u << VERDICT_OK | 1u << VERDICT_UNSUPPORTED), "%s: verdicts", d->name);

                /* What the verdicts weigh: the rules every source keeps,
                 * for each verdict it can have. */
                CHECK_EQ_INT(verdict_severity(id, VERDICT_OK), SEVERITY_INFO);
                CHECK_EQ_INT(verdict_severity(id, VERDICT_UNSUPPORTED), SEVERITY_INFO);
                if (d->verdicts & (1u << VERDICT_HIDDEN))
                        CHECK_EQ_INT(verdict_severity(id, VERDICT_HIDDEN), SEVERITY_NOTICE);
                if (d->verdicts & (1u << VERDICT_BROKEN))
                        CHECK_EQ_INT(verdict_severity(id, VERDICT_BROKEN), SEVERITY_ERR);
                if (d->verdicts & (1u << VERDICT_HOST_FED))
                        CHECK_EQ_INT(verdict_severity(id, VERDICT_HOST_FED), SEVERITY_WARNING);
                CHECK(verdict_severity(id, VERDICT_DEGRADED) <= verdict_severity(id, VERDICT_EXHAUSTED) ||
                      !(d->verdicts & (1u << VERDICT_EXHAUSTED)), "%s: degraded weighs more than exhausted", d->name);
                CHECK(!verdict_consequence(id, VERDICT_OK) && !verdict_consequence(id, VERDICT_UNSUPPORTED),
                      "%s: a consequence of ok or unsupported", d->name);
                for (Verdict v = 0; v < _VERDICT_MAX; v++) {
                        if (v == VERDICT_OK || v == VERDICT_UNSUPPORTED)
                                continue;
                        CHECK(!verdict_consequence(id, v) == !(d->verdicts & (1u << v)),
                              "%s: a consequence of %s, yet not a verdict of it (or the other way round)", d->name,
                              verdict_to_string(v));
                }
                /* A kernel fact that reweighs verdicts (the SMCCC TRNG for
                 * RNDRRS): a path and a clause, verdicts the source has,
                 * each with its consequence, and the same rules (broken
                 * err; routine exhaustion only with a fallback, which
                 * FailOn='s confidential-VM default, fixed, relies on). */
                CHECK(!d->alt.paths == !d->alt.fact && !d->alt.paths == !d->alt.verdicts,
                      "%s: the kernel fact's path, clause and verdicts", d->name);
                CHECK((d->alt.verdicts & ~d->verdicts) == 0, "%s: the fact reweighs a verdict it cannot have", d->name);
                for (Verdict v = 0; v < _VERDICT_MAX; v++)
                        if (d->alt.verdicts & (1u << v)) {
                                CHECK(d->alt.consequence[v] && d->alt.paths[0] && d->alt.paths[0][0] == '/',
                                      "%s: %s under the fact", d->name, verdict_to_string(v));
                                CHECK(v != VERDICT_BROKEN || d->alt.severity[v] == SEVERITY_ERR,
                                      "%s: broken under the fact", d->name);
                                CHECK(v != VERDICT_EXHAUSTED ||
                                              (d->alt.severity[v] <= SEVERITY_NOTICE) == d->kernel.has_fallback,
                                      "%s: exhaustion under the fact and the confidential VM's default disagree",
                                      d->name);
                        }
                rng_source_kernel_fact_set(id, true);
                CHECK(rng_source_kernel_fact(id) == !!d->alt.paths, "%s: a fact set where none is named", d->name);
                for (Verdict v = 0; v < _VERDICT_MAX; v++)
                        CHECK(verdict_consequence(id, v) ==
                                      (d->alt.verdicts & (1u << v) ? d->alt.consequence[v] : d->consequence[v]),
                              "%s: %s's consequence under the fact", d->name, verdict_to_string(v));
                rng_source_kernel_fact_set(id, false);
                CHECK(!d->kernel.has_fallback || (d->kernel.fallback < _RNG_SOURCE_MAX && d->kernel.fallback != id),
                      "%s: fallback", d->name);
                /* The default of a confidential VM fails on what is not routine. */
                CHECK((d->fail_on_cvm & ~d->verdicts) == 0, "%s: a default on a verdict it cannot have", d->name);
                CHECK(!!(d->fail_on_cvm & (1u << VERDICT_BROKEN)) == !!(d->verdicts & (1u << VERDICT_BROKEN)),
                      "%s: broken does not fail a confidential VM", d->name);
                CHECK(!(d->fail_on_cvm & (1u << VERDICT_OK | 1u << VERDICT_UNSUPPORTED | 1u << VERDICT_HIDDEN |
                                          1u << VERDICT_HOST_FED)),
                      "%s: the confidential VM's default fails on ok, unsupported, hidden or host-fed", d->name);

                /* The draw code: a form per width, of this source; a
                 * device's one reader; a seed has none. */
                if (d->kind == RNG_KIND_CPU_INSTRUCTION) {
                        CHECK(!d->forms == !d->advertised, "%s: forms without detection, or detection without forms",
                              d->name);
                        for (int w = 0; w < RNG_N_WIDTHS; w++) {
                                const RngSource *f = rng_source_hardware(id, rng_widths[w]);

                                if (!d->forms || !(d->widths & (1u << w))) {
                                        CHECK(!f, "%s: a form of width %u", d->name, rng_widths[w]);
                                        continue;
                                }
                                CHECK(f && f->instruction == id && f->width == rng_widths[w] && f->draw && f->batch &&
                                      !f->read, "%s: form of width %u", d->name, rng_widths[w]);
                        }
                } else if (d->kind == RNG_KIND_HWRNG_DEVICE) {
                        const RngSource *f = rng_source_hardware(id, 16);

                        CHECK(d->detect.device && d->detect.sysfs && !d->advertised, "%s: device and sysfs", d->name);
                        CHECK(f && f == rng_source_hardware(id, 64) && f->instruction == id && f->width == 64 &&
                              f->read && !f->draw && !f->batch, "%s: the device's reader", d->name);
                } else
                        CHECK(!d->forms && !rng_source_hardware(id, 64), "%s: a form of a seed", d->name);
                CHECK(!RNG_ARCH_X86_64 || d->architecture != RNG_ARCHITECTURE_X86_64 || d->forms,
                      "%s: no draw code in an x86-64 build", d->name);
        }
        CHECK(rng_source_desc(_RNG_SOURCE_MAX) == NULL, "beyond the table");
        CHECK(rng_source_name(_RNG_SOURCE_MAX) == NULL && rng_source_display_name(_RNG_SOURCE_MAX) == NULL,
              "names beyond the table");
}

static void test_names(void) {
        char buf[256];

        FOREACH_RNG_SOURCE(id) {
                CHECK_EQ_INT(rng_source_from_name(rng_source_name(id)), id);
                FOREACH_RNG_SOURCE(other)
                        CHECK(other == id || (strcmp(rng_source_name(id), rng_source_name(other)) != 0 &&
                                              strcmp(rng_source_display_name(id), rng_source_display_name(other)) != 0),
                              "%s and %s share a name", rng_source_name(id), rng_source_name(other));
                /* The display name is what the kernel and the status say,
                 * never the command line's word. */
                CHECK(rng_source_from_name(rng_source_display_name(id)) == -EINVAL ||
                      strcmp(rng_source_name(id), rng_source_display_name(id)) == 0,
                      "%s: display name taken as a name", rng_source_name(id));
        }
        CHECK(rng_source_from_name(NULL) == -EINVAL, "NULL");
        CHECK(rng_source_from_name("") == -EINVAL, "empty");
        CHECK(rng_source_from_name("all") == -EINVAL, "all is no source");

#if RNG_SOURCES_X86_64
        /* The words users and dashboards know keep their spelling. */
        CHECK(strcmp(rng_source_name(RNG_SOURCE_RDRAND), "rdrand") == 0, "rdrand");
        CHECK(strcmp(rng_source_name(RNG_SOURCE_RDSEED), "rdseed") == 0, "rdseed");
        CHECK(strcmp(rng_source_display_name(RNG_SOURCE_RDRAND), "RDRAND") == 0, "RDRAND");
        CHECK(strcmp(rng_source_display_name(RNG_SOURCE_RDSEED), "RDSEED") == 0, "RDSEED");
        CHECK(strcmp(rng_source_names_join(RNG_SOURCES_ALL, false, "", ", ", ", ", buf, sizeof(buf)),
                     "rdrand, rdseed, hwrng, boot-seed") == 0, "%s", buf);
        CHECK(strcmp(rng_source_names_join(RNG_SOURCES_ALL, true, "", "/", "/", buf, sizeof(buf)),
                     "RDRAND/RDSEED/HWRNG/BOOT_SEED") == 0, "%s", buf);
        CHECK(strcmp(rng_source_names_join(RNG_SOURCES_ALL, false, ":", ", ", " or ", buf, sizeof(buf)),
                     "rdrand:, rdseed:, hwrng: or boot-seed:") == 0, "%s", buf);
        CHECK(strcmp(rng_source_names_join(1u << RNG_SOURCE_RDSEED, true, "", "/", "/", buf, sizeof(buf)),
                     "RDSEED") == 0, "%s", buf);
        CHECK(strcmp(fail_on_words_expect(buf, sizeof(buf)), "a verdict: degraded, exhausted, broken, hidden, "
                     "host-fed, unsupported or ok, optionally after rdrand:, rdseed:, hwrng: or boot-seed:") == 0,
              "%s", buf);
#endif
        /* The sources of every build, in every build. */
        CHECK(strcmp(rng_source_name(RNG_SOURCE_HWRNG), "hwrng") == 0, "hwrng");
        CHECK(strcmp(rng_source_name(RNG_SOURCE_BOOT_SEED), "boot-seed") == 0, "boot-seed");
        CHECK(strcmp(rng_source_names_join(0, false, "", ", ", ", ", buf, sizeof(buf)), "") == 0, "none: %s", buf);
        /* Cut, never overrun. */
        CHECK(strlen(rng_source_names_join(RNG_SOURCES_ALL, false, "", ", ", ", ", buf, 4)) <= 3, "cut");
}

/* The tables beside it are keyed by sources of this build. */
static void test_keyed_tables(void) {
        for (size_t i = 0; i < kernel_reason_table_size; i++) {
                const KernelReason *r = &kernel_reason_table[i];

                CHECK(rng_source_desc(r->instruction), "reason %s: source", r->id);
                CHECK(r->id && r->message && r->source, "reason %zu incomplete", i);
                CHECK(kernel_reason_match(r->message, strlen(r->message)) == r, "reason %s: matched by another", r->id);
        }
        for (size_t i = 0; i < errata_table_size; i++) {
                const Erratum *e = &errata_table[i];

                CHECK(rng_source_desc(e->instruction), "erratum %s: source", e->id);
                CHECK((e->widths & ~rng_source_desc(e->instruction)->widths) == 0, "erratum %s: widths", e->id);
        }
}

/* A fake root's file (made with its directories). */
static void put(const char *root, const char *path, const char *text) {
        char cmd[1024];

        snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname %s%s)\" && printf '%%s' '%s' >%s%s", root, path, text, root,
                 path);
        CHECK(system(cmd) == 0, "%s", cmd);
}

static const RngSourceDesc *desc(RngSourceId id) {
        return rng_source_desc(id);
}

/* The hwrng device's view: which device, how much credited, host-fed by
 * its driver; not there; not readable. */
static void test_hwrng_view(void) {
        char root[] = "/tmp/test-sources-XXXXXX", cmd[256];
        KernelSourceState k;
        KernelViewInput in;

        if (!mkdtemp(root))
                return;
        in = (KernelViewInput) { .root = root };
        rng_hwrng_kernel_view(desc(RNG_SOURCE_HWRNG), &in, &k);
        CHECK(k.state == KERNEL_STATE_ABSENT && k.credit.known && !k.credit.credited, "no hwrng core");
        CHECK(strcmp(k.reason_id, "no-hwrng-core") == 0, "%s", k.reason_id);

        put(root, "/sys/class/misc/hw_random/rng_current", "none\n");
        rng_hwrng_kernel_view(desc(RNG_SOURCE_HWRNG), &in, &k);
        CHECK(k.state == KERNEL_STATE_ABSENT && strcmp(k.reason_id, "no-device") == 0, "no device");

        /* As on this project's build machines and in the image's VM. */
        put(root, "/sys/class/misc/hw_random/rng_current", "virtio_rng.0\n");
        put(root, "/sys/class/misc/hw_random/rng_available", "virtio_rng.0 none\n");
        put(root, "/sys/class/misc/hw_random/rng_quality", "1024\n");
        rng_hwrng_kernel_view(desc(RNG_SOURCE_HWRNG), &in, &k);
        CHECK(k.state == KERNEL_STATE_ENABLED && k.credit.known && k.credit.credited && k.credit.host_fed &&
              k.credit.quality == 1024, "virtio_rng.0 at 1024");
        CHECK(strcmp(k.credit.device, "virtio_rng.0") == 0 && strcmp(k.credit.available, "virtio_rng.0 none") == 0,
              "%s / %s", k.credit.device, k.credit.available);

        /* rng_quality written to 0: mixed in, never credited. */
        put(root, "/sys/class/misc/hw_random/rng_quality", "0\n");
        rng_hwrng_kernel_view(desc(RNG_SOURCE_HWRNG), &in, &k);
        CHECK(k.credit.known && !k.credit.credited && k.credit.quality == 0 && k.credit.host_fed, "quality 0");

        /* A device the host does not feed (a TPM), credited in part. */
        put(root, "/sys/class/misc/hw_random/rng_current", "tpm-rng-0\n");
        put(root, "/sys/class/misc/hw_random/rng_quality", "512\n");
        rng_hwrng_kernel_view(desc(RNG_SOURCE_HWRNG), &in, &k);
        CHECK(k.credit.credited && !k.credit.host_fed && k.credit.quality == 512, "tpm at 512");

        /* Bad input: out of range, not a number, a NUL: the credit is not known. */
        put(root, "/sys/class/misc/hw_random/rng_quality", "1025\n");
        rng_hwrng_kernel_view(desc(RNG_SOURCE_HWRNG), &in, &k);
        CHECK(k.state == KERNEL_STATE_ENABLED && !k.credit.known && !k.credit.credited, "quality 1025");
        put(root, "/sys/class/misc/hw_random/rng_quality", "-1\n");
        rng_hwrng_kernel_view(desc(RNG_SOURCE_HWRNG), &in, &k);
        CHECK(!k.credit.known, "quality -1");
        put(root, "/sys/class/misc/hw_random/rng_quality", "1 2\n");
        rng_hwrng_kernel_view(desc(RNG_SOURCE_HWRNG), &in, &k);
        CHECK(!k.credit.known, "quality '1 2'");
        /* The kernel's names are escaped where they are read: no control
         * byte, no invalid UTF-8 reaches a terminal, JSON or the journal,
         * and a driver's prefix still matches. */
        put(root, "/sys/class/misc/hw_random/rng_quality", "1024\n");
        put(root, "/sys/class/misc/hw_random/rng_current", "virtio_rng.0\033[31mEVIL\n");
        put(root, "/sys/class/misc/hw_random/rng_available", "xx\xff\xfe none\n");
        rng_hwrng_kernel_view(desc(RNG_SOURCE_HWRNG), &in, &k);
        CHECK(k.state == KERNEL_STATE_ENABLED && k.credit.host_fed, "escaped device: state %d", k.state);
        CHECK(strcmp(k.credit.device, "virtio_rng.0\\x1b[31mEVIL") == 0, "device '%s'", k.credit.device);
        CHECK(strcmp(k.credit.available, "xx\\xff\\xfe none") == 0, "available '%s'", k.credit.available);
        /* cut to the field whole, never in an escape */
        put(root, "/sys/class/misc/hw_random/rng_current",
            "virtio_rng.0\033\033\033\033\033\033\033\033\033\033\033\033\033\033\033\033\n");
        rng_hwrng_kernel_view(desc(RNG_SOURCE_HWRNG), &in, &k);
        CHECK(strncmp(k.credit.device, "virtio_rng.0\\x1b\\x1b", 20) == 0, "cut device '%s'", k.credit.device);
        for (const char *c = k.credit.device; *c; c++)
                CHECK(*c >= 0x20 && *c < 0x7f, "cut device '%s'", k.credit.device);
        CHECK(strlen(k.credit.device) % 4 == 0, "cut inside an escape: '%s'", k.credit.device);

        snprintf(cmd, sizeof(cmd), "printf 'virtio\\0x' >%s/sys/class/misc/hw_random/rng_current", root);
        CHECK(system(cmd) == 0, "%s", cmd);
        rng_hwrng_kernel_view(desc(RNG_SOURCE_HWRNG), &in, &k);
        CHECK(k.state == KERNEL_STATE_UNKNOWN, "a NUL in rng_current");

        CHECK(rng_hwrng_driver_matches(desc(RNG_SOURCE_HWRNG)->kernel.host_fed_drivers, "virtio_rng.3"), "virtio_rng.3");
        CHECK(!rng_hwrng_driver_matches(desc(RNG_SOURCE_HWRNG)->kernel.host_fed_drivers, "virtio"), "virtio");
        CHECK(!rng_hwrng_driver_matches(NULL, "virtio_rng.0"), "no drivers");
        snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
        (void) system(cmd);
}

/* The boot loader's seed: none; x86 setup_data (credited whatever
 * random.trust_bootloader says); EFI's table in the log (as the parameter
 * says); the CRNG ready before the command line; a device tree's. */
static void test_boot_seed_view(void) {
        static const char on[] = "root=/dev/sda", off[] = "root=/dev/sda random.trust_bootloader=off";
        char root[] = "/tmp/test-sources-XXXXXX", cmd[256];
        KernelBootLog log = { .read = true }, efi = { .read = true, .efi_seed = true };
        KernelSourceState k;
        unsigned t;

        if (!mkdtemp(root))
                return;
        rng_boot_seed_kernel_view(desc(RNG_SOURCE_BOOT_SEED),
                                  &(KernelViewInput) { .root = root, .cmdline = on, .cmdline_len = strlen(on), .log = &log }, &k);
        CHECK(k.state == KERNEL_STATE_ABSENT && k.credit.known && !k.credit.credited, "none passed");
        /* No log read: an EFI seed could not be seen, so absence is not
         * known, and it says so. */
        rng_boot_seed_kernel_view(desc(RNG_SOURCE_BOOT_SEED), &(KernelViewInput) { .root = root }, &k);
        CHECK(k.state == KERNEL_STATE_UNKNOWN && strstr(k.reason, "kernel log not read") && !k.credit.known,
              "no log: state %d, %s", k.state, k.reason);

        /* Entries of other types (SETUP_E820_EXT, SETUP_DTB) are no seed. */
        put(root, "/sys/kernel/boot_params/setup_data/0/type", "0x1\n");
        put(root, "/sys/kernel/boot_params/setup_data/1/type", "0x2\n");
        rng_boot_seed_kernel_view(desc(RNG_SOURCE_BOOT_SEED),
                                  &(KernelViewInput) { .root = root, .cmdline = on, .cmdline_len = strlen(on), .log = &log }, &k);
        CHECK(k.state == KERNEL_STATE_ABSENT, "other setup_data types");

        put(root, "/sys/kernel/boot_params/setup_data/2/type", "0x9\n");
        rng_boot_seed_kernel_view(desc(RNG_SOURCE_BOOT_SEED),
                                  &(KernelViewInput) { .root = root, .cmdline = off, .cmdline_len = strlen(off), .log = &log }, &k);
        CHECK(k.state == KERNEL_STATE_ENABLED && k.credit.credited && k.credit.host_fed &&
              strcmp(k.credit.device, "setup_data") == 0, "setup_data seed, credited with trust_bootloader=off");
        /* sysfs shows a setup_data seed without the kernel log. */
        rng_boot_seed_kernel_view(desc(RNG_SOURCE_BOOT_SEED), &(KernelViewInput) { .root = root }, &k);
        CHECK(k.state == KERNEL_STATE_ENABLED && strcmp(k.credit.device, "setup_data") == 0,
              "setup_data seed without the log: state %d", k.state);
        snprintf(cmd, sizeof(cmd), "rm -rf %s/sys", root);
        CHECK(system(cmd) == 0, "%s", cmd);

        rng_boot_seed_kernel_view(desc(RNG_SOURCE_BOOT_SEED),
                                  &(KernelViewInput) { .root = root, .cmdline = off, .cmdline_len = strlen(off), .log = &efi }, &k);
        CHECK(k.state == KERNEL_STATE_ENABLED && !k.credit.credited && strcmp(k.credit.device, "efi") == 0,
              "EFI seed, trust_bootloader=off: not credited");
        rng_boot_seed_kernel_view(desc(RNG_SOURCE_BOOT_SEED),
                                  &(KernelViewInput) { .root = root, .cmdline = on, .cmdline_len = strlen(on), .log = &efi }, &k);
        CHECK(k.credit.credited && k.credit.quality == 1024, "EFI seed, trust_bootloader on: credited");
        /* The log says a seed made the CRNG ready: credited, whatever the parameter. */
        efi.crng_ready = efi.cmdline_seen = true;
        efi.crng_stage = KERNEL_CRNG_STAGE_BOOT_SEED;
        rng_boot_seed_kernel_view(desc(RNG_SOURCE_BOOT_SEED),
                                  &(KernelViewInput) { .root = root, .cmdline = off, .cmdline_len = strlen(off), .log = &efi }, &k);
        CHECK(k.credit.credited, "ready before the command line");

        /* A device tree's rng-seed (arm64): erased once read, seen only by
         * the CRNG's readiness before the command line; without a device
         * tree such a seed is unnamed. */
        KernelBootLog early = { .read = true, .crng_ready = true, .cmdline_seen = true,
                                .crng_stage = KERNEL_CRNG_STAGE_BOOT_SEED };
        rng_boot_seed_kernel_view(desc(RNG_SOURCE_BOOT_SEED),
                                  &(KernelViewInput) { .root = root, .cmdline = off, .cmdline_len = strlen(off), .log = &early }, &k);
        CHECK(k.state == KERNEL_STATE_ENABLED && k.credit.credited && k.credit.host_fed &&
              strcmp(k.credit.device, "unnamed") == 0, "early and no trace: %s", k.credit.device);
        put(root, "/sys/firmware/devicetree/base/chosen/bootargs", "console=ttyAMA0");
        rng_boot_seed_kernel_view(desc(RNG_SOURCE_BOOT_SEED),
                                  &(KernelViewInput) { .root = root, .cmdline = on, .cmdline_len = strlen(on), .log = &log }, &k);
        CHECK(k.state == KERNEL_STATE_ABSENT && strstr(k.reason, "device tree") && k.credit.known &&
              !k.credit.credited && strstr(k.credit.why, "none credited"), "device tree, not early: %s", k.reason);
        rng_boot_seed_kernel_view(desc(RNG_SOURCE_BOOT_SEED),
                                  &(KernelViewInput) { .root = root, .cmdline = off, .cmdline_len = strlen(off), .log = &early }, &k);
        CHECK(k.state == KERNEL_STATE_ENABLED && k.credit.credited && k.credit.host_fed && k.credit.quality == 1024 &&
              strcmp(k.credit.device, "device-tree") == 0, "device tree, early: %s", k.credit.device);
        snprintf(cmd, sizeof(cmd), "rm -rf %s/sys", root);
        CHECK(system(cmd) == 0, "%s", cmd);

        put(root, "/sys/firmware/acpi/tables/OEM0", "x");
        rng_boot_seed_kernel_view(desc(RNG_SOURCE_BOOT_SEED),
                                  &(KernelViewInput) { .root = root, .cmdline = on, .cmdline_len = strlen(on), .log = &log }, &k);
        CHECK(k.state == KERNEL_STATE_ENABLED && strcmp(k.credit.device, "hyperv-oem0") == 0, "%s", k.credit.device);
        snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
        (void) system(cmd);

        /* The type file's parser: the kernel's "0x%x\n", and nothing else. */
        CHECK(rng_setup_data_type_parse("0x9\n", 4, &t) == 0 && t == 9, "0x9");
        CHECK(rng_setup_data_type_parse("0x80000000", 10, &t) == 0 && t == 0x80000000u, "SETUP_INDIRECT");
        CHECK(rng_setup_data_type_parse("0xFf\n", 5, &t) == 0 && t == 255, "upper case");
        CHECK(rng_setup_data_type_parse("9\n", 2, &t) == -EBADMSG, "no 0x");
        CHECK(rng_setup_data_type_parse("0x\n", 3, &t) == -EBADMSG, "no digit");
        CHECK(rng_setup_data_type_parse("0x9 \n", 5, &t) == -EBADMSG, "a space");
        CHECK(rng_setup_data_type_parse("0x9\nx", 5, &t) == -EBADMSG, "after the newline");
        CHECK(rng_setup_data_type_parse("0x100000000", 11, &t) == -EBADMSG, "past 32 bits");
        CHECK(rng_setup_data_type_parse(NULL, 0, &t) == -EBADMSG, "NULL");
}

/* The device's reader on a pipe: what the writer gave, by the deadline;
 * a read that blocks inside the kernel (a blocking fd, as when the hwrng
 * core's mutex is held) is left behind shortly after it, and its thread
 * ends when the read returns (the writer closes). */
static void test_reader(void) {
        uint8_t buf[64];
        int p[2];
        uint64_t t0, t;
        ssize_t n;

        CHECK(pipe2(p, O_NONBLOCK | O_CLOEXEC) == 0, "pipe");
        CHECK(write(p[1], "abcdefgh", 8) == 8, "write");
        t0 = now_nsec();
        n = rng_hwrng_read_fd(p[0], buf, sizeof(buf), t0 + 30 * 1000000ull);
        t = now_nsec() - t0;
        CHECK(n == 8 && memcmp(buf, "abcdefgh", 8) == 0, "read %zd", n);
        CHECK(t >= 30 * 1000000ull && t < 1000000000ull, "waited %" PRIu64 " ns for the rest", t);
        CHECK(write(p[1], buf, sizeof(buf)) == (ssize_t) sizeof(buf), "write");
        CHECK(rng_hwrng_read_fd(p[0], buf, sizeof(buf), now_nsec() + 1000000000ull) == (ssize_t) sizeof(buf), "full");
        close(p[0]);
        close(p[1]);

        /* A blocking read that does not return by the deadline: left
         * behind, nothing read; closing the caller's fd does not stop the
         * thread's own duplicate, the writer's close does. */
        CHECK(pipe2(p, O_CLOEXEC) == 0, "pipe");
        t0 = now_nsec();
        n = rng_hwrng_read_fd(p[0], buf, sizeof(buf), t0 + 20 * 1000000ull);
        t = now_nsec() - t0;
        CHECK(n == 0, "read %zd from a stalled device", n);
        CHECK(t < 1000000000ull, "a stalled device held the read %" PRIu64 " ns", t);
        close(p[0]);
        close(p[1]);

        /* An fd that cannot be read at all. */
        CHECK(rng_hwrng_read_fd(-1, buf, sizeof(buf), now_nsec() + 1000000ull) == -EBADF, "bad fd");
        CHECK(rng_source_use_fd(RNG_SOURCE_HWRNG, -1) == -EINVAL, "use fd -1");
#if RNG_SOURCES_X86_64
        CHECK(rng_source_use_fd(RNG_SOURCE_RDRAND, 3) == -EINVAL, "use fd for an instruction");
#endif
}

int main(void) {
        test_descriptors();
        test_hwrng_view();
        test_boot_seed_view();
        test_reader();
        test_names();
        test_keyed_tables();
        return test_result("test-sources");
}
