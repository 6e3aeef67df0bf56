/* SPDX-License-Identifier: GPL-2.0-or-later */

/* plot-svg.h: the series, the SVG text (escaped), and where a figure may
 * be written. With an argument DIR, also writes a figure of fixed data
 * (three panels; a non-power-of-two thread count; points that coincide)
 * as DIR/fixture.svg and what it shows as DIR/fixture.json, for
 * tests/host/check-svg.py to render and check (meson test plot-render). */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "macro.h"
#include "plot-svg.h"
#include "test-util.h"

static void test_series(void) {
        PlotSeries s = {};

        CHECK_EQ_INT(plot_series_add(&s, 4, 0.5), 0);
        CHECK_EQ_INT(plot_series_add(&s, 1, -0.25), 0);
        CHECK_EQ_INT(plot_series_add(&s, 2, 1.5), 0);
        CHECK_EQ_INT(plot_series_add(&s, 2, 0.1), 0); /* the first stays */
        CHECK_EQ_U64(s.n, 3);
        CHECK(s.x[0] == 1 && s.x[1] == 2 && s.x[2] == 4, "order %g %g %g", s.x[0], s.x[1], s.x[2]);
        CHECK(s.y[0] == 0 && s.y[1] == 1 && s.y[2] == 0.5, "clamped %g %g %g", s.y[0], s.y[1], s.y[2]);
        CHECK_EQ_INT(plot_series_add(&s, 0.5, 0), -EINVAL);
        CHECK_EQ_INT(plot_series_add(&s, NAN, 0), -EINVAL);
        CHECK_EQ_INT(plot_series_add(&s, 8, NAN), -EINVAL);
        for (unsigned k = s.n; k < PLOT_POINTS_MAX; k++)
                CHECK_EQ_INT(plot_series_add(&s, 100 + k, 0), 0);
        CHECK_EQ_INT(plot_series_add(&s, 1000, 0), -E2BIG);
}

static void test_text(void) {
        PlotPanel p = { .title = "model <A&B>", .n_series = 1 };
        _cleanup_free_ char *svg = NULL;

        snprintf(p.series[0].label, sizeof(p.series[0].label), "x\"y'z\033[8m");
        (void) plot_series_add(&p.series[0], 1, 0.5);
        CHECK_EQ_INT(plot_svg("t<i>tle", &p, 1, "n&te", &svg), 0);
        CHECK(svg && strstr(svg, ">t&lt;i&gt;tle</text>"), "title not escaped");
        CHECK(svg && strstr(svg, ">model &lt;A&amp;B&gt;</text>"), "panel title not escaped");
        CHECK(svg && strstr(svg, ">x&quot;y&apos;z?[8m</text>"), "label not escaped");
        CHECK(svg && strstr(svg, ">n&amp;te</text>"), "note not escaped");
        CHECK(svg && !strchr(svg, '\033'), "ESC in the SVG");
        /* one pure black thing per panel: its frame */
        {
                size_t n = 0;

                for (const char *q = svg; q && (q = strstr(q, "#000000")); q++)
                        n++;
                CHECK_EQ_U64(n, 1);
        }
        CHECK_EQ_INT(plot_svg("t", &p, 0, NULL, &svg), -EINVAL);
        CHECK_EQ_INT(plot_svg("t", &p, PLOT_PANELS_MAX + 1, NULL, &svg), -EINVAL);
}

