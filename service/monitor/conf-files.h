/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The files of rng-health.conf(5), as systemd finds its own:
 *   main file: the first of ROOT/etc, ROOT/run, ROOT/usr/lib
 *              /rng-health/rng-health.conf
 *   drop-ins:  *.conf in ROOT/{etc,run,usr/lib}/rng-health/rng-health.conf.d/,
 *              sorted by file name across the three directories; for the
 *              same name /etc hides /run hides /usr/lib; a drop-in (or main
 *              file) that is empty or a symlink to /dev/null masks. */

#include "macro.h"

#define CONFIG_N_DIRS 3
extern const char *const config_dirs[CONFIG_N_DIRS]; /* "/etc", "/run", "/usr/lib": the first wins */
#define CONFIG_MAIN "rng-health/rng-health.conf"
#define CONFIG_DROPIN_DIR "rng-health/rng-health.conf.d"

/* The files config_load() reads below root (NULL or "/": the real one), in
 * order (NULL-terminated, free with config_files_free()). A drop-in
 * directory that does not exist has no drop-ins; one that cannot be
 * listed, or is not a directory (-ENOTDIR), is an error: -errno, and
 * *ret_bad_dir is its path (malloc'ed; NULL on other errors). */
int config_files(const char *root, char ***ret, char **ret_bad_dir);
void config_files_free(char **files);
DEFINE_TRIVIAL_CLEANUP_FUNC(char **, config_files_free);
