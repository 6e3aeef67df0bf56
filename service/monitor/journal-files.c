/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <systemd/sd-id128.h>

#include "fileio.h"
#include "journal-files.h"
#include "macro.h"

static bool is_system_journal(const char *name) {
        size_t n = strlen(name);

        if (strncmp(name, "system.", 7) != 0 && strncmp(name, "system@", 7) != 0)
                return false;
        return (n > 8 && strcmp(name + n - 8, ".journal") == 0) || (n > 9 && strcmp(name + n - 9, ".journal~") == 0);
}

typedef struct Seen {
        bool readable, denied;
} Seen;

/* The system journal files in dir: one readable, or denied ones. */
static int check_dir(const char *dir, Seen *seen) {
        DIR *d = opendir(dir);
        struct dirent *de;

        if (!d) {
                if (errno == EACCES || errno == EPERM) {
                        seen->denied = true;
                        return 0;
                }
                return errno == ENOENT || errno == ENOTDIR ? 0 : negative_errno();
        }
        while (!seen->readable && (de = readdir(d))) {
                _cleanup_free_ char *p = NULL;
                int fd;

                if (!is_system_journal(de->d_name))
                        continue;
                if (asprintf(&p, "%s/%s", dir, de->d_name) < 0) {
                        closedir(d);
                        return -ENOMEM;
                }
                fd = open(p, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW);
                if (fd >= 0) {
                        close(fd);
                        seen->readable = true;
                } else if (errno == EACCES || errno == EPERM)
                        seen->denied = true;
        }
        closedir(d);
        return 0;
}

/* Every subdirectory of top (the machine ID is unknown). */
static int check_all(const char *top, Seen *seen) {
        DIR *d = opendir(top);
        struct dirent *de;
        int r = 0;

        if (!d) {
                if (errno == EACCES || errno == EPERM) {
                        seen->denied = true;
                        return 0;
                }
                return errno == ENOENT || errno == ENOTDIR ? 0 : negative_errno();
        }
        while (r >= 0 && !seen->readable && (de = readdir(d))) {
                _cleanup_free_ char *p = NULL;

                if (de->d_name[0] == '.')
                        continue;
                if (asprintf(&p, "%s/%s", top, de->d_name) < 0)
                        r = -ENOMEM;
                else
                        r = check_dir(p, seen);
        }
        closedir(d);
        return r;
}

int journal_files_check(const char *root) {
        static const char *const tops[] = { "/run/log/journal", "/var/log/journal" };
        char id[SD_ID128_STRING_MAX];
        bool have_id;
        sd_id128_t machine;
        Seen seen = {};
        int r;

        have_id = sd_id128_get_machine(&machine) >= 0;
        if (have_id)
                sd_id128_to_string(machine, id);
        for (size_t i = 0; i < ELEMENTSOF(tops) && !seen.readable; i++) {
                _cleanup_free_ char *top = path_join(root, tops[i], NULL);
                _cleanup_free_ char *dir = have_id ? path_join(root, tops[i], id) : NULL;

                if (!top || (have_id && !dir))
                        return -ENOMEM;
                r = have_id ? check_dir(dir, &seen) : check_all(top, &seen);
                if (r < 0)
                        return r;
        }
        if (seen.readable)
                return 0;
        return seen.denied ? -EACCES : -ENOENT;
}
