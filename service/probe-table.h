/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The probe report as an aligned table for a person, verdicts first. */

#include <stdio.h>

#include "probe.h"

void probe_report_print_table(const ProbeReport *r, FILE *f);

/* "12.3M", "950k", "87": three significant digits with an SI suffix. */
char *format_si(double v, char *buf, size_t len);
