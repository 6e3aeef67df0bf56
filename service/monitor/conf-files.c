/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Which files make the configuration, in order: the main file and the
 * drop-ins of the three directories (conf-files.h). */

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conf-files.h"
#include "fileio.h"
#include "macro.h"

const char *const config_dirs[CONFIG_N_DIRS] = { "/etc", "/run", "/usr/lib" };

/* Masked: empty, or /dev/null (what a symlink to /dev/null resolves to).
 * Only /dev/null: a link to another device (/dev/zero) does not mask, and
 * is refused when read (open_input()). */
static bool is_masked(const char *path) {
        struct stat st, null;

        if (stat(path, &st) < 0)
                return false;
        if (S_ISREG(st.st_mode))
                return st.st_size == 0;
        return S_ISCHR(st.st_mode) && stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode) &&
               st.st_rdev == null.st_rdev;
}

static bool exists(const char *path) {
        struct stat st;

        return lstat(path, &st) == 0;
}

static int strcmp_ptr(const void *a, const void *b) {
        return strcmp(*(char *const *) a, *(char *const *) b);
}

void config_files_free(char **files) {
        if (!files)
                return;
        for (char **f = files; *f; f++)
                free(*f);
        free(files);
}



static int list_push(char ***list, size_t *n, char *s) {
        char **l;

        if (!s)
                return -ENOMEM;
        l = realloc(*list, (*n + 2) * sizeof(char *));
        if (!l) {
                free(s);
                return -ENOMEM;
        }
        l[(*n)++] = s;
        l[*n] = NULL;
        *list = l;
        return 0;
}

/* Of ROOT/{etc,run,usr/lib}/REL, the first that exists wins: appended to
 * files unless it masks. */
static int push_highest(const char *root, const char *rel, char ***files, size_t *n_files) {
        for (size_t d = 0; d < ELEMENTSOF(config_dirs); d++) {
                _cleanup_free_ char *p = path_join(root, config_dirs[d], rel);


                if (!p)
                        return -ENOMEM;
                if (!exists(p))
                        continue;
                if (is_masked(p))
                        return 0;
                return list_push(files, n_files, TAKE_PTR(p)); /* takes it, or frees it */

        }
        return 0;
}

int config_files(const char *root, char ***ret, char **ret_bad_dir) {
        _cleanup_(config_files_freep) char **names = NULL, **files = NULL;
        size_t n_names = 0, n_files = 0;
        int r;

        *ret_bad_dir = NULL;

        /* Main file: the first one that exists. */
        r = push_highest(root, CONFIG_MAIN, &files, &n_files);
        if (r < 0)
                return r;

        /* Drop-in names across the three directories, each once. */
        for (size_t d = 0; d < ELEMENTSOF(config_dirs); d++) {
                _cleanup_free_ char *dir = path_join(root, config_dirs[d], CONFIG_DROPIN_DIR);
                DIR *dp;
                struct dirent *de;

                if (!dir)
                        return -ENOMEM;
                dp = opendir(dir);
                if (!dp) {
                        /* None is fine; anything else there (a regular
                         * file, a directory that cannot be read) is an
                         * error, not silently no drop-ins. */
                        if (errno == ENOENT)
                                continue;
                        r = negative_errno();
                        *ret_bad_dir = TAKE_PTR(dir);
                        return r;
                }
                while ((de = readdir(dp))) {
                        size_t l = strlen(de->d_name);
                        bool dup = false;

                        if (de->d_name[0] == '.' || l < 6 || strcmp(de->d_name + l - 5, ".conf") != 0)
                                continue;
                        for (size_t i = 0; i < n_names; i++)
                                dup = dup || strcmp(names[i], de->d_name) == 0;
                        if (dup)
                                continue;
                        r = list_push(&names, &n_names, strdup(de->d_name));
                        if (r < 0) {
                                closedir(dp);
                                return r;
                        }
                }
                closedir(dp);
        }
        if (n_names > 0)
                qsort(names, n_names, sizeof(char *), strcmp_ptr);

        /* For each name, the directory with the highest precedence wins. */
        for (size_t i = 0; i < n_names; i++) {
                _cleanup_free_ char *rel = NULL;

                if (asprintf(&rel, "%s/%s", CONFIG_DROPIN_DIR, names[i]) < 0)
                        return -ENOMEM;
                r = push_highest(root, rel, &files, &n_files);
                if (r < 0)
                        return r;
        }

        if (!files) {
                files = calloc(1, sizeof(char *));
                if (!files)
                        return -ENOMEM;
        }
        *ret = TAKE_PTR(files);
        return 0;

}
