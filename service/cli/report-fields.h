/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The journal fields `rng-health report` reads, and their validation
 * (report-fields.c). */

#include <stdint.h>

#include "journal-event.h"

/* The unsigned decimal field name of an entry entry_valid() took; absent is 0. */
uint64_t field_u64(const EventFields *f, const char *name);

/* 0 if every numeric and word field of f is one the daemon writes;
 * -EBADMSG with the first bad field's name in *ret_field. */
int entry_valid(const EventFields *f, const char **ret_field);
