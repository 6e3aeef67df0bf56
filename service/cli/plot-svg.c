/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "macro.h"
#include "plot-svg.h"

/* The page: the plot area of each panel at PLOT_LEFT, PLOT_WIDTH wide,
 * the legend to its right. */
#define PAGE_WIDTH 780
#define PLOT_LEFT 70
#define PLOT_WIDTH 470
#define PLOT_HEIGHT 240
#define TITLE_HEIGHT 40
#define PANEL_TITLE 30  /* above a plot area */
#define PANEL_BELOW 48  /* tick labels and the axis title */
#define NOTE_HEIGHT 30
#define LEGEND_X (PLOT_LEFT + PLOT_WIDTH + 24)

/* Distinct, saturated, none black, white or gray. */
static const char *const palette[PLOT_SERIES_MAX] = {
        "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
        "#bcbd22", "#0000ff", "#00c000", "#c00000", "#008080", "#800080", "#ff00ff", "#806000",
};

const char *plot_color(unsigned k) {
        return palette[k % PLOT_SERIES_MAX];
}

int plot_series_add(PlotSeries *s, double x, double y) {
        unsigned k;

        if (!(x >= 1) || isnan(y))
                return -EINVAL;
        for (k = 0; k < s->n; k++)
                if (s->x[k] == x)
                        return 0;
        if (s->n >= PLOT_POINTS_MAX)
                return -E2BIG;
        /* kept in increasing x */
        for (k = s->n; k > 0 && s->x[k - 1] > x; k--) {
                s->x[k] = s->x[k - 1];
                s->y[k] = s->y[k - 1];
        }
        s->x[k] = x;
        s->y[k] = y < 0 ? 0 : y > 1 ? 1 : y;
        s->n++;
        return 0;
}

/* Text for XML: & < > " ' escaped, bytes below 0x20 and DEL as '?'. */
static void put_text(FILE *f, const char *s) {
        for (; s && *s; s++)
                switch (*s) {
                case '&': fputs("&amp;", f); break;
                case '<': fputs("&lt;", f); break;
                case '>': fputs("&gt;", f); break;
                case '"': fputs("&quot;", f); break;
                case '\'': fputs("&apos;", f); break;
                default: fputc((unsigned char) *s < 0x20 || *s == 0x7f ? '?' : *s, f);
                }
}

static void text(FILE *f, double x, double y, const char *anchor, unsigned size, const char *weight, const char *s) {
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%u\" font-weight=\"%s\" fill=\"#333333\">",
                x, y, anchor, size, weight);
        put_text(f, s);
        fputs("</text>\n", f);
}

static double panel_xmax(const PlotPanel *p) {
        double m = 1;

        for (unsigned s = 0; s < p->n_series; s++)
                for (unsigned k = 0; k < p->series[s].n; k++)
                        m = MAX(m, p->series[s].x[k]);
        return m > 1 ? m : 2;
}

static double px(double x, double xmax) {
        return PLOT_LEFT + log2(x) / log2(xmax) * PLOT_WIDTH;
}

static double py(double top, double y) {
        return top + (1 - y) * PLOT_HEIGHT;
}

/* The x ticks: 1, 2, 4, ... up to xmax, and xmax itself. */
static void x_axis(FILE *f, double top, double xmax) {
        double bottom = top + PLOT_HEIGHT;
        char label[32];

        for (double t = 1; t <= xmax; t *= 2) {
                /* a power of two too close to xmax (less than 4 % of the
                 * width) gives way to xmax's own label */
                if (t < xmax && px(xmax, xmax) - px(t, xmax) < 0.04 * PLOT_WIDTH)
                        continue;
                fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n", px(t, xmax), top,
                        px(t, xmax), bottom);
                snprintf(label, sizeof(label), "%g", t);
                text(f, px(t, xmax), bottom + 16, "middle", 11, "normal", label);
        }
        if (log2(xmax) != floor(log2(xmax))) {
                snprintf(label, sizeof(label), "%g", xmax);
                text(f, px(xmax, xmax), bottom + 16, "middle", 11, "normal", label);
        }
        text(f, PLOT_LEFT + PLOT_WIDTH / 2.0, bottom + 36, "middle", 12, "normal", "threads drawing at once (log scale)");
}

