/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Logging to stderr, like systemd's log_*() for a service without the
 * journal API: under systemd (stderr is the journal stream named by
 * $JOURNAL_STREAM) each line starts with its syslog priority, "<3>...", so
 * journald stores it at PRIORITY=3 and names the program itself
 * (SYSLOG_IDENTIFIER); on a terminal a line starts with "rng-health: ".
 * Log an error once, where it is handled. */

#include <stdbool.h>
#include <syslog.h>

#include "macro.h"

/* Whether stderr is connected to the journal. */
bool log_stderr_is_journal(void);

_printf_(2, 3) void log_full(int priority, const char *fmt, ...);

/* Logs at LOG_ERR and returns r (negative errno), for "return log_error_errno(r, ...)". */
_printf_(2, 3) int log_error_errno(int r, const char *fmt, ...);

/* Writes one line at priority, with the prefix rules above. */
void log_line(int priority, const char *line);
