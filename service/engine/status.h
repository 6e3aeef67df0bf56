/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The probe's part of the STATUS= line, e.g.
 *   RDRAND ok (0 of 36.9k tries failed); RDSEED exhausted: 72 % of tries
 *   failed, 3.31k values needed >1 tries (the kernel seeds from RDRAND
 *   instead)
 * Pure: no I/O. */

#include <stddef.h>

#include "probe.h"

#include "format-util.h"

/* Returns a newly allocated string, NULL on allocation failure. */
char *status_format_probe(const ProbeReport *r);
