/* SPDX-License-Identifier: GPL-2.0-or-later */

#include "json-util.h"

int json_add(struct json_object *o, const char *k, struct json_object *v) {
        int r = k ? json_object_object_add(o, k, v) : json_object_array_add(o, v);

        if (r < 0) {
                json_object_put(v);
                return -ENOMEM;
        }
        return 0;
}

int json_new_object(struct json_object **ret) {
        *ret = json_object_new_object();
        return *ret ? 0 : -ENOMEM;
}

int json_new_array(struct json_object **ret) {
        *ret = json_object_new_array();
        return *ret ? 0 : -ENOMEM;
}