/* Only a regular file, or nothing, is replaced; the file is 0644. */
static void test_paths(void) {
        char dir[] = "/tmp/test-plot.XXXXXX", path[256], cwd[512];
        PlotPanel p = { .title = "p", .n_series = 1 };
        struct stat st;

        (void) plot_series_add(&p.series[0], 1, 0.5);
        CHECK(mkdtemp(dir), "mkdtemp");
        snprintf(path, sizeof(path), "%s/f.svg", dir);
        CHECK_EQ_INT(plot_check_path(path), 0);
        CHECK_EQ_INT(plot_write(path, "t", &p, 1, NULL), 0);
        CHECK(stat(path, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 07777) == 0644, "mode %o", st.st_mode);
        CHECK_EQ_INT(plot_write(path, "t", &p, 1, NULL), 0); /* over a regular file */

        snprintf(path, sizeof(path), "%s/fifo", dir);
        CHECK(mkfifo(path, 0600) == 0, "mkfifo");
        CHECK_EQ_INT(plot_check_path(path), -EBADFD);
        CHECK_EQ_INT(plot_write(path, "t", &p, 1, NULL), -EBADFD);
        CHECK(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO was replaced");
        snprintf(path, sizeof(path), "%s/d", dir);
        CHECK(mkdir(path, 0700) == 0, "mkdir");
        CHECK_EQ_INT(plot_check_path(path), -EISDIR);
        CHECK_EQ_INT(plot_write(path, "t", &p, 1, NULL), -EISDIR);
        snprintf(path, sizeof(path), "%s/link", dir);
        CHECK(symlink("f.svg", path) == 0, "symlink");
        CHECK_EQ_INT(plot_check_path(path), -ELOOP);
        CHECK_EQ_INT(plot_write(path, "t", &p, 1, NULL), -ELOOP);
        CHECK(lstat(path, &st) == 0 && S_ISLNK(st.st_mode), "the link was replaced");
        snprintf(path, sizeof(path), "%s/none/f.svg", dir);
        CHECK_EQ_INT(plot_check_path(path), -ENOENT);
        snprintf(path, sizeof(path), "%s/f.svg/x.svg", dir);
        CHECK_EQ_INT(plot_check_path(path), -ENOTDIR);
        /* a directory that takes no new file, said as such; "-" is no
         * file; the check leaves nothing behind */
        CHECK_EQ_INT(plot_check_path("/proc/x.svg"), -ENXIO);
        CHECK(strstr(plot_path_error_to_string(-ENXIO), "takes no new file"), "%s", plot_path_error_to_string(-ENXIO));
        CHECK(strcmp(plot_path_error_to_string(-ENOENT), "no such directory") == 0, "ENOENT");
        CHECK_EQ_INT(plot_check_path("-"), -EINVAL);
        {
                DIR *d = opendir(dir);
                struct dirent *de;

                CHECK(d != NULL, "opendir");
                while (d && (de = readdir(d)))
                        CHECK(strncmp(de->d_name, ".rng-health-check", 17) != 0, "left behind: %s", de->d_name);
                if (d)
                        closedir(d);
        }
        /* a name without a directory: the current one */
        CHECK(getcwd(cwd, sizeof(cwd)) && chdir(dir) == 0, "chdir");
        CHECK_EQ_INT(plot_check_path("here.svg"), 0);
        CHECK_EQ_INT(plot_write("here.svg", "t", &p, 1, NULL), 0);
        CHECK(stat("here.svg", &st) == 0 && S_ISREG(st.st_mode), "here.svg");
        CHECK(chdir(cwd) == 0, "chdir back");

        snprintf(path, sizeof(path), "rm -rf %s", dir);
        CHECK(system(path) == 0, "rm");
}

/* Three panels as report --fleet draws them: ratios spread over the
 * height, 12 threads (not a power of two), two series sharing points. */
static int write_fixture(const char *dir) {
        static const double ratios[3][4][3] = {
                { { 0.72, 0.90, 0.98 }, { 0.10, 0.35, 0.60 }, { 0, 0, 0 }, { 0, 0, 0.02 } },
                { { 0.05, 0.10, 0.20 }, { 0.95, 0.97, 0.99 }, { 0.5, 0.5, 0.5 }, { 0.5, 0.5, 0.5 } },
                { { 0.30, 0.30, 0.80 }, { 0, 0.45, 0.45 }, { 1, 1, 1 }, { 0.25, 0.75, 0.25 } },
        };
        static const double threads[3] = { 1, 4, 12 };
        _cleanup_free_ PlotPanel *panels = calloc(3, sizeof(PlotPanel));
        char path[512];
        FILE *f;
        int r;

        if (!panels)
                return -ENOMEM;
        snprintf(path, sizeof(path), "%s/fixture.json", dir);
        f = fopen(path, "we");
        if (!f)
                return -errno;
        fputs("{\"panels\": [", f);
        for (unsigned k = 0; k < 3; k++) {
                snprintf(panels[k].title, sizeof(panels[k].title), "model %u", k);
                panels[k].n_series = 4;
                fprintf(f, "%s{\"title\": \"model %u\", \"series\": [", k ? ", " : "", k);
                for (unsigned s = 0; s < 4; s++) {
                        snprintf(panels[k].series[s].label, sizeof(panels[k].series[s].label), "S%u %u-bit", s, 16u << s);
                        panels[k].series[s].color = s;
                        fprintf(f, "%s{\"label\": \"S%u %u-bit\", \"points\": [", s ? ", " : "", s, 16u << s);
                        for (unsigned j = 0; j < 3; j++) {
                                (void) plot_series_add(&panels[k].series[s], threads[j], ratios[k][s][j]);
                                fprintf(f, "%s[%g, %g]", j ? ", " : "", threads[j], ratios[k][s][j]);
                        }
                        fputs("]}", f);
                }
                fputs("]}", f);
        }
        fputs("]}\n", f);
        if (fclose(f) != 0)
                return -errno;
        snprintf(path, sizeof(path), "%s/fixture.svg", dir);
        r = plot_write(path, "fixture: three models", panels, 3, "a note");
        if (r >= 0)
                printf("wrote %s/fixture.svg and fixture.json\n", dir);
        return r;
}

int main(int argc, char *argv[]) {
        test_series();
        test_text();
        test_paths();
        if (argc == 2)
                CHECK_EQ_INT(write_fixture(argv[1]), 0);
        return test_result("test-plot");
}
