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

/* Logs one line at priority. error (a negative or positive errno, or 0)
 * is what %m in fmt shows (0: the current errno); errno is as before
 * afterwards. Returns -|error|, for "return log_error_errno(r, ...)". */
_printf_(3, 4) int log_full_errno(int priority, int error, const char *fmt, ...);

#define log_full(priority, ...) ((void) log_full_errno((priority), 0, __VA_ARGS__))
#define log_error(...) log_full(LOG_ERR, __VA_ARGS__)
#define log_warning(...) log_full(LOG_WARNING, __VA_ARGS__)
#define log_notice(...) log_full(LOG_NOTICE, __VA_ARGS__)
#define log_info(...) log_full(LOG_INFO, __VA_ARGS__)

#define log_error_errno(error, ...) log_full_errno(LOG_ERR, (error), __VA_ARGS__)
#define log_warning_errno(error, ...) log_full_errno(LOG_WARNING, (error), __VA_ARGS__)
#define log_notice_errno(error, ...) log_full_errno(LOG_NOTICE, (error), __VA_ARGS__)

/* Writes one line at priority, with the prefix rules above. */
void log_line(int priority, const char *line);
