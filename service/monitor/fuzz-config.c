/* SPDX-License-Identifier: GPL-2.0-or-later */

/* config_load() on files written from the input below a temporary root:
 * the input is the main file ROOT/etc/rng-health/rng-health.conf and,
 * after a line "---8<---", a drop-in ROOT/etc/rng-health/rng-health.conf.d/
 * 50-fuzz.conf. Checked: 0 or -EINVAL; an accepted configuration is within
 * the bounds of rng-health.conf(5) and had no NUL or control byte; a
 * refused one names one of the two files, a line within it (or 0) and a
 * message, all safe to show (escape-check.h), and leaves *ret untouched;
 * an accepted one's thresholds can be reached by a run. */

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "escape-check.h"
#include "fuzz-util.h"
#include "parse-util.h"

#define SEPARATOR "\n---8<---\n"

static char root[] = "/tmp/rng-health-fuzz-config.XXXXXX";
static char main_path[PATH_MAX], dropin_path[PATH_MAX];

static void write_file(const char *path, const uint8_t *p, size_t len) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

        if (fd < 0)
                abort();
        while (len > 0) {
                ssize_t n = write(fd, p, len);

                if (n <= 0)
                        abort();
                p += n;
                len -= (size_t) n;
        }
        close(fd);
}

static void remove_root(void) {
        (void) unlink(dropin_path);
        (void) unlink(main_path);
        snprintf(main_path, sizeof(main_path), "%s/etc/rng-health/rng-health.conf.d", root);
        (void) rmdir(main_path);
        snprintf(main_path, sizeof(main_path), "%s/etc/rng-health", root);
        (void) rmdir(main_path);
        snprintf(main_path, sizeof(main_path), "%s/etc", root);
        (void) rmdir(main_path);
        (void) rmdir(root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
        char p[PATH_MAX];

        if (!mkdtemp(root))
                abort();
        snprintf(p, sizeof(p), "%s/etc", root);
        (void) mkdir(p, 0755);
        snprintf(p, sizeof(p), "%s/etc/rng-health", root);
        (void) mkdir(p, 0755);
        snprintf(p, sizeof(p), "%s/etc/rng-health/rng-health.conf.d", root);
        (void) mkdir(p, 0755);
        snprintf(main_path, sizeof(main_path), "%s/etc/rng-health/rng-health.conf", root);
        snprintf(dropin_path, sizeof(dropin_path), "%s/etc/rng-health/rng-health.conf.d/50-fuzz.conf", root);
        atexit(remove_root);
        return 0;
}

static unsigned n_lines(const uint8_t *p, size_t len) {
        unsigned n = 0;

        for (size_t i = 0; i < len; i++)
                if (p[i] == '\n')
                        n++;
        return n + (len > 0 && p[len - 1] != '\n');
}

static bool has_bad_byte(const uint8_t *p, size_t len) {
        for (size_t i = 0; i < len; i++)
                if ((p[i] < 0x20 && p[i] != '\t' && p[i] != '\n') || p[i] == 0x7f)
                        return true;
        return false;
}

/* What an accepted file holds, judged apart from the reader: after one
 * byte-order mark at its start, no line starts with another, none is an
 * indented setting, and each section header names a section of the
 * manual. (A BOM once hid the first line from every check.) */
static bool accepted_lines_ok(const uint8_t *p, size_t len) {
        static const char *const sections[] = { "Probe", "Thresholds", "Monitor", "Policy", "Metrics" };

        if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
                p += 3, len -= 3;
        for (size_t i = 0; i < len;) {
                const uint8_t *nl = memchr(p + i, '\n', len - i), *line = p + i, *close;
                size_t n = nl ? (size_t) (nl - line) : len - i, b = 0;
                bool known = false;

                i += n + 1;
                if (n >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0)
                        return false;
                while (b < n && (line[b] == ' ' || line[b] == '\t'))
                        b++;
                if (b == n || line[b] == '#' || line[b] == ';')
                        continue;
                if (b > 0)
                        return false;
                if (line[0] != '[')
                        continue;
                close = memchr(line, ']', n);
                if (!close)
                        return false;
                for (size_t k = 0; k < ELEMENTSOF(sections); k++)
                        known = known || ((size_t) (close - line - 1) == strlen(sections[k]) &&
                                          memcmp(line + 1, sections[k], strlen(sections[k])) == 0);
                if (!known)
                        return false;
        }
        return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const uint8_t *sep = memmem(data, size, SEPARATOR, strlen(SEPARATOR));
        size_t main_len = sep ? (size_t) (sep - data) + 1 : size; /* with its newline */
        const uint8_t *dropin = sep ? sep + strlen(SEPARATOR) : NULL;
        size_t dropin_len = sep ? size - (size_t) (dropin - data) : 0;
        Config c, untouched;
        ConfigError err;
        int r;

        if (size > 64 * 1024)
                return 0;
        write_file(main_path, data, main_len);
        if (dropin)
                write_file(dropin_path, dropin, dropin_len);
        else
                (void) unlink(dropin_path);

        memset(&c, 0x5a, sizeof(c));
        untouched = c;
        r = config_load(root, &c, &err);
        FUZZ_ASSERT(r == 0 || r == -EINVAL);
        if (r < 0) {
                bool is_main = strcmp(err.file, main_path) == 0;

                FUZZ_ASSERT(memcmp(&c, &untouched, sizeof(c)) == 0);
                FUZZ_ASSERT(is_main || (dropin && strcmp(err.file, dropin_path) == 0));
                FUZZ_ASSERT(err.message[0]);
                FUZZ_ASSERT(escape_check_output(err.message, strlen(err.message), false));
                FUZZ_ASSERT(escape_check_output(err.key, strlen(err.key), false));
                FUZZ_ASSERT(escape_check_output(err.file, strlen(err.file), false));
                FUZZ_ASSERT(err.line <= (is_main ? n_lines(data, main_len) : n_lines(dropin, dropin_len)));
                return 0;
        }

        /* An empty file masks: no bytes are read from it. */
        FUZZ_ASSERT(main_len == 0 || !has_bad_byte(data, main_len));
        if (dropin)
                FUZZ_ASSERT(dropin_len == 0 || !has_bad_byte(dropin, dropin_len));
        FUZZ_ASSERT(accepted_lines_ok(data, main_len));
        if (dropin)
                FUZZ_ASSERT(accepted_lines_ok(dropin, dropin_len));
        FUZZ_ASSERT(c.probe.instructions != 0 && c.probe.instructions < (1u << _RNG_SOURCE_MAX));
        FUZZ_ASSERT(c.probe.widths != 0 && c.probe.widths < (1u << RNG_N_WIDTHS));
        FUZZ_ASSERT(c.probe.threads <= CPU_SETSIZE);
        FUZZ_ASSERT(c.probe.limits.budget_usec >= 1 && c.probe.limits.budget_usec <= 10 * USEC_PER_SEC);
        FUZZ_ASSERT(c.probe.limits.max_attempts >= 1 && c.probe.limits.max_attempts <= (UINT64_C(1) << 32));
        FUZZ_ASSERT(c.probe.limits.min_attempts >= 1 && c.probe.limits.min_attempts <= c.probe.limits.max_attempts);
        FUZZ_ASSERT(c.probe.verdict.kernel_retries <= 1000);
        FUZZ_ASSERT(c.probe.verdict.degraded_min_failures >= 1 && c.probe.verdict.degraded_min_failures <= UINT32_MAX);
        FUZZ_ASSERT(c.probe.verdict.exhausted_min_loop_failures >= 1 &&
                    c.probe.verdict.exhausted_min_loop_failures <= UINT32_MAX);
        {
                uint64_t tries = c.probe.limits.max_attempts * (c.probe.threads ?: CPU_SETSIZE);

                FUZZ_ASSERT(c.probe.verdict.degraded_min_failures <= tries);
                FUZZ_ASSERT(c.probe.verdict.exhausted_min_loop_failures * (c.probe.verdict.kernel_retries ?: 1) <=
                            tries);
        }
        FUZZ_ASSERT(c.reprobe_usec == 0 ||
                    (c.reprobe_usec >= USEC_PER_SEC && c.reprobe_usec <= 365 * USEC_PER_DAY));
        for (int i = 0; i < _RNG_SOURCE_MAX; i++)
                FUZZ_ASSERT(c.fail_on.mask[i] < (1u << _VERDICT_MAX));
        FUZZ_ASSERT(c.fail_on_set || fail_on_empty(&c.fail_on));
        FUZZ_ASSERT(c.confidential_vm < _CVM_SETTING_MAX);
        return 0;
}
