/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "boot-seed.h"
#include "fileio.h"
#include "macro.h"

#define HYPERV_SEED_TABLE "/sys/firmware/acpi/tables/OEM0"

DEFINE_TRIVIAL_CLEANUP_FUNC(DIR *, closedir);

int rng_setup_data_type_parse(const char *text, size_t len, unsigned *ret) {
        unsigned long v = 0;
        size_t i = 2;

        if (!text || len < 3 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X'))
                return -EBADMSG;
        for (; i < len && text[i] != '\n'; i++) {
                char c = text[i];
                unsigned d;

                if (c >= '0' && c <= '9')
                        d = (unsigned) (c - '0');
                else if (c >= 'a' && c <= 'f')
                        d = (unsigned) (c - 'a' + 10);
                else if (c >= 'A' && c <= 'F')
                        d = (unsigned) (c - 'A' + 10);
                else
                        return -EBADMSG;
                v = v * 16 + d;
                if (v > 0xffffffffUL)
                        return -EBADMSG;
        }
        if (i == 2 || (i < len && i + 1 != len))
                return -EBADMSG; /* no digit, or something after the newline */
        *ret = (unsigned) v;
        return 0;
}

/* Whether an entry of setup_data below dir has the seed's type. */
static bool setup_data_seed(const char *root, const char *dir, unsigned type) {
        _cleanup_free_ char *path = path_join(root, dir, NULL);
        _cleanup_(closedirp) DIR *d = NULL;
        struct dirent *e;
        bool found = false;

        if (!path || !(d = opendir(path)))
                return false;
        while (!found && (e = readdir(d))) {
                _cleanup_free_ char *type_path = NULL, *text = NULL;
                char name[300];
                size_t len;
                unsigned t;

                if (e->d_name[0] == '.')
                        continue;
                snprintf(name, sizeof(name), "%s/type", e->d_name);
                type_path = path_join(root, dir, name);
                if (type_path && read_small_file(type_path, 64, &text, &len) >= 0 &&
                    rng_setup_data_type_parse(text, len, &t) >= 0 && t == type)
                        found = true;
        }
        return found;
}

static bool exists(const char *root, const char *p) {
        _cleanup_free_ char *path = path_join(root, p, NULL);
        struct stat st;

        return path && lstat(path, &st) >= 0;
}

void rng_boot_seed_kernel_view(const RngSourceDesc *d, const KernelViewInput *in, KernelSourceState *ret) {
        bool setup = setup_data_seed(in->root, d->detect.sysfs, d->detect.setup_data_type);
        bool efi = in->log && in->log->efi_seed;
        bool hyperv = exists(in->root, HYPERV_SEED_TABLE);
        bool dt = d->detect.device_tree && exists(in->root, d->detect.device_tree);
        bool trust = kernel_cmdline_bool(in->cmdline, in->cmdline_len, d->kernel.credit_param, true);
        bool before = in->log && in->log->crng_ready && in->log->crng_stage == KERNEL_CRNG_STAGE_BOOT_SEED;
        KernelCredit *c = &ret->credit;

        *ret = (KernelSourceState) { .state = KERNEL_STATE_ENABLED };
        if (!setup && !efi && !hyperv && !before) {
                if (!in->log) {
                        /* An EFI seed and a credited device tree's show only
                         * in the kernel log: without it, absence is not known. */
                        *ret = (KernelSourceState) {
                                .state = KERNEL_STATE_UNKNOWN,
                                .reason_id = "log-not-read",
                                .reason = "unknown (kernel log not read: an EFI seed, or a device tree's credited "
                                          "one, would not be seen)",
                        };
                        return;
                }
                /* A device tree's rng-seed leaves no trace: only a credited
                 * one shows, by the CRNG's readiness before the command line. */
                *ret = (KernelSourceState) {
                        .state = KERNEL_STATE_ABSENT,
                        .reason_id = "none",
                        .reason = dt ? "no seed from the boot loader credited (a device tree's rng-seed "
                                       "leaves no trace but the CRNG's readiness before the command line)"
                                     : "no seed from the boot loader",
                };
                ret->credit = (KernelCredit) {
                        .known = true,
                        .why = dt      ? "none credited: the CRNG was not ready before the kernel command line"
                               : trust ? "none passed (random.trust_bootloader is on)"
                                       : "none passed (random.trust_bootloader is off)",
                };
                return;
        }
        /* The seed whose only trace is the CRNG's early readiness: a device
         * tree's when the kernel has one, otherwise unnamed. */
        snprintf(c->device, sizeof(c->device), "%s%s%s%s%s%s%s", setup ? "setup_data" : "",
                 setup && (efi || hyperv) ? " " : "", efi ? "efi" : "", efi && hyperv ? " " : "",
                 hyperv ? "hyperv-oem0" : "", !setup && !efi && !hyperv && dt ? "device-tree" : "",
                 !setup && !efi && !hyperv && !dt ? "unnamed" : "");
        c->known = true;
        c->host_fed = true;
        c->credited = setup || trust || before;
        c->quality = c->credited ? 1024 : 0;
        c->why = setup ? "x86 credits a setup_data seed before it reads random.trust_bootloader"
                 : before ? "the CRNG was ready before the kernel command line: the seed made it so"
                 : trust ? "random.trust_bootloader is on"
                         : "random.trust_bootloader is off: mixed in, not credited";
}
