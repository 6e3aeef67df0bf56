#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`rng-health probe --sweep --json --svg FILE` on this machine's real
instructions: the figure, rendered by rsvg-convert (check-svg.py), shows
every point of the same run's JSON where its threads and failure ratio
put it, one panel per package. Negative control: the same figure checked
against the JSON with one point's ratio moved must fail. Then --svg's bad
paths: refused before the measurement, exit 73, nothing written.

  probe-svg.py RNG_HEALTH CHECK_SVG [PNG_OUT]
"""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile


def main():
    prog, check = sys.argv[1], sys.argv[2]
    if not shutil.which("rsvg-convert"):
        if os.environ.get("RNG_HEALTH_HOST_SETUP"):
            print("FAIL: no rsvg-convert (tools/setup-host installs librsvg2-bin)")
            return 1
        print("SKIP: no rsvg-convert (librsvg2-bin)")
        return 77
    keep = sys.argv[3] if len(sys.argv) > 3 else None
    bad = 0

    def fail(msg):
        nonlocal bad
        print("FAIL:", msg)
        bad += 1

    with tempfile.TemporaryDirectory() as d:
        svg = os.path.join(d, "sweep.svg")
        r = subprocess.run([prog, "probe", "--sweep", "--count", "4096", "--json", "--svg", svg],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(f"FAIL: probe --sweep --svg: exit {r.returncode}: {r.stderr}")
            return 1
        j = json.loads(r.stdout)
        if not j["sweeps"]:
            print("SKIP: nothing swept (no instruction executes here)")
            return 77
        mode = stat.S_IMODE(os.stat(svg).st_mode)
        if mode != 0o644:
            fail(f"the figure's mode is {mode:o}, expected 644")
        panels, order = [], {}
        for sw in j["sweeps"]:
            pkg = sw["package"]
            if pkg not in order:
                order[pkg] = len(panels)
                panels.append({"title": f"package {pkg}", "series": []})
            panels[order[pkg]]["series"].append({
                "label": f"{sw['instruction'].upper()} {sw['width']}-bit",
                "points": [[p["threads"], p["failure_rate"]] for p in sw["points"]]})
        expect = os.path.join(d, "expect.json")
        with open(expect, "w") as f:
            json.dump({"panels": panels}, f)
        args = [check, svg, expect] + (["--keep-png", keep] if keep else [])
        r = subprocess.run(args, capture_output=True, text=True)
        print(r.stdout, end="")
        if r.returncode != 0:
            fail(f"check-svg on the sweep's own figure: exit {r.returncode}: {r.stderr}")
        # negative control: a point moved
        moved = json.loads(json.dumps(panels))
        pt = moved[0]["series"][0]["points"][0]
        pt[1] = 1.0 if pt[1] < 0.5 else 0.0
        with open(expect, "w") as f:
            json.dump({"panels": moved}, f)
        r = subprocess.run([check, svg, expect], capture_output=True, text=True)
        if r.returncode != 1:
            fail(f"check-svg passed a point moved to {pt}: exit {r.returncode}: {r.stdout}")
        else:
            print("ok: a point moved in the expectation fails check-svg:", r.stdout.splitlines()[0])

        # --svg where no figure may go: refused at once (exit 73), the
        # thing there untouched; --svg without --sweep is a usage error
        os.mkfifo(os.path.join(d, "fifo"))
        os.mkdir(os.path.join(d, "dir"))
        os.symlink(svg, os.path.join(d, "link"))
        for name, why in (("fifo", "is not a regular file"), ("dir", "is a directory"),
                          ("link", "is a symbolic link"), ("nodir/x.svg", "no such directory"),
                          ("/proc/x.svg", "its directory takes no new file"), ("-", "'-' is no file here")):
            path = name if name in ("/proc/x.svg", "-") else os.path.join(d, name)
            r = subprocess.run([prog, "probe", "--sweep", "--count", "1", "--svg", path], capture_output=True,
                               text=True, timeout=60)
            lines = r.stderr.strip().splitlines()
            if r.returncode != 73 or len(lines) != 1 or why not in lines[0] or r.stdout:
                fail(f"--svg {name}: exit {r.returncode}, stderr {r.stderr!r}, stdout {len(r.stdout)} bytes")
            else:
                print(f"ok: --svg {name}: exit 73 before measuring: {lines[0]}")
        if os.path.exists("-"):
            fail("--svg - wrote a file named '-'")
        # A sweep of a source drawn from no CPU (the device) says why not.
        r = subprocess.run([prog, "probe", "--sweep", "--instruction", "hwrng"], capture_output=True, text=True,
                           timeout=60)
        if r.returncode != 0 or "HWRNG: not swept: it is not drawn from every CPU at once" not in r.stdout:
            fail(f"--sweep --instruction hwrng: exit {r.returncode}: {r.stdout!r}")
        else:
            print("ok: --sweep --instruction hwrng: said not swept, and why")
        if stat.S_ISFIFO(os.lstat(os.path.join(d, "fifo")).st_mode) is False or \
                not os.path.islink(os.path.join(d, "link")):
            fail("a refused path was replaced")
        r = subprocess.run([prog, "probe", "--svg", svg], capture_output=True, text=True)
        if r.returncode != 2 or "only with --sweep" not in r.stderr:
            fail(f"--svg without --sweep: exit {r.returncode}: {r.stderr!r}")
    if bad:
        return 1
    print("probe-svg: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
