/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <string.h>

#include "cli-util.h"
#include "escape.h"
#include "log.h"
#include "macro.h"

int cli_usage_error(const char *prog, const char *fmt, const char *a, const char *b) {
        _cleanup_free_ char *ea = escape_str(a), *eb = escape_str(b);

        fprintf(stderr, "%s: ", prog);
        fprintf(stderr, fmt, ea ?: "(out of memory)", eb ?: "(out of memory)");
        fputc('\n', stderr);
        return -EINVAL;
}

int cli_option_error(const char *prog, int argc, char *argv[], const char *shortopts) {
        const char *arg = optind >= 1 && optind <= argc ? argv[optind - 1] : "";

        if (optopt == 0)
                return cli_usage_error(prog, "%s: unknown option%s", arg, "");
        /* optopt is a long option's val (past a char, or one of the short
         * options): that long option was given a value it does not take */
        if (optopt > 0xff || (shortopts && strchr(shortopts, optopt) && optopt != ':'))
                return cli_usage_error(prog, "%s: the option takes no value%s", arg, "");
        {
                char c = (char) optopt, s[3] = { '-', c, '\0' };
                _cleanup_free_ char *e = escape_mem(s, 2);

                fprintf(stderr, "%s: %s: unknown option\n", prog, e ?: "(out of memory)");
        }
        return -EINVAL;
}

void cli_print_wrapped(FILE *f, size_t col, size_t indent, size_t width, const char *text) {
        size_t at = col;
        bool first = true;

        for (const char *p = text; *p;) {
                size_t n;

                p += strspn(p, " ");
                n = strcspn(p, " ");
                if (n == 0)
                        break;
                if (!first && at + 1 + n > width) {
                        fprintf(f, "\n%*s", (int) indent, "");
                        at = indent;
                } else if (!first) {
                        fputc(' ', f);
                        at++;
                }
                fwrite(p, 1, n, f);
                at += n;
                p += n;
                first = false;
        }
        fputc('\n', f);
}

int cli_flush(FILE *f) {
        int r = 0;

        errno = 0;
        if (fflush(f) != 0 || ferror(f))
                r = errno > 0 ? -errno : -EIO;
        if (r < 0)
                log_error_errno(r, "failed to write output: %m");
        return r;
}
