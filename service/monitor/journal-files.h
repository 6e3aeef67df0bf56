/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Whether this machine's system journal can be read at all, and if not,
 * why: sd-journal opens what it can and skips the rest, so "no files" and
 * "files this user may not read" both look like an empty journal. report
 * and the kernel watch tell the two apart with this. */

/* The one wording of "no journal", for every place that says it. */
#define JOURNAL_FILES_NONE "no journal files in /run/log/journal or /var/log/journal (is systemd-journald running?)"
#define JOURNAL_FILES_DENIED                                                                                       \
        "the journal's files in /run/log/journal or /var/log/journal are not readable by this user "              \
        "(root or the systemd-journal group can read them)"

/* Looks for the system journal's files (system.journal, system@*.journal,
 * system@*.journal~) of this machine (its machine ID's directory, or every
 * directory when the ID is unknown) below root (NULL: /) in /run/log/journal
 * and /var/log/journal. 0: one can be opened for reading; -ENOENT: there is
 * none; -EACCES: there are some (or a directory) and this user may open
 * none of them; another -errno: listing failed. */
int journal_files_check(const char *root);
