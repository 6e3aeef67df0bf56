#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A broken `rng-health probe` for probe-reference-negative.sh: runs the real
program (RNG_PROBE_REAL) and alters its JSON the way a defect would
(RNG_PROBE_TAMPER), so that the negative controls can show probe-reference
fails on it:

  erratic    every other counted call per thread count (--count > 1)
             reports 12 % of its tries as failed on top of what happened
             (delivered lowered to match): an erratic probe, whose own
             scatter must not widen its allowance;
  no-window  the sweep's first point has no tries in its window;
  no-rate    the sweep's first point has no values/s.
Calls it does not alter pass through. RNG_PROBE_TAMPER_STATE is a file for
the count of calls.
"""
import json
import os
import subprocess
import sys


def main():
    real = os.environ["RNG_PROBE_REAL"]
    mode = os.environ["RNG_PROBE_TAMPER"]
    state = os.environ["RNG_PROBE_TAMPER_STATE"]
    p = subprocess.run([real] + sys.argv[1:], capture_output=True, text=True)
    sys.stderr.write(p.stderr)
    if "--json" not in sys.argv or not p.stdout.strip():
        sys.stdout.write(p.stdout)
        return p.returncode
    doc = json.loads(p.stdout)
    argv = sys.argv[1:]
    sweep = "--sweep" in argv
    if mode == "erratic" and not sweep and int(argv[argv.index("--count") + 1]) > 1:
        key = argv[argv.index("--threads") + 1]
        try:
            with open(state) as f:
                calls = json.load(f)
        except (OSError, ValueError):
            calls = {}
        n = calls.get(key, 0)
        calls[key] = n + 1
        with open(state, "w") as f:
            json.dump(calls, f)
        if n % 2 == 0:
            for ins in doc["instructions"]:
                for run in ins["runs"]:
                    k = min(int(0.12 * run["attempts"]), run["delivered"])
                    # The values' own counts shrink with them (only the
                    # failure fraction is wrong).
                    bits = run["health"].get("bit_balance", {}).get("ones")
                    if bits and run["delivered"]:
                        keep = (run["delivered"] - k) / run["delivered"]
                        run["health"]["bit_balance"]["ones"] = [round(b * keep) for b in bits]
                    run["failures"] += k
                    run["delivered"] -= k
    elif mode in ("no-window", "no-rate") and sweep:
        point = doc["sweeps"][0]["points"][0]
        if mode == "no-window":
            point["window"]["attempts"] = point["window"]["failures"] = 0
        else:
            point["values_per_sec"] = 0
    json.dump(doc, sys.stdout)
    sys.stdout.write("\n")
    return p.returncode


if __name__ == "__main__":
    sys.exit(main())
