/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The kernel's reasons for disabling or hiding an instruction, and its
 * records on the seeds and the CRNG (with their own timestamps,
 * _SOURCE_MONOTONIC_TIMESTAMP), from this boot's kernel messages in the
 * journal: the daemon's KernelLogScanFn. It
 * runs without CAP_SYSLOG, so /dev/kmsg is not readable to it; journald
 * stores every kernel message with _TRANSPORT=kernel, which no client can
 * forge. */

#include "kernel-state.h"

/* userdata: unused. KERNEL_LOG_UNREADABLE when the journal cannot be
 * opened or read. */
KernelLogState journal_kernel_log_scan(const KernelReason *reasons[_RNG_SOURCE_MAX], KernelBootLog *boot,
                                       void *userdata);