static void y_axis(FILE *f, double top) {
        char label[16];

        for (int pct = 0; pct <= 100; pct += 20) {
                double y = py(top, pct / 100.0);

                fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n", PLOT_LEFT, y,
                        PLOT_LEFT + PLOT_WIDTH, y);
                snprintf(label, sizeof(label), "%d %%", pct);
                text(f, PLOT_LEFT - 8, y + 4, "end", 11, "normal", label);
        }
        fprintf(f, "<text transform=\"translate(18 %.1f) rotate(-90)\" text-anchor=\"middle\" font-size=\"12\" "
                "fill=\"#333333\">failed tries</text>\n", top + PLOT_HEIGHT / 2.0);
}

static void line(FILE *f, const PlotSeries *s, double top, double xmax) {
        if (s->n < 2)
                return;
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", plot_color(s->color));
        for (unsigned j = 0; j < s->n; j++)
                fprintf(f, "%s%.1f,%.1f", j ? " " : "", px(s->x[j], xmax), py(top, s->y[j]));
        fputs("\"/>\n", f);
}

/* The markers of series k. A point that others' points cover (within
 * PLOT_COINCIDE pixels) would hide them: such points share one marker,
 * a circle of radius PLOT_MARKER_RADIUS + m cut into m wedges, one per
 * series in series order, so that every color shows. */
#define PLOT_COINCIDE 3.0
static void markers(FILE *f, const PlotPanel *p, unsigned k, double top, double xmax) {
        const PlotSeries *s = &p->series[k];

        for (unsigned j = 0; j < s->n; j++) {
                double cx = px(s->x[j], xmax), cy = py(top, s->y[j]), r, a0, a1;
                unsigned m = 0, at = 0;

                for (unsigned o = 0; o < p->n_series; o++)
                        for (unsigned q = 0; q < p->series[o].n; q++)
                                if (fabs(px(p->series[o].x[q], xmax) - cx) <= PLOT_COINCIDE &&
                                    fabs(py(top, p->series[o].y[q]) - cy) <= PLOT_COINCIDE) {
                                        if (o < k)
                                                at++;
                                        m++;
                                        break; /* one per series */
                                }
                if (m <= 1) {
                        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\"/>\n", cx, cy,
                                PLOT_MARKER_RADIUS, plot_color(s->color));
                        continue;
                }
                r = PLOT_MARKER_RADIUS + m;
                a0 = 2 * M_PI * at / m - M_PI / 2;
                a1 = 2 * M_PI * (at + 1) / m - M_PI / 2;
                fprintf(f, "<path d=\"M%.2f,%.2f L%.2f,%.2f A%.1f,%.1f 0 0 1 %.2f,%.2f Z\" fill=\"%s\"/>\n", cx, cy,
                        cx + r * cos(a0), cy + r * sin(a0), r, r, cx + r * cos(a1), cy + r * sin(a1),
                        plot_color(s->color));
        }
}

static void legend(FILE *f, const PlotPanel *p, double top) {
        for (unsigned k = 0; k < p->n_series; k++) {
                double y = top + 10 + k * 18;

                fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
                        LEGEND_X, y, LEGEND_X + 22, y, plot_color(p->series[k].color));
                fprintf(f, "<circle cx=\"%d\" cy=\"%.1f\" r=\"%d\" fill=\"%s\"/>\n", LEGEND_X + 11, y,
                        PLOT_MARKER_RADIUS, plot_color(p->series[k].color));
                text(f, LEGEND_X + 30, y + 4, "start", 11, "normal", p->series[k].label);
        }
}

static void panel(FILE *f, const PlotPanel *p, double y0) {
        double top = y0 + PANEL_TITLE, xmax = panel_xmax(p);

        text(f, PLOT_LEFT, y0 + 20, "start", 12, "bold", p->title);
        y_axis(f, top);
        x_axis(f, top, xmax);
        for (unsigned k = 0; k < p->n_series; k++)
                line(f, &p->series[k], top, xmax);
        for (unsigned k = 0; k < p->n_series; k++)
                markers(f, p, k, top, xmax);
        /* the frame last, over the grid: the only pure black of the page */
        fprintf(f, "<rect x=\"%d.5\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000000\" "
                "stroke-width=\"1\" shape-rendering=\"crispEdges\"/>\n", PLOT_LEFT, floor(top) + 0.5, PLOT_WIDTH,
                PLOT_HEIGHT);
        legend(f, p, top);
}

