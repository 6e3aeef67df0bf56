#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks rng-health's failure-ratio figure (service/cli/plot-svg.h) as a
person sees it: renders the SVG with a real renderer (rsvg-convert, from
librsvg2-bin) to PNG, decodes the PNG here (zlib and the PNG filters; no
code of rng-health's), finds each panel's plot area (the 1-pixel frame of
pure black), and checks that every expected point shows in its series'
color where the data put it, and that the color is absent from the same
column at a ratio far from it.

  check-svg.py SVG EXPECT.json [--keep-png PNG]

EXPECT.json: {"panels": [{"title": "...", "series": [{"label": "...",
"points": [[threads, ratio], ...]}, ...]}, ...]}, panels in the order they
are drawn. A series' color is read from the figure's legend (the legend is
drawn for people; the check is on the pixels): the legend entry with the
series' label.

Exit status: 0 every point found; 1 a point missing or misplaced (each
named); 2 the figure could not be rendered or read.
"""
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

SVG = "{http://www.w3.org/2000/svg}"


def die(msg):
    print("check-svg:", msg, file=sys.stderr)
    sys.exit(2)


def read_png(path):
    """(width, height, rows): rows[y][x] = (r, g, b). 8-bit RGB or RGBA,
    not interlaced: what rsvg-convert writes."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        die(f"{path}: not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if not ihdr:
        die(f"{path}: no IHDR")
    width, height, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        die(f"{path}: depth {depth}, color type {ctype}, interlace {interlace}: not 8-bit RGB(A)")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
            elif ftype != 0:
                die(f"{path}: filter type {ftype} in row {y}")
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def frames(width, height, rows):
    """The plot areas: (left, top, right, bottom) of each rectangle of pure
    black, top to bottom, from its horizontal edges (runs of >= 100 black
    pixels)."""
    edges = []
    for y in range(height):
        x = 0
        while x < width:
            if rows[y][x] == (0, 0, 0):
                s = x
                while x < width and rows[y][x] == (0, 0, 0):
                    x += 1
                if x - s >= 100:
                    edges.append((y, s, x - 1))
            else:
                x += 1
    # the two edges of a frame: same span; the top one first
    found, used = [], set()
    for i, (y, l, r) in enumerate(edges):
        if i in used:
            continue
        for j in range(i + 1, len(edges)):
            y2, l2, r2 = edges[j]
            if j not in used and abs(l2 - l) <= 1 and abs(r2 - r) <= 1 and y2 - y > 50:
                found.append((l, y, r, y2))
                used.update((i, j))
                break
    return found


def hex_color(c):
    c = c.lstrip("#")
    return tuple(int(c[i:i + 2], 16) for i in (0, 2, 4))


def near(rows, x, y, color, radius, tol=40):
    h, w = len(rows), len(rows[0])
    for yy in range(max(0, y - radius), min(h, y + radius + 1)):
        for xx in range(max(0, x - radius), min(w, x + radius + 1)):
            p = rows[yy][xx]
            if all(abs(p[k] - color[k]) <= tol for k in range(3)):
                return True
    return False


def legend_colors(svg_path):
    """label -> color: each legend <text> after its <line> of the color."""
    colors, last = {}, None
    for el in ET.parse(svg_path).getroot().iter():
        if el.tag == SVG + "line" and el.get("stroke-width") == "2":
            last = el.get("stroke")
        elif el.tag == SVG + "text" and last:
            label = "".join(el.itertext())
            if colors.setdefault(label, last) != last:
                die(f"{svg_path}: '{label}' has two colors in the legend: {colors[label]} and {last}")
            last = None
        elif el.tag != SVG + "circle":
            last = None
    return colors


def main():
    args = sys.argv[1:]
    keep = None
    if "--keep-png" in args:
        i = args.index("--keep-png")
        keep = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        die("usage: check-svg.py SVG EXPECT.json [--keep-png PNG]")
    svg, expect_path = args
    with open(expect_path) as f:
        expect = json.load(f)
    with tempfile.TemporaryDirectory() as d:
        png = keep or os.path.join(d, "figure.png")
        r = subprocess.run(["rsvg-convert", "--format=png", "--output", png, svg], capture_output=True, text=True)
        if r.returncode != 0:
            die(f"rsvg-convert failed on {svg}: {r.stderr.strip()}")
        width, height, rows = read_png(png)
    boxes = frames(width, height, rows)
    colors = legend_colors(svg)
    panels = expect["panels"]
    bad = 0

    def fail(msg):
        nonlocal bad
        print("FAIL:", msg)
        bad += 1

    if len(boxes) != len(panels):
        fail(f"{len(boxes)} plot areas in the picture, {len(panels)} panels expected")
    checked = 0
    for k, (panel, box) in enumerate(zip(panels, boxes)):
        left, top, right, bottom = box
        xmax = max([p[0] for s in panel["series"] for p in s["points"]] + [1])
        xmax = xmax if xmax > 1 else 2
        for s in panel["series"]:
            if s["label"] not in colors:
                fail(f"panel {k} ({panel.get('title')}): no legend entry '{s['label']}'")
                continue
            color = hex_color(colors[s["label"]])
            xs = {p[0] for p in s["points"]}
            for x, y in s["points"]:
                px = round(left + math.log2(x) / math.log2(xmax) * (right - left))
                py = round(bottom - y * (bottom - top))
                # a marker shared by m series is a circle of radius 4 + m
                # cut into wedges (plot-svg.h): look as far as it can reach
                if not near(rows, px, py, color, 4 + len(panel["series"])):
                    fail(f"panel {k} ({panel.get('title')}), {s['label']}: no {colors[s['label']]} at ({px}, {py}) "
                         f"for {x} threads, ratio {y:.4f}")
                    continue
                checked += 1
                # the same column far from the point: not this series
                # (unless another of its points is drawn there)
                other = 1 - y if abs(0.5 - y) > 0.2 else (y + 0.45 if y < 0.5 else y - 0.45)
                qy = round(bottom - other * (bottom - top))
                if abs(other - y) > 0.15 and sum(1 for xx in xs if xx == x) == 1 and near(rows, px, qy, color, 1, 10):
                    fail(f"panel {k}, {s['label']}: {colors[s['label']]} also at ({px}, {qy}), ratio {other:.2f}, "
                         f"where no point of it is")
    if bad:
        print(f"check-svg: {bad} problem(s) in {svg}")
        return 1
    print(f"ok: {svg} rendered {width}x{height}: {len(boxes)} plot area(s), {checked} points where the data put them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
