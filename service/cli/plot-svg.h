/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The figure of the article: the failure ratio of tries against the
 * threads drawing at once, one line per series (a source and width), as
 * SVG text; no library. `probe --sweep --svg` draws one panel per package,
 * `report --fleet --svg` one per CPU model. Pure: plot_write() is the only
 * I/O, through write_file_atomic() (only a regular file, or nothing, is
 * replaced).
 *
 * Geometry (what tests/host/check-svg.py finds again in the rendered
 * picture): each panel's plot area is a 1-pixel frame of pure black
 * (#000000), and nothing else in the figure is pure black; x is log2 of
 * the threads from 1 (the frame's left edge) to the panel's largest x (its
 * right edge; 2 where that is 1), y the ratio from 0 (bottom edge) to 1
 * (top edge). Every point is a filled circle of radius PLOT_MARKER_RADIUS
 * in its series' color (plot_color() of PlotSeries.color), the points joined by a line of it;
 * m series' points that fall on the same spot (within 3 pixels) share one
 * circle of radius PLOT_MARKER_RADIUS + m cut into m wedges, one in each
 * series' color, so that none hides another. */

#include <stddef.h>

#define PLOT_POINTS_MAX 32
#define PLOT_SERIES_MAX 16
#define PLOT_PANELS_MAX 16
#define PLOT_MARKER_RADIUS 4

typedef struct PlotSeries {
        char label[96];
        unsigned color;            /* plot_color()'s index: the same series in every panel alike */
        unsigned n;
        double x[PLOT_POINTS_MAX]; /* threads, >= 1, increasing */
        double y[PLOT_POINTS_MAX]; /* failure ratio, 0..1 */
} PlotSeries;

typedef struct PlotPanel {
        char title[160];
        unsigned n_series;
        PlotSeries series[PLOT_SERIES_MAX];
} PlotPanel;

/* Color k, "#rrggbb": PLOT_SERIES_MAX distinct ones (k modulo that), none
 * black, white or gray. */
const char *plot_color(unsigned k);

/* Adds point (x, y) to s: x >= 1, y clamped to 0..1; an x already there
 * keeps the first point. -E2BIG when full, -EINVAL for x < 1 or NaN. */
int plot_series_add(PlotSeries *s, double x, double y);

/* The SVG document: title, then the panels stacked (each with its title,
 * axes, grid, lines and a legend), then note (NULL: none) at the bottom.
 * Text is escaped for XML; bytes below 0x20 become '?'. Newly allocated
 * in *ret; -EINVAL for no panel or more than PLOT_PANELS_MAX, -ENOMEM. */
int plot_svg(const char *title, const PlotPanel *panels, size_t n, const char *note, char **ret);

/* Whether plot_write() could write path, before the work that makes the
 * figure: what is there is a regular file or nothing, in a directory that
 * exists and takes a new file (one is made and removed); write_file_atomic()'s
 * errors (-ELOOP, -EISDIR, -EBADFD), -ENOENT for a missing directory,
 * -ENXIO for one that takes no new file (/proc), -EACCES, -EROFS; -EINVAL
 * for "-" (standard output is the table's or the JSON's). */
int plot_check_path(const char *path);
/* The reason for plot_check_path()'s and plot_write()'s errors, a clause:
 * "no such directory", "its directory takes no new file (as /proc)", ... */
const char *plot_path_error_to_string(int r);

/* plot_svg() written to path with write_file_atomic() (mode 0644; a path
 * without a directory is taken in the current one). The errors of either. */
int plot_write(const char *path, const char *title, const PlotPanel *panels, size_t n, const char *note);
