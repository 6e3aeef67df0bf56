/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Checks of journal event fields, for the tests of the monitor and the CLI. */

#include <string.h>

#include "journal-event.h"
#include "test-util.h"

static inline const char *get(const EventFields *f, const char *k) {
        return event_fields_get(f, k) ?: "(missing)";
}

static inline void check_field(const EventFields *f, const char *k, const char *want) {
        CHECK(strcmp(get(f, k), want) == 0, "%s=%s, expected %s", k, get(f, k), want);
}
