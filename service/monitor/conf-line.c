/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "conf-line.h"
#include "parse-util.h"

static bool line_fits(size_t len, int bufsize) {
        /* inih's buffer holds the line, its newline and the NUL. */
        return bufsize > 2 && len <= (size_t) bufsize - 2;
}

int config_line_check(const char *line, size_t len, int bufsize, char *msg, size_t msglen) {
        size_t i = 0;

        for (size_t k = 0; k < len; k++) {
                unsigned char c = (unsigned char) line[k];

                if (c == '\0') {
                        snprintf(msg, msglen, "NUL byte in column %zu", k + 1);
                        return -EINVAL;
                }
                if ((c < 0x20 && c != '\t') || c == 0x7f) {
                        snprintf(msg, msglen, "control character 0x%02x in column %zu", c, k + 1);
                        return -EINVAL;
                }
        }
        /* The file's own BOM is gone before this (config.c); inih drops
         * one more at the start of the first line, which would then go
         * unchecked. */
        if (len >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0) {
                snprintf(msg, msglen, "byte-order mark in column 1 (one is allowed only at the start of the file)");
                return -EINVAL;
        }
        if (!line_fits(len, bufsize)) {
                snprintf(msg, msglen, "line of %zu bytes, longer than the limit of %d", len, bufsize - 2);
                return -EINVAL;
        }
        while (i < len && is_blank(line[i]))
                i++;
        if (i == len || line[i] == '#' || line[i] == ';')
                return 0; /* empty or a comment */
        if (i > 0) {
                snprintf(msg, msglen, "indented line (settings and sections start in column 1; "
                                           "continuation lines are not supported)");
                return -EINVAL;
        }
        if (line[0] == '[') {
                const char *close = memchr(line, ']', len);
                size_t k;

                if (!close) {
                        snprintf(msg, msglen, "section header without ']'");
                        return -EINVAL;
                }
                for (k = (size_t) (close - line) + 1; k < len && is_blank(line[k]); k++)
                        ;
                if (k < len && line[k] != '#' && line[k] != ';') {
                        snprintf(msg, msglen, "text after ']' of the section header");
                        return -EINVAL;
                }
        } else {
                const char *eq = memchr(line, '=', len), *colon = memchr(line, ':', len);

                if (colon && (!eq || colon < eq)) {
                        snprintf(msg, msglen, "':' in column %zu as a separator (settings are Key=value)",
                                 (size_t) (colon - line) + 1);
                        return -EINVAL;
                }
                for (size_t k = 0; k < len; k++)
                        if (line[k] == ';' || line[k] == '#') {
                                snprintf(msg, msglen,
                                         "'%c' in column %zu of a setting (a comment must be a line of its own)",
                                         line[k], k + 1);
                                return -EINVAL;
                        }
        }
        return 0;
}
