/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The one way to build JSON with json-c (probe --json, report --json):
 * every add checked, numbers as unsigned 64-bit where they are counts. */

#include <errno.h>
#include <stdint.h>

#include <json-c/json.h>

#include "macro.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(struct json_object *, json_object_put);
#define _cleanup_json_ _cleanup_(json_object_putp)

/* Adds v under key k of object o, or appends it to array o (k NULL); v is
 * taken either way; v NULL is JSON null. -ENOMEM if it cannot be added. */
int json_add(struct json_object *o, const char *k, struct json_object *v);

/* json_add(), returning its error from the calling function. */
#define JSON_ADD(o, k, v)                                 \
        do {                                              \
                int _r = json_add((o), (k), (v));         \
                if (_r < 0)                               \
                        return _r;                        \
        } while (0)

/* A new object or array for *ret (-ENOMEM). */
int json_new_object(struct json_object **ret);
int json_new_array(struct json_object **ret);

/* Values: a count (unsigned 64-bit), a string or NULL (JSON null). */
#define JSON_U64(v) json_object_new_uint64((uint64_t) (v))
#define JSON_DBL(v) json_object_new_double(v)
#define JSON_STR(v) ((v) ? json_object_new_string(v) : NULL)
