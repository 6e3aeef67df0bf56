/* SPDX-License-Identifier: GPL-2.0-or-later */

/* TAKE_PTR hands a pointer on and leaves NULL behind; a cleanup function
 * from DEFINE_TRIVIAL_CLEANUP_FUNC runs the destructor once for a set
 * pointer and never for NULL; string_table_lookup() finds whole names
 * only. */

#include "macro.h"
#include "test-util.h"

typedef struct Thing {
        int id;
} Thing;

static unsigned freed;
static int last_freed;

static Thing *thing_free(Thing *t) {
        freed++;
        last_freed = t->id; /* NULL would crash here: never called with it */
        free(t);
        return NULL;
}
DEFINE_TRIVIAL_CLEANUP_FUNC(Thing *, thing_free);

static Thing *thing_new(int id) {
        _cleanup_(thing_freep) Thing *t = calloc(1, sizeof(Thing));

        if (!t)
                return NULL;
        t->id = id;
        return TAKE_PTR(t); /* not freed on the way out */
}

int main(void) {
        Thing *kept;

        kept = thing_new(1);
        CHECK(kept && kept->id == 1, "thing_new() handed its thing on");
        CHECK_EQ_INT(freed, 0);

        {
                _cleanup_(thing_freep) Thing *t = thing_new(2), *none = NULL;

                CHECK(t && !none, "set up");
        }
        CHECK_EQ_INT(freed, 1); /* t, not none */
        CHECK_EQ_INT(last_freed, 2);

        {
                _cleanup_(thing_freep) Thing *t = kept, *taken = NULL;

                taken = TAKE_PTR(t);
                CHECK(!t && taken == kept, "TAKE_PTR leaves NULL and returns the pointer");
        }
        CHECK_EQ_INT(freed, 2); /* taken, once */
        CHECK_EQ_INT(last_freed, 1);

        {
                /* string_table_lookup(): the index, whole names only, a
                 * gap skipped; -EINVAL for none and for NULL. */
                static const char *const table[] = { "auto", NULL, "yes" };

                CHECK_EQ_INT(string_table_lookup(table, ELEMENTSOF(table), "auto"), 0);
                CHECK_EQ_INT(string_table_lookup(table, ELEMENTSOF(table), "yes"), 2);
                CHECK_EQ_INT(string_table_lookup(table, ELEMENTSOF(table), "ye"), -EINVAL);
                CHECK_EQ_INT(string_table_lookup(table, ELEMENTSOF(table), "yess"), -EINVAL);
                CHECK_EQ_INT(string_table_lookup(table, ELEMENTSOF(table), ""), -EINVAL);
                CHECK_EQ_INT(string_table_lookup(table, ELEMENTSOF(table), NULL), -EINVAL);
                CHECK_EQ_INT(string_table_lookup(table, 1, "yes"), -EINVAL);
        }
        return test_result("test-macro");
}