int plot_svg(const char *title, const PlotPanel *panels, size_t n, const char *note, char **ret) {
        const double panel_height = PANEL_TITLE + PLOT_HEIGHT + PANEL_BELOW;
        _cleanup_free_ char *buf = NULL;
        size_t size = 0;
        double height;
        FILE *f;
        int r;

        if (n == 0 || n > PLOT_PANELS_MAX)
                return -EINVAL;
        for (size_t i = 0; i < n; i++)
                if (panels[i].n_series > PLOT_SERIES_MAX)
                        return -EINVAL;
        height = TITLE_HEIGHT + n * panel_height + (note ? NOTE_HEIGHT : 0);
        f = open_memstream(&buf, &size);
        if (!f)
                return -ENOMEM;
        fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
                "font-family=\"sans-serif\">\n", PAGE_WIDTH, height, PAGE_WIDTH, height);
        fputs("<title>", f);
        put_text(f, title);
        fputs("</title>\n", f);
        fprintf(f, "<rect width=\"%d\" height=\"%.0f\" fill=\"#ffffff\"/>\n", PAGE_WIDTH, height);
        text(f, 16, 26, "start", 14, "bold", title);
        for (size_t i = 0; i < n; i++)
                panel(f, &panels[i], TITLE_HEIGHT + i * panel_height);
        if (note)
                text(f, 16, height - 10, "start", 11, "normal", note);
        fputs("</svg>\n", f);
        r = ferror(f);
        if (fclose(f) != 0 || r)
                return -ENOMEM;
        *ret = TAKE_PTR(buf);
        return 0;
}

/* Whether dir takes a new file: one made (O_EXCL, hidden, as
 * write_file_atomic() makes its temporary) and removed at once. A
 * directory that exists may still take none (/proc: ENOENT; read-only:
 * EROFS; not ours: EACCES). */
static int dir_takes_file(const char *dir) {
        _cleanup_free_ char *t = NULL;
        int fd;

        if (asprintf(&t, "%s/.rng-health-check.XXXXXX", dir) < 0)
                return -ENOMEM;
        fd = mkostemp(t, O_CLOEXEC);
        if (fd < 0)
                return errno == ENOENT ? -ENXIO : -errno;
        close(fd);
        (void) unlink(t);
        return 0;
}

int plot_check_path(const char *path) {
        _cleanup_free_ char *dir = strdup(path);
        struct stat st;
        char *slash;

        if (!dir)
                return -ENOMEM;
        if (strcmp(path, "-") == 0)
                return -EINVAL;
        if (lstat(path, &st) >= 0)
                return S_ISLNK(st.st_mode) ? -ELOOP : S_ISDIR(st.st_mode) ? -EISDIR : !S_ISREG(st.st_mode) ? -EBADFD : 0;
        if (errno != ENOENT)
                return -errno;
        slash = strrchr(dir, '/');
        if (!slash)
                return dir_takes_file("."); /* the current directory */
        slash[slash == dir] = '\0'; /* "/x": "/" */
        if (stat(dir, &st) < 0)
                return -errno;
        return S_ISDIR(st.st_mode) ? dir_takes_file(dir) : -ENOTDIR;
}

const char *plot_path_error_to_string(int r) {
        switch (r) {
        case -EINVAL:
                return "'-' is no file here (standard output has the table or JSON): name a file";
        case -ENOENT:
                return "no such directory";
        case -ENXIO:
                return "its directory takes no new file (as /proc)";
        default:
                return input_error_to_string(r);
        }
}

int plot_write(const char *path, const char *title, const PlotPanel *panels, size_t n, const char *note) {
        _cleanup_free_ char *svg = NULL, *local = NULL;
        int r;

        r = plot_svg(title, panels, n, note, &svg);
        if (r < 0)
                return r;
        /* write_file_atomic() wants the directory named */
        if (!strchr(path, '/')) {
                if (asprintf(&local, "./%s", path) < 0)
                        return -ENOMEM;
                path = local;
        }
        return write_file_atomic(path, svg, 0644);
}
